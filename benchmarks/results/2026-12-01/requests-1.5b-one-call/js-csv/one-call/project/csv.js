function parseCsv(text) {
  const rows = text.split('\n');
  const result = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i].split(',');
    const newRow = [];
    for (let j = 0; j < row.length; j++) {
      const cell = row[j];
      if (cell.includes(',')) {
        newRow.push(`"${cell.replace(/"/g, '""')}"`);
      } else if (cell.includes('"')) {
        newRow.push(`"${cell.replace(/"/g, '""')}"`);
      } else {
        newRow.push(cell);
      }
    }
    result.push(newRow);
  }
  return result;
}

function toCsv(rows) {
  let result = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (let j = 0; j < row.length; j++) {
      const cell = row[j];
      if (cell.includes(',')) {
        cell = cell.replace(/"/g, '""');
      } else if (cell.includes('"')) {
        cell = cell.replace(/"/g, '""');
      }
      result += cell;
      if (j < row.length - 1) {
        result += ',';
      }
    }
    result += '\n';
  }
  return result;
}
