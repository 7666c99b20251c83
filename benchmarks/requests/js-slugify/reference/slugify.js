// Reference solution of js-slugify.
function slugify(title, maxLength) {
  if (typeof title !== 'string') throw new TypeError('title must be a string');
  const full = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (maxLength === undefined || full.length <= maxLength) return full;
  const words = full.split('-');
  let cut = '';
  for (const word of words) {
    const longer = cut ? `${cut}-${word}` : word;
    if (longer.length > maxLength) break;
    cut = longer;
  }
  return cut || words[0].slice(0, maxLength);
}

module.exports = { slugify };
