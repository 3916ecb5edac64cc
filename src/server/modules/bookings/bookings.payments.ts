import type { Booking } from '../../../common/bookings.ts';
import {
  bookingStanding,
  noPayments,
  paymentMessages,
  withShare,
  type RecordPaymentInput,
} from '../../../common/payments.ts';
import type { Stamp } from '../../../common/positions.ts';
import { sastDate } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import { createBookingNotFoundError, createChangedMeanwhileError } from './bookings.errors.ts';
import { historyEntry, notify, readBooking } from './bookings.records.ts';
import type { PaymentRecord } from './payments.storage.ts';

/**
 * Money recorded against bookings (issue 37, docs/decisions/0052). Each record is a change of the bookings it
 * goes to, in the bookings' change transaction: the payment, the sums each booking keeps, and an entry in each
 * one's history commit together, at a new version the devices sync.
 */

type PaymentDeps = Uses<'bookings' | 'payments', 'storage' | 'events' | 'clock'>;

const fieldError = (code: string, field: string, message: string) =>
  createError({ code: `payments.${code}`, message, status: 400, fields: { [field]: message } });

/** The same payment sent again (its answer was lost): the same booking, kind, amount, date and note. */
const isRepeat = (stored: PaymentRecord, bookingId: string, input: RecordPaymentInput) =>
  stored.allocations.length === 1 &&
  stored.allocations[0]!.bookingId === bookingId &&
  stored.kind === input.kind &&
  stored.method === (input.method ?? null) &&
  stored.amountCents === input.amountCents &&
  stored.paidOn === input.paidOn &&
  stored.note === input.note;

/**
 * The admin records a payment, refund or waiver against one booking, if it is still at the version they read
 * (409 otherwise: of a double click's two, one is recorded). A refund gives back at most what was paid, a waiver
 * lets go at most what is owing; the money's date is not after today (SAST). Sent again with the same id and
 * details, it records nothing new and answers with the booking; the same id with other details is a 409.
 */
export async function recordPayment(
  deps: PaymentDeps,
  me: Me | undefined,
  bookingId: string,
  input: RecordPaymentInput,
): Promise<Booking> {
  const admin = requireRole(me, 'admin');
  await withTransaction(deps, async (tx) => {
    const { bookings, payments } = tx.repos;
    await bookings.beginChanges();
    const stored = await payments.find(input.id);
    if (stored) {
      if (isRepeat(stored, bookingId, input)) return;
      throw createError({ code: 'payments.id_reused', message: paymentMessages.idReused, status: 409 });
    }
    const row = await bookings.findById(bookingId);
    if (!row) throw createBookingNotFoundError();
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const now = tx.clock.now();
    if (input.paidOn > sastDate(now)) throw fieldError('date_ahead', 'paidOn', paymentMessages.dateAhead);
    const standing = bookingStanding(row);
    if (input.kind === 'refund' && input.amountCents > standing.paidCents)
      throw fieldError(
        'refund_too_much',
        'amountCents',
        paymentMessages.refundTooMuch(Math.max(0, standing.paidCents)),
      );
    if (input.kind === 'waiver' && input.amountCents > standing.owingCents)
      throw fieldError('waive_too_much', 'amountCents', paymentMessages.waiveTooMuch(standing.owingCents));

    const [stamp] = (await bookings.takeStamps(1, [row.version])) as [Stamp];
    const share = { kind: input.kind, amountCents: input.amountCents };
    const at = now.toISOString();
    await payments.insert({
      id: input.id,
      kind: input.kind,
      method: input.method ?? null,
      amountCents: input.amountCents,
      paidOn: input.paidOn,
      reference: input.kind === 'payment' ? standing.due.reference : '',
      note: input.note,
      statementLineKey: null,
      recordedBy: { id: admin.id, name: admin.name },
      recordedAt: at,
      allocations: [{ bookingId, amountCents: input.amountCents }],
    });
    const update = { payments: withShare(row.payments ?? noPayments, share), updatedAt: at, stamp };
    if (!(await bookings.updateIfAtVersion(bookingId, row.version, update))) throw createChangedMeanwhileError();
    await bookings.addChange({
      ...historyEntry(
        bookingId,
        stamp.version,
        at,
        { id: admin.id, name: admin.name, role: admin.role },
        row.status,
        row.status,
      ),
      payment: { kind: input.kind, method: input.method ?? null, amountCents: input.amountCents },
    });
    notify(tx, row, stamp.version);
  });
  return readBooking(deps.repos.bookings, bookingId);
}
