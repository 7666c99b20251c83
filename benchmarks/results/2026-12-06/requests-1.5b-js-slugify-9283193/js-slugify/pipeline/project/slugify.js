const slugify = (title, maxLength) => {
  if (typeof title !== 'string') {
    throw new TypeError('title must be a string');
  }

  title = title.trim().toLowerCase();
  const words = title.split(/\s+/);
  let slug = '';

  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.length > 0) {
      slug += word;
      if (i < words.length - 1) {
        slug += '-';
      }
    }
  }

  if (maxLength) {
    slug = slug.slice(0, maxLength);
  }

  return slug;
};

module.exports = { slugify };
