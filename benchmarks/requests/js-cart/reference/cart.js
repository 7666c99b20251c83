// Reference solution of js-cart: the cart.
const { applyDiscount } = require('./pricing');

class Cart {
  constructor() {
    this.items = new Map();
  }

  addItem(name, priceCents, qty = 1) {
    if (!Number.isInteger(qty) || qty < 1) throw new RangeError('qty must be a positive integer');
    if (!Number.isInteger(priceCents) || priceCents < 0) {
      throw new RangeError('priceCents must be a non-negative integer');
    }
    const item = this.items.get(name);
    if (item) item.qty += qty;
    else this.items.set(name, { priceCents, qty });
  }

  removeItem(name) {
    if (!this.items.delete(name)) throw new Error(`${name} is not in the cart`);
  }

  itemCount() {
    let count = 0;
    for (const item of this.items.values()) count += item.qty;
    return count;
  }

  subtotal() {
    let sum = 0;
    for (const item of this.items.values()) sum += item.priceCents * item.qty;
    return sum;
  }

  total(discountPercent = 0) {
    return applyDiscount(this.subtotal(), discountPercent);
  }
}

module.exports = { Cart };
