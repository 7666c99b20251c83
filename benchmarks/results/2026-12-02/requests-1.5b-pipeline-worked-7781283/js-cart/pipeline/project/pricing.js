function applyDiscount(cents, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError('Discount percentage must be between 0 and 100');
  }
  return Math.ceil(cents * (1 - percent / 100));
}

function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}

module.exports = { applyDiscount, formatPrice };
