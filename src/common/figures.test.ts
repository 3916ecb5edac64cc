import { describe, expect, test } from 'vitest';
import { hoursByTutor, moneyByWeek, sixMonthsTo, unpaidByMonth, weeksOf } from './figures.ts';

describe('the figures’ buckets', () => {
  test('the weeks of a month run Monday to Sunday and touch it at both ends', () => {
    // December 2026 starts on a Tuesday and ends on a Thursday.
    const weeks = weeksOf('2026-12');
    expect(weeks[0]).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(weeks.at(-1)).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(weeks).toHaveLength(5);
    // February 2027 starts on a Monday and ends on a Sunday: exactly four weeks.
    expect(weeksOf('2027-02')).toEqual([
      { from: '2027-02-01', to: '2027-02-07' },
      { from: '2027-02-08', to: '2027-02-14' },
      { from: '2027-02-15', to: '2027-02-21' },
      { from: '2027-02-22', to: '2027-02-28' },
    ]);
  });

  test('money in per week counts payments, and refunds apart; a waiver is no money', () => {
    const weeks = moneyByWeek('2026-12', [
      { kind: 'payment', amountCents: 180_00, paidOn: '2026-12-01' },
      { kind: 'payment', amountCents: 90_00, paidOn: '2026-12-06' },
      { kind: 'refund', amountCents: 20_00, paidOn: '2026-12-07' },
      { kind: 'waiver', amountCents: 50_00, paidOn: '2026-12-07' },
    ]);
    expect(weeks[0]).toMatchObject({ inCents: 270_00, refundedCents: 0 });
    expect(weeks[1]).toMatchObject({ inCents: 0, refundedCents: 20_00 });
  });

  test('unpaid by month covers the six months up to the one asked for, across a year’s end', () => {
    expect(sixMonthsTo('2027-02')).toEqual(['2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02']);
    const unpaid = unpaidByMonth('2027-02', [
      { date: '2026-12-10', owingCents: 180_00 },
      { date: '2026-12-11', owingCents: 90_00 },
      { date: '2026-08-01', owingCents: 10_00 },
    ]);
    expect(unpaid.find((u) => u.month === '2026-12')).toEqual({ month: '2026-12', owingCents: 270_00, sessions: 2 });
    expect(unpaid.reduce((sum, u) => sum + u.owingCents, 0)).toBe(270_00);
  });

  test('hours per tutor, most first; two tutors of one name are two', () => {
    const musa = { id: 'u1', name: 'Musa' };
    expect(
      hoursByTutor([
        { tutor: musa, hours: 2 },
        { tutor: { id: 'u2', name: 'Ayanda' }, hours: 1 },
        { tutor: musa, hours: 1 },
        { tutor: { id: 'u3', name: 'Musa' }, hours: 1 },
      ]),
    ).toEqual([
      { name: 'Musa', hours: 3, sessions: 2 },
      { name: 'Ayanda', hours: 1, sessions: 1 },
      { name: 'Musa', hours: 1, sessions: 1 },
    ]);
  });
});
