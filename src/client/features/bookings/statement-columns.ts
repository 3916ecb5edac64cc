/**
 * The column names of a bank statement's header, read on the admin's device to offer them in the mapping's
 * choosers (the server reads the file itself, with csv-parse). Banks write a few lines of their own first (the
 * account, the period): the header is the first of the first 30 lines with at least three cells, one of them
 * naming a date. Cells are split on the statement's delimiter (comma, semicolon or tab, whichever the line has
 * most of), outside double quotes.
 */
export function headerColumns(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/, 30);
  for (const line of lines) {
    const cells = splitCells(line);
    if (cells.length >= 3 && cells.some((cell) => /date/i.test(cell))) return cells;
  }
  return [];
}

function splitCells(line: string): string[] {
  const counts = [',', ';', '\t'].map((d) => [d, line.split(d).length] as const);
  const delimiter = counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === '"') {
      if (quoted && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = !quoted;
    } else if (char === delimiter && !quoted) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells.filter(Boolean);
}
