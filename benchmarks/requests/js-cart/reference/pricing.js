// Reference solution of js-cart: prices.
function applyDiscount(cents, percent) {
  if (!(percent >= 0 && percent <= 100)) throw new RangeError('percent must be within 0..100');
  return Math.floor((cents * (100 - percent) + 50) / 100);
}

function formatPrice(cents) {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

module.exports = { applyDiscount, formatPrice };
