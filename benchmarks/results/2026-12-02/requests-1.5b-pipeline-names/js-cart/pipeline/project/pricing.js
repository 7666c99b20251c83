function applyDiscount(cents, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError('Percent must be between 0 and 100');
  }
  return Math.ceil(cents * (100 - percent) / 100);
}

function formatPrice(priceCents) {
  return `$${(priceCents / 100).toFixed(2)}`;
}

module.exports = { applyDiscount, formatPrice };
