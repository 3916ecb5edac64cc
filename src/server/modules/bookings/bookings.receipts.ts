import { brand } from '../../../common/brand.ts';
import { formatMonth, type PackageRecord } from '../../../common/packages.ts';
import type { Me } from '../../../common/session.ts';
import { receiptFileName, receiptMessages, receiptNumber, paymentMethodNames } from '../../../common/receipts.ts';
import { formatSastDate, formatSastSlot } from '../../../common/sast.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Uses } from '../../deps.ts';
import { createError, createForbiddenError } from '../../http/errors.ts';
import { renderReceiptPdf, type ReceiptDocument, type ReceiptLine } from '../../receipts/receipt-pdf.ts';
import { requireVisible } from './bookings.access.ts';
import type { BookingRecord } from './bookings.storage.ts';
import type { PaymentRecord } from './payments.storage.ts';

/**
 * A receipt for each payment (issue 37 §4, docs/decisions/0055): what the PDF says of the bookings a payment went
 * to, and who may download it. Made again from the payment's record each time (the record is the truth, 0052),
 * so the e-mailed copy and every download say the same; a refund or a waiver has none.
 */

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/** A booking as a line of the receipt: the module, when (SAST), how long, under which reference. */
function sessionLine(booking: BookingRecord, amountCents: number): ReceiptLine {
  const lateFee = booking.status === 'Cancelled' && booking.lateCancellation;
  const when = booking.confirmedSlot
    ? formatSastSlot(booking.date, booking.confirmedSlot)
    : `${formatSastDate(booking.date)}, time to be confirmed`;
  const kind = booking.group ? 'Group session' : booking.series ? 'Weekly session' : 'Session';
  return {
    description: lateFee ? `Late-cancellation fee: ${booking.moduleName}` : `${kind}: ${booking.moduleName}`,
    detail: `${when}, ${hoursText(booking.hours)}${lateFee ? ', cancelled late' : ''}; booking reference ${booking.paymentReference}`,
    amountCents,
  };
}

/** What every receipt of `payment` says besides its payer and lines: its number, dates, business, method. */
function receiptOf(
  payment: PaymentRecord,
  payer: { name: string; email: string } | undefined,
  lines: ReceiptLine[],
  config: { vatNumber: string | undefined },
): ReceiptDocument {
  return {
    number: receiptNumber(payment.id),
    paymentId: payment.id,
    issuedAt: payment.recordedAt,
    paidOn: payment.paidOn,
    business: { name: brand.name, email: brand.email, phone: brand.phoneDisplay, vatNumber: config.vatNumber },
    payer: { name: payer?.name ?? '', email: payer?.email || undefined },
    lines,
    method: payment.method ? paymentMethodNames[payment.method] : '',
    reference: payment.reference,
    accent: brand.themeColor,
  };
}

/** The receipt of `payment`, whose allocations' bookings are `bookings` (in any order). */
export function receiptDocument(
  payment: PaymentRecord,
  bookings: readonly BookingRecord[],
  config: { vatNumber: string | undefined },
): ReceiptDocument {
  const byId = new Map(bookings.map((b) => [b.id, b]));
  const paid = payment.allocations.flatMap((a) => {
    const booking = byId.get(a.bookingId);
    return booking ? [{ booking, amountCents: a.amountCents }] : [];
  });
  return receiptOf(
    payment,
    paid[0]?.booking.student,
    paid.map((p) => sessionLine(p.booking, p.amountCents)),
    config,
  );
}

/**
 * The receipt of `payment` for the monthly package `pkg` (issue 37 §3, §4): one line, "Package: 6 hours of
 * Mathematics, January 2027", what it covers and its reference beneath.
 */
export function packageReceiptDocument(
  payment: PaymentRecord,
  pkg: PackageRecord,
  config: { vatNumber: string | undefined },
): ReceiptDocument {
  const covers = pkg.moduleName ? `${pkg.moduleName} only` : `any ${pkg.category} module`;
  const line: ReceiptLine = {
    description: `Package: ${pkg.name}, ${formatMonth(pkg.month)}`,
    detail: `${hoursText(pkg.minutes / 60)} of ${covers}; package reference ${pkg.paymentReference}`,
    amountCents: payment.amountCents,
  };
  return receiptOf(payment, pkg.student, [line], config);
}

export const createReceiptNotFoundError = () =>
  createError({ code: 'receipts.not_found', message: receiptMessages.notFound, status: 404 });

/**
 * A payment's receipt as a PDF, for the student whose booking it paid or the admin (`GET
 * /api/bookings/:id/receipts/:paymentId`). A booking the caller may not see is not found (404), as for any other
 * read of it; its tutor, who sees it, is refused (403); a payment that did not go to the booking, a refund and a
 * waiver have no receipt (404).
 */
export async function readReceipt(
  deps: Uses<'bookings' | 'payments', 'config'>,
  me: Me | undefined,
  bookingId: string,
  paymentId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const user = requireUser(me);
  const row = await requireVisible(deps, user, bookingId);
  const mayRead = (booking: BookingRecord) => user.role === 'admin' || booking.student.id === user.id;
  if (!mayRead(row)) throw createForbiddenError();
  const payment = await deps.repos.payments.find(paymentId);
  if (!payment || payment.kind !== 'payment' || !payment.allocations.some((a) => a.bookingId === bookingId))
    throw createReceiptNotFoundError();
  const others = payment.allocations.filter((a) => a.bookingId !== bookingId);
  const rows = [row];
  for (const allocation of others) {
    const other = await deps.repos.bookings.findById(allocation.bookingId);
    if (other && !mayRead(other)) throw createForbiddenError();
    if (other) rows.push(other);
  }
  const pdf = await renderReceiptPdf(receiptDocument(payment, rows, deps.config));
  return { fileName: receiptFileName(payment.id), pdf };
}
