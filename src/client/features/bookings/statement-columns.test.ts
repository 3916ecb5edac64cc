import { describe, expect, test } from 'vitest';
import { headerColumns } from './statement-columns.ts';

describe('a statement’s column names, for the mapping’s choosers', () => {
  test('under the bank’s own lines', () => {
    const fnb =
      '2,Cheque Account,62000000000\r\n3,Statement period,Dec\r\nDate,Amount,Balance,Description\r\n2026/12/01,1,2,x';
    expect(headerColumns(fnb)).toEqual(['Date', 'Amount', 'Balance', 'Description']);
  });

  test('quoted, with a byte-order mark, on semicolons or tabs', () => {
    expect(headerColumns('\uFEFF"Transaction Date";"Money In";"Money Out";"Description, full"\n')).toEqual([
      'Transaction Date',
      'Money In',
      'Money Out',
      'Description, full',
    ]);
    expect(headerColumns('Posting date\tAmount\tNarrative\n')).toEqual(['Posting date', 'Amount', 'Narrative']);
  });

  test('none in a file with no date column', () => {
    expect(headerColumns('a,b,c\n1,2,3\n')).toEqual([]);
    expect(headerColumns('')).toEqual([]);
  });
});
