import { describe, expect, test } from 'vitest';
import {
  matchStatement,
  referenceAlphabet,
  referencesIn,
  wholeReference,
  type OpenDue,
  type StatementLine,
} from './statement-match.ts';

describe('the references a statement line holds', () => {
  test('every letter a reference is drawn from is read, whole and inside a description', () => {
    for (const letter of referenceAlphabet) {
      const reference = `TB-${letter.repeat(6)}`;
      expect(wholeReference.test(reference)).toBe(true);
      expect(referencesIn(`EFT ${reference} SMITH`)).toEqual([reference]);
    }
    expect(wholeReference.test('TB-ABC1O4')).toBe(false);
  });

  test.each([
    ['TB-ABC234', ['TB-ABC234']],
    ['EFT FROM T MOKOENA TB-ABC234', ['TB-ABC234']],
    ['tb abc234 thandi', ['TB-ABC234']],
    ['TBABC234', ['TB-ABC234']],
    ['TB-ABC234-F late fee', ['TB-ABC234-F']],
    ['TB-ABC234 F', ['TB-ABC234-F']],
    ['TB-ABC234 FNB', ['TB-ABC234']],
    ['TB-ABC234 and TB-XYZ789', ['TB-ABC234', 'TB-XYZ789']],
    // Letters the references never use (I, L, O, 0, 1), too short, too long, or inside a longer word.
    ['TB-ABC1O4', []],
    ['TB-ABC23', []],
    ['TB-ABC2345', []],
    ['XTB-ABC234', []],
    ['STUBTBABC234', []],
    ['Salary December', []],
  ])('%s', (description, references) => {
    expect(referencesIn(description)).toEqual(references);
  });
});

describe('a statement matched to what is due', () => {
  let n = 0;
  const line = (amountCents: number, description: string): StatementLine => ({
    line: ++n,
    date: '2026-12-01',
    amountCents,
    description,
    key: `key-${n}`,
  });
  const due = (reference: string, owingCents: number): [string, OpenDue] => [
    reference,
    { bookingId: `booking-${reference}`, reference, owingCents },
  ];
  const dues = new Map([due('TB-ABC234', 180_00), due('TB-XYZ789', 90_00), due('TB-XYZ789-F', 45_00)]);

  test('covering, short, over; a second line for one session; the fee apart from its session', () => {
    const lines = [
      line(180_00, 'TB-ABC234 T MOKOENA'),
      line(50_00, 'tb xyz789'),
      line(50_00, 'TB XYZ789'),
      line(45_00, 'TBXYZ789F'),
    ];
    expect(matchStatement(lines, dues, new Set()).map(({ line: l, ...rest }) => ({ line: l.line, ...rest }))).toEqual([
      {
        line: lines[0]!.line,
        kind: 'pays',
        bookingId: 'booking-TB-ABC234',
        reference: 'TB-ABC234',
        amountCents: 180_00,
      },
      {
        line: lines[1]!.line,
        kind: 'part-pays',
        bookingId: 'booking-TB-XYZ789',
        reference: 'TB-XYZ789',
        amountCents: 50_00,
        shortCents: 40_00,
      },
      {
        line: lines[2]!.line,
        kind: 'over-pays',
        bookingId: 'booking-TB-XYZ789',
        reference: 'TB-XYZ789',
        amountCents: 50_00,
        overCents: 10_00,
      },
      {
        line: lines[3]!.line,
        kind: 'pays',
        bookingId: 'booking-TB-XYZ789-F',
        reference: 'TB-XYZ789-F',
        amountCents: 45_00,
      },
    ]);
  });

  test('no reference, a reference nobody has, money out, and a line recorded before', () => {
    const lines = [
      line(300_00, 'SALARY'),
      line(180_00, 'TB-MNP234'),
      line(-50_00, 'BANK FEES TB-ABC234'),
      line(180_00, 'TB-ABC234'),
    ];
    expect(matchStatement(lines, dues, new Set([lines[3]!.key])).map((m) => m.kind)).toEqual([
      'no-reference',
      'unknown-reference',
      'money-out',
      'already-recorded',
    ]);
    expect(matchStatement(lines, dues, new Set())[1]).toMatchObject({ reference: 'TB-MNP234' });
  });

  test('an ignored line records nothing and pays nothing: the line after it pays the session', () => {
    const lines = [line(180_00, 'TB-ABC234 OWN TRANSFER'), line(300_00, 'SALARY'), line(180_00, 'TB-ABC234')];
    const ignored = new Set([lines[0]!.key, lines[1]!.key]);
    expect(matchStatement(lines, dues, new Set(), ignored).map((m) => m.kind)).toEqual(['ignored', 'ignored', 'pays']);
    // Recorded wins: a line is never shown as both.
    expect(matchStatement(lines, dues, ignored, ignored)[0]!.kind).toBe('already-recorded');
  });

  test('"TB-ABC234 F Smith": read as a fee nobody owes, it pays the session', () => {
    const [match] = matchStatement([line(180_00, 'TB-ABC234 F SMITH')], dues, new Set());
    expect(match).toMatchObject({ kind: 'pays', reference: 'TB-ABC234' });
  });

  test('a late fee paid under the session’s own reference pays the fee', () => {
    const feeOnly = new Map([due('TB-QRS567-F', 45_00)]);
    const [match] = matchStatement([line(45_00, 'EFT TB-QRS567 MOKOENA')], feeOnly, new Set());
    expect(match).toMatchObject({ kind: 'pays', reference: 'TB-QRS567-F', bookingId: 'booking-TB-QRS567-F' });
  });
});
