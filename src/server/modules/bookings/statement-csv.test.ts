import { describe, expect, test } from 'vitest';
import { statementMessages, type BankMapping } from '../../../common/statements.ts';
import { readStatement, statementAmount, statementDate, StatementError } from './statement-csv.ts';

/** FNB's export: lines of its own above the header, one signed amount, the date as 2026/12/01. */
const fnb: BankMapping = {
  bank: 'FNB',
  date: 'Date',
  amount: { kind: 'signed', column: 'Amount' },
  description: ['Description'],
};
const fnbCsv = [
  '2,Cheque Account,62000000000',
  '3,Statement period,01 Dec 2026 to 07 Dec 2026',
  'Date,Amount,Balance,Description',
  '2026/12/01,180.00,1180.00,FNB APP PAYMENT FROM T MOKOENA TB-ABC234',
  '2026/12/02,-45.00,1135.00,"MONTHLY FEE, CHEQUE"',
  '2026/12/02,90.00,1225.00,EFT TB XYZ789',
  '2026/12/02,90.00,1315.00,EFT TB XYZ789',
  '',
].join('\r\n');

/** Capitec's: money in and money out apart, two description columns, the date as 01/12/2026 with a time. */
const capitec: BankMapping = {
  bank: 'Capitec',
  date: 'Transaction Date',
  amount: { kind: 'in-out', in: 'Money In', out: 'Money Out' },
  description: ['Description', 'Original Description'],
};
const capitecCsv = [
  'Nr,Account,Posting Date,Transaction Date,Description,Original Description,Money In,Money Out,Fee,Balance',
  '1,1234567890,01/12/2026,01/12/2026 09:14,Payment Received,Tb-mnp234 Sipho,"1 234,50",,,1234.50',
  '2,1234567890,02/12/2026,02/12/2026 10:00,Cash Withdrawal,ATM,,-200.00,-10.00,1024.50',
].join('\n');

describe('a bank statement read as CSV', () => {
  test('FNB: its own lines above the header skipped, money in and out, a quoted comma, a repeated line kept twice', () => {
    const lines = readStatement(fnbCsv, fnb);
    expect(lines.map(({ line, date, amountCents, description }) => ({ line, date, amountCents, description }))).toEqual(
      [
        { line: 4, date: '2026-12-01', amountCents: 180_00, description: 'FNB APP PAYMENT FROM T MOKOENA TB-ABC234' },
        { line: 5, date: '2026-12-02', amountCents: -45_00, description: 'MONTHLY FEE, CHEQUE' },
        { line: 6, date: '2026-12-02', amountCents: 90_00, description: 'EFT TB XYZ789' },
        { line: 7, date: '2026-12-02', amountCents: 90_00, description: 'EFT TB XYZ789' },
      ],
    );
    // Two payments alike are two lines; the same file read again gives the same keys.
    expect(lines[2]!.key).not.toBe(lines[3]!.key);
    expect(readStatement(fnbCsv, fnb).map((l) => l.key)).toEqual(lines.map((l) => l.key));
    // The key is the content, not the place: a line added above moves nothing.
    const later = readStatement(
      fnbCsv.replace(
        'Date,Amount,Balance,Description\r\n',
        'Date,Amount,Balance,Description\r\n2026/11/30,10.00,1000.00,INTEREST\r\n',
      ),
      fnb,
    );
    expect(later.slice(1).map((l) => l.key)).toEqual(lines.map((l) => l.key));
  });

  test('Capitec: money in and out in their own columns, a decimal comma, two descriptions joined, a time ignored', () => {
    const lines = readStatement(capitecCsv, capitec);
    expect(lines.map(({ date, amountCents, description }) => ({ date, amountCents, description }))).toEqual([
      { date: '2026-12-01', amountCents: 1234_50, description: 'Payment Received Tb-mnp234 Sipho' },
      { date: '2026-12-02', amountCents: -200_00, description: 'Cash Withdrawal ATM' },
    ]);
  });

  test('the same content from two banks is two lines', () => {
    const other = { ...fnb, bank: 'Nedbank' };
    expect(readStatement(fnbCsv, other)[0]!.key).not.toBe(readStatement(fnbCsv, fnb)[0]!.key);
  });

  const refused = (csv: string, mapping: BankMapping) => {
    try {
      readStatement(csv, mapping);
    } catch (error) {
      expect(error).toBeInstanceOf(StatementError);
      return { message: (error as StatementError).message, line: (error as StatementError).line };
    }
    throw new Error('read without a refusal');
  };

  test('what cannot be read is named, with its line, and nothing is read', () => {
    expect(refused('\u0000\u0001PK binary', fnb)).toEqual({ message: statementMessages.notCsv, line: undefined });
    expect(refused('Date,Amount,Balance,Description\n2026/12/01,"180.00,1180.00,unclosed\n', fnb).message).toBe(
      statementMessages.notCsv,
    );
    expect(refused('Date,Value,Balance,Narrative\n2026/12/01,1,2,x\n', fnb)).toEqual({
      message: statementMessages.columnsMissing(['Amount', 'Description']),
      line: undefined,
    });
    expect(refused(fnbCsv.replace('2026/12/02,-45.00', '2026/13/02,-45.00'), fnb)).toEqual({
      message: statementMessages.dateInvalid('2026/13/02'),
      line: 5,
    });
    expect(refused(fnbCsv.replace('180.00,1180.00', 'one hundred,1180.00'), fnb)).toEqual({
      message: statementMessages.amountInvalid,
      line: 4,
    });
    expect(refused('Date,Amount,Balance,Description\n', fnb).message).toBe(statementMessages.noLines);
  });

  test('a blank line or a closing balance with no date and no amount is left out', () => {
    const lines = readStatement(`${fnbCsv}\r\n,,1315.00,Closing balance\r\n`, fnb);
    expect(lines).toHaveLength(4);
  });
});

describe('dates and amounts as the banks write them', () => {
  test.each([
    ['2026-12-01', '2026-12-01'],
    ['2026/12/01', '2026-12-01'],
    ['20261201', '2026-12-01'],
    ['01/12/2026', '2026-12-01'],
    ['1-12-2026', '2026-12-01'],
    ['01 Dec 2026', '2026-12-01'],
    ['1 December 2026', '2026-12-01'],
    ['2026-12-01T09:15:00', '2026-12-01'],
    ['01/12/2026 09:15', '2026-12-01'],
    ['31/02/2026', undefined],
    ['12/31/2026', undefined],
    ['yesterday', undefined],
  ])('%s', (text, date) => {
    expect(statementDate(text)).toBe(date);
  });

  test.each([
    ['180.00', 180_00],
    ['180', 180_00],
    ['-45.5', -45_50],
    ['R1 234.56', 1234_56],
    ['1,234.56', 1234_56],
    ['1 234,56', 1234_56],
    ['1.234,56', 1234_56],
    ['(180.00)', -180_00],
    ['180.00 Cr', 180_00],
    ['180.00 Dr', -180_00],
    ['', undefined],
    ['12abc', Number.NaN],
    ['1.2.3', Number.NaN],
  ])('%s', (text, cents) => {
    expect(statementAmount(text)).toBe(cents);
  });
});
