const pricing = require('./pricing');

class Cart {
  constructor() {
    this.items = {};
  }

  addItem(name, priceCents, qty = 1) {
    if (qty <= 0 || priceCents < 0) {
      throw new RangeError('Qty must be a positive integer and priceCents a non-negative integer');
    }
    if (this.items[name]) {
      this.items[name].qty += qty;
    } else {
      this.items[name] = { priceCents, qty };
    }
  }

  removeItem(name) {
    if (!this.items[name]) {
      throw new Error('Item not found in cart');
    }
    delete this.items[name];
  }

  itemCount() {
    return Object.values(this.items).reduce((acc, item) => acc + item.qty, 0);
  }

  subtotal() {
    return Object.values(this.items).reduce((acc, item) => acc + item.priceCents * item.qty, 0);
  }

  total(discountPercent = 0) {
    return pricing.applyDiscount(this.subtotal(), discountPercent);
  }
}

module.exports = Cart;
