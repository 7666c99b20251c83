function slugify(title, maxLength) {
  if (typeof title !== 'string') {
    throw new TypeError('title must be a string');
  }

  title = title.trim().toLowerCase();
  let slug = '';

  for (let i = 0; i < title.length; i++) {
    const char = title[i];
    if (char.match(/[a-z0-9-]/)) {
      slug += char;
    } else if (slug.length > 0 && slug[slug.length - 1] !== '-') {
      slug += '-';
    }
  }

  if (maxLength) {
    slug = slug.slice(0, maxLength);
  }

  return slug;
}
