import { describe, expect, test } from 'vitest';
import { bookingDue, lateFeeReference, paymentStanding, totalsOf, type PaymentShare } from './payments.ts';

const pay = (amountCents: number): PaymentShare => ({ kind: 'payment', amountCents });
const refund = (amountCents: number): PaymentShare => ({ kind: 'refund', amountCents });
const waive = (amountCents: number): PaymentShare => ({ kind: 'waiver', amountCents });

describe('where a thing due stands', () => {
  test.each<[string, number, PaymentShare[], string, number, number]>([
    // what, due, shares, state, owing, overpaid
    ['nothing due, nothing recorded', 0, [], 'nothing-due', 0, 0],
    ['due, nothing recorded', 18_000, [], 'unpaid', 18_000, 0],
    ['paid to the cent', 18_000, [pay(18_000)], 'paid', 0, 0],
    ['paid in two parts', 18_000, [pay(10_000), pay(8_000)], 'paid', 0, 0],
    ['short by R10', 18_000, [pay(17_000)], 'part-paid', 1_000, 0],
    ['over by R20', 18_000, [pay(20_000)], 'paid', 0, 2_000],
    ['paid before anything was due', 0, [pay(18_000)], 'paid', 0, 18_000],
    ['waived whole', 18_000, [waive(18_000)], 'waived', 0, 0],
    ['part paid, the rest waived', 18_000, [pay(10_000), waive(8_000)], 'paid', 0, 0],
    ['part waived, the rest owing', 18_000, [waive(8_000)], 'unpaid', 10_000, 0],
    ['paid, then refunded whole', 18_000, [pay(18_000), refund(18_000)], 'refunded', 18_000, 0],
    ['paid, then R20 of it refunded', 18_000, [pay(18_000), refund(2_000)], 'part-paid', 2_000, 0],
    ['overpaid, the excess refunded', 18_000, [pay(20_000), refund(2_000)], 'paid', 0, 0],
    ['nothing due after a refund of what was paid', 0, [pay(18_000), refund(18_000)], 'refunded', 0, 0],
  ])('%s', (_, due, shares, state, owing, overpaid) => {
    const standing = paymentStanding(due, totalsOf(shares));
    expect(standing).toMatchObject({ state, owingCents: owing, overpaidCents: overpaid, dueCents: due });
    // What is kept, what is let go and what is owed always add up to what is due (overpaid aside).
    expect(Math.max(0, standing.paidCents) + standing.waivedCents + standing.owingCents - standing.overpaidCents).toBe(
      due,
    );
  });
});

describe('what a booking has due', () => {
  const booking = {
    totalCents: 36_000,
    priceCentsPerHour: 18_000,
    paymentReference: 'TB-ABC234',
    lateCancellation: false,
  } as const;

  test('a request not yet confirmed has nothing due; its session is paid under its reference once confirmed', () => {
    expect(bookingDue({ ...booking, status: 'Pending' })).toEqual({
      what: 'session',
      dueCents: 0,
      reference: 'TB-ABC234',
    });
    expect(bookingDue({ ...booking, status: 'Confirmed' }).dueCents).toBe(36_000);
    expect(bookingDue({ ...booking, status: 'Completed' }).dueCents).toBe(36_000);
  });

  test('a cancellation in good time has nothing due; a late one its 50 % fee, under a reference of its own', () => {
    expect(bookingDue({ ...booking, status: 'Cancelled' }).dueCents).toBe(0);
    expect(bookingDue({ ...booking, status: 'Cancelled', lateCancellation: true })).toEqual({
      what: 'late-fee',
      dueCents: 18_000,
      reference: 'TB-ABC234-F',
    });
    expect(lateFeeReference('TB-ABC234')).not.toBe('TB-ABC234');
  });

  test('hours a package covers are not due in money; a late fee is half of the money part only', () => {
    const draw = { id: 'p', name: '10 hours', coveredMinutes: 60, countedMinutes: 60, leftMinutes: 120 };
    expect(bookingDue({ ...booking, status: 'Confirmed', package: draw }).dueCents).toBe(18_000);
    expect(bookingDue({ ...booking, status: 'Confirmed', package: { ...draw, coveredMinutes: 120 } }).dueCents).toBe(0);
    expect(bookingDue({ ...booking, status: 'Cancelled', lateCancellation: true, package: draw }).dueCents).toBe(9_000);
    expect(bookingDue({ ...booking, status: 'Confirmed', package: null }).dueCents).toBe(36_000);
  });
});
