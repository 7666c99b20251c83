// Reference solution of js-csv.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let i = 0;
  let line = 1;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === '') {
      const start = line;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new SyntaxError(`unterminated quoted field (line ${start})`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i += 1;
            break;
          }
        } else {
          if (text[i] === '\n') line += 1;
          field += text[i];
          i += 1;
        }
      }
    } else if (c === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      endRow();
      line += 1;
      i += c === '\r' ? 2 : 1;
    } else {
      field += c;
      i += 1;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

function quote(field) {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

function toCsv(rows) {
  return rows.map((row) => row.map(quote).join(',')).join('\n');
}

module.exports = { parseCsv, toCsv };
