import { lateFeeCents, type Booking } from './bookings.ts';
import { formatRand } from './money.ts';
import { noPayments, paymentKinds, type PaymentKind, type PaymentTotals } from './payment-kinds.ts';
import { isCalendarDate } from './sast.ts';
import { z } from './zod.ts';

export {
  noPayments,
  paymentKinds,
  paymentMethods,
  type PaymentKind,
  type PaymentMethod,
  type PaymentTotals,
} from './payment-kinds.ts';

/**
 * Money as the business keeps it (issue 37, docs/decisions/0052): what is due on a booking, and what has been
 * recorded against it. A payment is its own record, allocated to what it pays; a booking never carries a "paid"
 * flag. Everything is in whole cents. Pure, so the server, the device (offline) and the statement matcher agree.
 */

export const paymentStates = ['nothing-due', 'unpaid', 'part-paid', 'paid', 'refunded', 'waived'] as const;
export type PaymentState = (typeof paymentStates)[number];

/** One entry's share of one thing due: the part of a payment, refund or waiver that went to it. */
export interface PaymentShare {
  kind: PaymentKind;
  /** Positive; a refund's is the amount given back. */
  amountCents: number;
}

/** Where a thing due stands. */
export interface PaymentStanding {
  state: PaymentState;
  dueCents: number;
  /** Money kept: payments less refunds. */
  paidCents: number;
  waivedCents: number;
  refundedCents: number;
  /** What is still to pay; never below 0. */
  owingCents: number;
  /** Money kept beyond what is due (to give back or carry); never below 0. */
  overpaidCents: number;
}

/** The sums of `shares`, as a booking keeps them. */
export function totalsOf(shares: readonly PaymentShare[]): PaymentTotals {
  const sum = (kind: PaymentKind) =>
    shares.reduce((total, share) => (share.kind === kind ? total + share.amountCents : total), 0);
  return { paidCents: sum('payment'), refundedCents: sum('refund'), waivedCents: sum('waiver') };
}

/** `totals` with one more share added. */
export const withShare = (totals: PaymentTotals, share: PaymentShare): PaymentTotals => {
  const field = ({ payment: 'paidCents', refund: 'refundedCents', waiver: 'waivedCents' } as const)[share.kind];
  return { ...totals, [field]: totals[field] + share.amountCents };
};

/**
 * Where `dueCents` stands after what was recorded (`totals`):
 * - `refunded` once money was given back and none is kept;
 * - `waived` when a waiver settles it and no money was kept;
 * - `paid` when money (and any waiver) covers it;
 * - `part-paid` when some money is kept but not enough;
 * - `unpaid` when something is due and nothing is kept;
 * - `nothing-due` when nothing is due and nothing was recorded (a request not yet confirmed, a cancellation in
 *   good time).
 */
export function paymentStanding(dueCents: number, totals: PaymentTotals = noPayments): PaymentStanding {
  const { refundedCents, waivedCents } = totals;
  const paidCents = totals.paidCents - refundedCents;
  const owingCents = Math.max(0, dueCents - Math.max(0, paidCents) - waivedCents);
  const overpaidCents = Math.max(0, paidCents - dueCents);
  const nothingRecorded = totals.paidCents === 0 && refundedCents === 0 && waivedCents === 0;
  const state: PaymentState =
    refundedCents > 0 && paidCents <= 0
      ? 'refunded'
      : owingCents > 0
        ? paidCents > 0
          ? 'part-paid'
          : 'unpaid'
        : dueCents === 0 && nothingRecorded
          ? 'nothing-due'
          : waivedCents > 0 && paidCents <= 0
            ? 'waived'
            : 'paid';
  return { state, dueCents, paidCents, waivedCents, refundedCents, owingCents, overpaidCents };
}

/** What a booking asks to be paid, and under which reference. */
export interface BookingDue {
  /** `session` for the session itself, `late-fee` for a late cancellation's fee. */
  what: 'session' | 'late-fee';
  dueCents: number;
  reference: string;
}

/** The late-cancellation fee's own reference: the booking's, marked, so that the two are never mixed up. */
export const lateFeeReference = (paymentReference: string) => `${paymentReference}-F`;

/**
 * The part of a session's total that is paid in money: all of it, less the hours a monthly package covers
 * (common/package-draw.ts), at the rate the session was booked at.
 */
export const moneyPartCents = (booking: Pick<Booking, 'totalCents' | 'priceCentsPerHour' | 'package'>) =>
  Math.max(
    0,
    booking.totalCents - Math.round((booking.priceCentsPerHour * (booking.package?.coveredMinutes ?? 0)) / 60),
  );

/**
 * What a booking has due: a confirmed or completed session its total; a late cancellation its fee, under the fee's
 * own reference; a request not yet confirmed, or a cancellation in good time, nothing. Hours a monthly package
 * covers are not due in money, and a late cancellation's fee is on the money part only (the package's own rule
 * says what its hours count).
 */
export function bookingDue(
  booking: Pick<
    Booking,
    'status' | 'totalCents' | 'priceCentsPerHour' | 'lateCancellation' | 'paymentReference' | 'package'
  >,
): BookingDue {
  const moneyCents = moneyPartCents(booking);
  if (booking.status === 'Cancelled' && booking.lateCancellation)
    return {
      what: 'late-fee',
      dueCents: lateFeeCents(moneyCents),
      reference: lateFeeReference(booking.paymentReference),
    };
  const owed = booking.status === 'Confirmed' || booking.status === 'Completed';
  return { what: 'session', dueCents: owed ? moneyCents : 0, reference: booking.paymentReference };
}

/** Words for each state, as the dashboard and the admin's list show them. */
export const paymentStateLabels: Record<PaymentState, string> = {
  'nothing-due': 'Nothing due',
  unpaid: 'Unpaid',
  'part-paid': 'Part-paid',
  paid: 'Paid',
  refunded: 'Refunded',
  waived: 'Waived',
};

/** Where a booking stands: what it has due, against the sums it keeps. */
export const bookingStanding = (
  booking: Pick<
    Booking,
    'status' | 'totalCents' | 'priceCentsPerHour' | 'lateCancellation' | 'paymentReference' | 'payments' | 'package'
  >,
): PaymentStanding & { due: BookingDue } => {
  const due = bookingDue(booking);
  return { ...paymentStanding(due.dueCents, booking.payments ?? noPayments), due };
};

/** What the admin reads when recording money goes wrong, and the words of the booking's history. */
export const paymentMessages = {
  amountInvalid: 'Enter an amount above R0, such as 180 or 180.50.',
  dateInvalid: 'Enter the date the money arrived, such as 2026-12-03.',
  dateAhead: 'That date is still to come: enter the day the money arrived.',
  methodRequired: 'Say how the money came: by EFT, or by hand (cash or card).',
  methodNotForWaiver: 'A waiver moves no money: leave out how it came.',
  reasonRequired: 'Say why, in a few words.',
  noteTooLong: 'Keep the note to 500 characters.',
  refundTooMuch: (paidCents: number) => `Only ${formatRand(paidCents)} was paid: refund at most that.`,
  waiveTooMuch: (owingCents: number) =>
    owingCents > 0 ? `Only ${formatRand(owingCents)} is owing: waive at most that.` : 'Nothing is owing to waive.',
  moneyChanged: 'The money on this booking changed while the form was open. Check the figures above and record again.',
  idReused: 'This payment was already recorded with other details. Reload the booking and try again.',
  recordFailed: 'Failed to record the payment. Please try again.',
  nothingOwing: 'Nothing is owing on this booking: there is nothing to remind the student of.',
  reminderSent: 'Reminder sent to the student.',
  reminderFailed: 'Failed to send the reminder.',
  unpaidFailed: 'Failed to fetch what is owing.',
  recorded: (kind: PaymentKind, amountCents: number) =>
    kind === 'waiver'
      ? `${formatRand(amountCents)} waived.`
      : `${kind === 'refund' ? 'Refund' : 'Payment'} of ${formatRand(amountCents)} recorded.`,
} as const;

/** The payment methods the admin records by hand (a statement's and PayFast's come from their own paths). */
export const manualPaymentMethods = ['eft', 'admin'] as const;

/**
 * `POST /api/bookings/:id/payments` (the admin): a payment, refund or waiver against one booking. `id` is made
 * by the admin's device, so that a repeat records nothing new; `version` is the booking's as the admin read it.
 */
const paymentFields = {
  id: z.uuid(),
  kind: z.enum(paymentKinds),
  method: z.enum(manualPaymentMethods, paymentMessages.methodRequired).optional(),
  amountCents: z
    .number(paymentMessages.amountInvalid)
    .int(paymentMessages.amountInvalid)
    .min(1, paymentMessages.amountInvalid)
    .max(10_000_000, paymentMessages.amountInvalid),
  paidOn: z.string(paymentMessages.dateInvalid).refine(isCalendarDate, paymentMessages.dateInvalid),
  note: z.string().trim().max(500, paymentMessages.noteTooLong).default(''),
};

/** A waiver moves no money; anything else says how it came; a refund or waiver says why. */
function checkPayment(
  input: { kind: PaymentKind; method?: string | undefined; note: string },
  ctx: z.RefinementCtx,
): void {
  if (input.kind === 'waiver' && input.method)
    ctx.addIssue({ code: 'custom', path: ['method'], message: paymentMessages.methodNotForWaiver });
  if (input.kind !== 'waiver' && !input.method)
    ctx.addIssue({ code: 'custom', path: ['method'], message: paymentMessages.methodRequired });
  if (input.kind !== 'payment' && !input.note)
    ctx.addIssue({ code: 'custom', path: ['note'], message: paymentMessages.reasonRequired });
}

export const recordPaymentInputSchema = z
  .strictObject({ ...paymentFields, version: z.number().int() })
  .superRefine(checkPayment);
/** `POST /api/packages/:id/payments` (the admin): the same, for a monthly package (common/packages.ts). */
export const packagePaymentInputSchema = z.strictObject(paymentFields).superRefine(checkPayment);
export type PackagePaymentInput = z.output<typeof packagePaymentInputSchema>;
export type RecordPaymentInput = z.output<typeof recordPaymentInputSchema>;

/** `POST /api/bookings/:id/payment-reminder` (the admin): the booking's version as read. */
export const paymentReminderInputSchema = z.strictObject({ version: z.number().int() });
