import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { StatementLine } from '../../../common/statement-match.ts';
import type { BankMapping } from '../../../common/statements.ts';
import { statementMessages } from '../../../common/statements.ts';

/** A statement that cannot be read: what is wrong, and on which line of the file (from 1) where it is one line. */
export class StatementError extends Error {
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.line = line;
  }
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function calendarDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * A statement's date as the South African banks write it: `2026-12-01`, `2026/12/01`, `20261201`, `01/12/2026`
 * (day first, as South Africa writes it), `1 Dec 2026`, `01 December 2026`, a time after it ignored.
 */
export function statementDate(text: string): string | undefined {
  const value = text
    .trim()
    .split(/[T ](?=\d{1,2}:\d{2})/)[0]!
    .trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(value) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (m) return calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(value);
  if (m) return calendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-](\d{4})$/.exec(value);
  const month = m ? months.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1 : 0;
  if (m && month > 0) return calendarDate(Number(m[3]), month, Number(m[1]));
  return undefined;
}

/**
 * An amount as the banks write it, in cents: `180.00`, `-180.00`, `R1 234,56`, `1,234.56`, `(180.00)`,
 * `180.00 Cr` / `180.00 Dr`. Empty is undefined (a column the line does not use); not a number is NaN.
 */
export function statementAmount(text: string): number | undefined {
  let value = text.trim().replace(/\s+/g, ' ');
  if (value === '') return undefined;
  let sign = 1;
  const suffix = /\s*(cr|dr)$/i.exec(value);
  if (suffix) {
    if (suffix[1]!.toLowerCase() === 'dr') sign = -1;
    value = value.slice(0, suffix.index);
  }
  if (/^\(.*\)$/.test(value)) {
    sign = -sign;
    value = value.slice(1, -1);
  }
  if (value.startsWith('-')) {
    sign = -sign;
    value = value.slice(1);
  } else if (value.startsWith('+')) value = value.slice(1);
  value = value.replace(/^R\s?/i, '').replace(/[\s\u00a0']/g, '');
  // A comma before the last two digits only is the decimal comma; otherwise commas group thousands.
  if (/^\d+(?:\.\d{3})*,\d{1,2}$/.test(value)) value = value.replace(/\./g, '').replace(',', '.');
  else value = value.replace(/,/g, '');
  if (!/^\d+(?:\.\d{1,2})?$/.test(value)) return Number.NaN;
  const [rand, cents = ''] = value.split('.');
  return sign * (Number(rand) * 100 + Number(cents.padEnd(2, '0')));
}

/** The header row: the first whose cells include every column the mapping names (banks put lines above it). */
function findHeader(rows: string[][], wanted: string[]): number {
  const norm = (cell: string) => cell.trim().toLowerCase();
  const names = wanted.map(norm);
  return rows.findIndex((row) => {
    const cells = new Set(row.map(norm));
    return names.every((name) => cells.has(name));
  });
}

/** The columns a mapping reads, as the bank's header names them. */
export const mappedColumns = (mapping: BankMapping): string[] => [
  mapping.date,
  ...(mapping.amount.kind === 'signed' ? [mapping.amount.column] : [mapping.amount.in, mapping.amount.out]),
  ...mapping.description,
];

/**
 * A statement's lines of money, read with the bank's column mapping. The header may come after lines of the
 * bank's own (account, period); lines after it with no date and no amount (a closing balance, a blank line) are
 * left out. Anything else that cannot be read stops the whole statement with its line named: nothing is
 * half-recorded. Each line's key is its content (bank, date, amount, description) and how many times the same
 * content came before it in the file, so the same statement read again gives the same keys.
 */
export function readStatement(csv: string, mapping: BankMapping): StatementLine[] {
  if (csv.includes('\u0000')) throw new StatementError(statementMessages.notCsv);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      delimiter: [',', ';', '\t'],
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new StatementError(statementMessages.notCsv, line);
  }
  const rows = records.map((r) => r.record);
  const wanted = mappedColumns(mapping);
  const header = findHeader(rows, wanted);
  if (header < 0) {
    const first = rows.find((row) => row.length > 1) ?? [];
    const missing = wanted.filter((name) => !first.some((cell) => cell.trim().toLowerCase() === name.toLowerCase()));
    throw new StatementError(statementMessages.columnsMissing(missing.length > 0 ? missing : wanted));
  }
  const index = new Map(rows[header]!.map((cell, i) => [cell.trim().toLowerCase(), i]));
  const at = (row: string[], name: string) => row[index.get(name.toLowerCase())!] ?? '';
  const seen = new Map<string, number>();
  const lines: StatementLine[] = [];
  for (let r = header + 1; r < rows.length; r++) {
    const row = rows[r]!;
    // The file's line where the record ends (a quoted description may run over several).
    const lineNo = records[r]!.info.lines;
    const dateText = at(row, mapping.date);
    const amounts =
      mapping.amount.kind === 'signed'
        ? [statementAmount(at(row, mapping.amount.column))]
        : [statementAmount(at(row, mapping.amount.in)), statementAmount(at(row, mapping.amount.out))];
    if (dateText === '' && amounts.every((a) => a === undefined)) continue;
    const date = statementDate(dateText);
    if (!date) throw new StatementError(statementMessages.dateInvalid(dateText), lineNo);
    if (amounts.some((a) => Number.isNaN(a))) throw new StatementError(statementMessages.amountInvalid, lineNo);
    const [first, second] = amounts;
    const amountCents = mapping.amount.kind === 'signed' ? (first ?? 0) : Math.abs(first ?? 0) - Math.abs(second ?? 0);
    const description = mapping.description
      .map((name) => at(row, name))
      .filter(Boolean)
      .join(' ');
    const content = `${mapping.bank}\n${date}\n${amountCents}\n${description}`;
    const occurrence = (seen.get(content) ?? 0) + 1;
    seen.set(content, occurrence);
    const key = createHash('sha256').update(`${content}\n${occurrence}`).digest('hex');
    lines.push({ line: lineNo, date, amountCents, description, key });
  }
  if (lines.length === 0) throw new StatementError(statementMessages.noLines);
  return lines;
}
