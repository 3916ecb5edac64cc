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

  test('a whole reference is a session’s, a late fee’s or a package’s, as the site writes it', () => {
    for (const reference of ['TB-ABC234', 'TB-ABC234-F', 'TB-ABC234-P', 'tb-abc234-p'])
      expect(wholeReference.test(reference), reference).toBe(true);
    for (const reference of ['TB-ABC234-X', 'TB-ABC234 P', 'TB-ABC234P', 'TB-ABC234-FP'])
      expect(wholeReference.test(reference), reference).toBe(false);
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
    // A monthly package's, however the bank wrote it; a word starting with P is no package's.
    ['TB-ABC234-P', ['TB-ABC234-P']],
    ['EFT TB ABC234 P MOKOENA', ['TB-ABC234-P']],
    ['tbabc234p', ['TB-ABC234-P']],
    ['TB-ABC234P', ['TB-ABC234-P']],
    ['TB-ABC234 PAYMENT', ['TB-ABC234']],
    ['TB-ABC234-P and TB-ABC234-F', ['TB-ABC234-P', 'TB-ABC234-F']],
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

  test('a package’s reference pays the package, short, whole or over, in the statement’s order', () => {
    const packages = new Map<string, OpenDue>([
      ['TB-PQR567-P', { packageId: 'package-1', reference: 'TB-PQR567-P', owingCents: 800_00 }],
    ]);
    const lines = [line(500_00, 'tbpqr567p'), line(300_00, 'TB PQR567 P'), line(100_00, 'TB-PQR567-P')];
    const paid = { packageId: 'package-1', reference: 'TB-PQR567-P' };
    expect(matchStatement(lines, packages, new Set())).toEqual([
      { kind: 'part-pays', line: lines[0], ...paid, amountCents: 500_00, shortCents: 300_00 },
      { kind: 'pays', line: lines[1], ...paid, amountCents: 300_00 },
      { kind: 'over-pays', line: lines[2], ...paid, amountCents: 100_00, overCents: 100_00 },
    ]);
  });

  test('a package’s reference is never a session’s or a fee’s, nor theirs a package’s', () => {
    // One code held by a session and by a package: each reference pays its own.
    const both = new Map([
      ...dues,
      ['TB-ABC234-P', { packageId: 'package-ABC234', reference: 'TB-ABC234-P', owingCents: 600_00 }] as const,
      ['TB-PQR567-P', { packageId: 'package-PQR567', reference: 'TB-PQR567-P', owingCents: 800_00 }] as const,
    ]);
    const matched = (description: string) => matchStatement([line(100_00, description)], both, new Set())[0]!;
    expect(matched('TB-ABC234-P')).toMatchObject({ packageId: 'package-ABC234', reference: 'TB-ABC234-P' });
    expect(matched('TB ABC234 P')).toMatchObject({ packageId: 'package-ABC234', reference: 'TB-ABC234-P' });
    expect(matched('TB-ABC234')).toMatchObject({ bookingId: 'booking-TB-ABC234', reference: 'TB-ABC234' });
    expect(matched('TB-ABC234')).not.toHaveProperty('packageId');
    expect(matched('TB-ABC234-F')).toMatchObject({ bookingId: 'booking-TB-ABC234', reference: 'TB-ABC234' });
    // A package's code alone, or as a fee's, pays no package.
    expect(matched('TB-PQR567')).toMatchObject({ kind: 'unknown-reference', reference: 'TB-PQR567' });
    expect(matched('TB-PQR567-F')).toMatchObject({ kind: 'unknown-reference', reference: 'TB-PQR567-F' });
    // A session's code as a package's pays no session, nor its fee...
    for (const description of ['TB-XYZ789-P', 'tbxyz789p', 'TBXYZ789-P'])
      expect(matched(description), description).toMatchObject({ kind: 'unknown-reference', reference: 'TB-XYZ789-P' });
    // ...but a P written apart, where no package holds the reference, may be a name's initial, as a fee's F is.
    expect(matched('TB-XYZ789 P MOKOENA')).toMatchObject({ bookingId: 'booking-TB-XYZ789', reference: 'TB-XYZ789' });
  });

  test('a late fee paid under the session’s own reference pays the fee', () => {
    const feeOnly = new Map([due('TB-QRS567-F', 45_00)]);
    const [match] = matchStatement([line(45_00, 'EFT TB-QRS567 MOKOENA')], feeOnly, new Set());
    expect(match).toMatchObject({ kind: 'pays', reference: 'TB-QRS567-F', bookingId: 'booking-TB-QRS567-F' });
  });
});
