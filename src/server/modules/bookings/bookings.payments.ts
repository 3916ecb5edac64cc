import { writeNotices } from '../../notices/notify.ts';
import { paymentNotices } from './bookings.notices.ts';
import type { Booking, BookingStatus } from '../../../common/bookings.ts';
import {
  bookingStanding,
  noPayments,
  paymentMessages,
  withShare,
  type PaymentStanding,
  type RecordPaymentInput,
} from '../../../common/payments.ts';
import type { Stamp } from '../../../common/positions.ts';
import { sastDate } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import { createBookingNotFoundError, createChangedMeanwhileError } from './bookings.errors.ts';
import { historyEntry, notify, readBooking, toBooking, updated, withHistory, type Actor } from './bookings.records.ts';
import { paymentReceiptEmail, paymentReminderEmail } from './bookings.emails.ts';
import { receiptDocument } from './bookings.receipts.ts';
import { renderReceiptPdf } from '../../receipts/receipt-pdf.ts';
import type { BookingRecord, BookingsRepository } from './bookings.storage.ts';
import type { PaymentRecord } from './payments.storage.ts';

/**
 * Money recorded against bookings (issue 37, docs/decisions/0052). Each record is a change of the bookings it
 * goes to, in the bookings' change transaction: the payment, the sums each booking keeps, and an entry in each
 * one's history commit together, at a new version the devices sync.
 */

type PaymentDeps = Uses<'bookings' | 'payments' | 'notices', 'storage' | 'events' | 'clock' | 'mail' | 'config'>;

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
    const standing = bookingStanding(row);
    requireRecordable(input, standing, now);

    await writePayment(tx, row, admin, now.toISOString(), {
      id: input.id,
      kind: input.kind,
      method: input.method ?? null,
      amountCents: input.amountCents,
      paidOn: input.paidOn,
      reference: input.kind === 'payment' ? standing.due.reference : '',
      note: input.note,
      statementLineKey: null,
    });
  });
  return readBooking(deps.repos.bookings, bookingId);
}

/**
 * Money that may be recorded against what `standing` says (a booking's, a package's): dated today (SAST) or before;
 * a refund at most what was paid, a waiver at most what is owing. Else 400, naming the field.
 */
export function requireRecordable(
  input: Pick<RecordPaymentInput, 'kind' | 'amountCents' | 'paidOn'>,
  standing: PaymentStanding,
  now: Date,
): void {
  if (input.paidOn > sastDate(now)) throw fieldError('date_ahead', 'paidOn', paymentMessages.dateAhead);
  if (input.kind === 'refund' && input.amountCents > standing.paidCents)
    throw fieldError('refund_too_much', 'amountCents', paymentMessages.refundTooMuch(Math.max(0, standing.paidCents)));
  if (input.kind === 'waiver' && input.amountCents > standing.owingCents)
    throw fieldError('waive_too_much', 'amountCents', paymentMessages.waiveTooMuch(standing.owingCents));
}

/**
 * Money recorded against one booking, in the change transaction the caller began (`beginChanges`, then its
 * reads): the payment's record, the booking's sums at a new version (if it is still at the one read), its
 * history entry (naming the payment, whose receipt the student's card offers), and for a payment the student's
 * e-mail with its receipt (0055). The admin's form and a statement's lines both record through here.
 */
export async function writePayment(
  tx: PaymentDeps,
  row: BookingRecord,
  by: Actor,
  at: string,
  payment: Omit<PaymentRecord, 'recordedBy' | 'recordedAt' | 'allocations'>,
): Promise<void> {
  const { bookings, payments } = tx.repos;
  const [stamp] = (await bookings.takeStamps(1, [row.version])) as [Stamp];
  const record: PaymentRecord = {
    ...payment,
    recordedBy: { id: by.id, name: by.name },
    recordedAt: at,
    allocations: [{ bookingId: row.id, amountCents: payment.amountCents }],
  };
  await payments.insert(record);
  const share = { kind: payment.kind, amountCents: payment.amountCents };
  const update = { payments: withShare(row.payments ?? noPayments, share), updatedAt: at, stamp };
  if (!(await bookings.updateIfAtVersion(row.id, row.version, update))) throw createChangedMeanwhileError();
  await bookings.addChange({
    ...historyEntry(row.id, stamp.version, at, { id: by.id, name: by.name, role: by.role }, row.status, row.status),
    payment: { id: payment.id, kind: payment.kind, method: payment.method, amountCents: payment.amountCents },
  });
  if (payment.kind === 'payment' && row.student.id) {
    const paid = updated(row, update);
    // EmailJS carries no attachments (docs/email.md): its e-mail says where to download the receipt instead.
    const pdf = tx.config.emailJs ? undefined : await renderReceiptPdf(receiptDocument(record, [paid], tx.config));
    await tx.mail.enqueue(paymentReceiptEmail(toBooking(paid, []), record, { publicUrl: tx.config.publicUrl, pdf }));
    await writeNotices(tx, paymentNotices(toBooking(paid, []), payment.amountCents));
  }
  notify(tx, row, stamp.version);
}

/** One booking with money owing, as the admin's list shows it. */
export interface UnpaidBooking {
  booking: Booking;
  owingCents: number;
  /** The reference to pay under: the booking's, or its late fee's. */
  reference: string;
}

/** Statuses whose bookings can have money due (common/payments.ts `bookingDue`). */
/** The statuses a booking may owe money in: a session confirmed or held, or a late cancellation's fee. */
export const owingStatuses = ['Confirmed', 'Completed', 'Cancelled'] as const;
const scanPage = 500;

/**
 * Every booking of these statuses (within `dates`, both ends included, when given), a page at a time along the
 * list's indexes, each given to `visit`: the admin's reads of the money over all bookings.
 */
export async function scanBookings(
  bookings: BookingsRepository,
  statuses: readonly BookingStatus[],
  dates: { from?: string; to?: string },
  visit: (row: BookingRecord) => void,
): Promise<void> {
  for (const status of statuses) {
    let after: { date: string; createdAt: string; id: string } | undefined;
    for (;;) {
      const page = await bookings.list({ status, ...dates, limit: scanPage, ...(after ? { after } : {}) });
      page.forEach(visit);
      if (page.length < scanPage) break;
      const last = page.at(-1)!;
      after = { date: last.date, createdAt: last.createdAt, id: last.id };
    }
  }
}

/**
 * Every booking with money still owing, the oldest session first (issue 37 §1), for the admin. Read by walking
 * the bookings of the statuses that can owe, a page at a time, and working out each one's standing: for a
 * tutoring business's thousands of bookings a year that is a few reads; a stored "owing" index is the step
 * after it.
 */
export async function listUnpaid(
  deps: Uses<'bookings'>,
  me: Me | undefined,
): Promise<{ bookings: UnpaidBooking[]; owingCents: number }> {
  requireRole(me, 'admin');
  const { bookings } = deps.repos;
  const owing: { row: BookingRecord; owingCents: number; reference: string }[] = [];
  await scanBookings(bookings, owingStatuses, {}, (row) => {
    const standing = bookingStanding(row);
    if (standing.owingCents > 0)
      owing.push({ row, owingCents: standing.owingCents, reference: standing.due.reference });
  });
  owing.sort((a, b) => a.row.startsAt.localeCompare(b.row.startsAt) || a.row.id.localeCompare(b.row.id));
  const withHistories = await withHistory(
    bookings,
    owing.map((o) => o.row),
  );
  return {
    bookings: owing.map((o, i) => ({ booking: withHistories[i]!, owingCents: o.owingCents, reference: o.reference })),
    owingCents: owing.reduce((sum, o) => sum + o.owingCents, 0),
  };
}

/**
 * The admin's reminder to the student of money owing on a booking, through the outbox, if the booking is still at
 * the version read: the reminder gives it a new one, so of a double click's two (or two admins') one is sent and
 * the other is a 409, on every engine (on Firestore the outbox's key alone does not stop a second transaction).
 * Keyed by booking, version and day besides. 409 when nothing is owing.
 */
export async function sendPaymentReminder(
  deps: Uses<'bookings', 'storage' | 'mail' | 'config' | 'clock' | 'events'>,
  me: Me | undefined,
  bookingId: string,
  input: { version: number },
): Promise<void> {
  requireRole(me, 'admin');
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await tx.repos.bookings.findById(bookingId);
    if (!row) throw createBookingNotFoundError();
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const standing = bookingStanding(row);
    if (standing.owingCents === 0 || !row.student.id)
      throw createError({ code: 'payments.nothing_owing', message: paymentMessages.nothingOwing, status: 409 });
    const [booking] = await withHistory(tx.repos.bookings, [row]);
    await tx.mail.enqueue(
      paymentReminderEmail(
        booking!,
        {
          owingCents: standing.owingCents,
          reference: standing.due.reference,
          lateFee: standing.due.what === 'late-fee',
        },
        { day: sastDate(tx.clock.now()), publicUrl: tx.config.publicUrl, eftDetails: tx.config.paymentEftDetails },
      ),
    );
    const [stamp] = (await tx.repos.bookings.takeStamps(1, [row.version])) as [Stamp];
    await tx.repos.bookings.setVersion(row.id, stamp);
    notify(tx, row, stamp.version);
  });
}
