function applyDiscount(cents, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError('Discount percentage must be between 0 and 100');
  }
  return Math.ceil(cents * (1 - percent / 100));
}

function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}

function addItem(name, priceCents, qty = 1) {
  if (typeof name !== 'string' || typeof priceCents !== 'number' || typeof qty !== 'number') {
    throw new TypeError('All arguments must be of type string, number, and number, respectively');
  }
  if (qty < 0) {
    throw new RangeError('Quantity must be non-negative');
  }
  if (this.items[name]) {
    this.items[name].qty += qty;
  } else {
    this.items[name] = { name, priceCents, qty };
  }
  this.subtotal += priceCents * qty;
}

function removeItem(name) {
  if (typeof name !== 'string') {
    throw new TypeError('Argument must be of type string');
  }
  if (!this.items[name]) {
    throw new Error('Item not found');
  }
  delete this.items[name];
  this.subtotal -= this.items[name].priceCents * this.items[name].qty;
}

function itemCount() {
  return Object.values(this.items).reduce((acc, item) => acc + item.qty, 0);
}

function subtotal() {
  return Object.values(this.items).reduce((acc, item) => acc + item.priceCents * item.qty, 0);
}

function total(discountPercent = 0) {
  if (discountPercent < 0 || discountPercent > 100) {
    throw new RangeError('Discount percentage must be between 0 and 100');
  }
  const discountedSubtotal = this.subtotal() * (1 - discountPercent / 100);
  return formatPrice(discountedSubtotal);
}

const items = {};
const cart = { applyDiscount, formatPrice, addItem, removeItem, itemCount, subtotal, total, items };

module.exports = cart;
