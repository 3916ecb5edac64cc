import { stringify } from 'csv-stringify/sync';
import {
  hoursByTutor,
  moneyByWeek,
  monthRange,
  sixMonthsTo,
  unpaidByMonth,
  type Figures,
} from '../../../common/figures.ts';
import { formatMonth } from '../../../common/packages.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { paymentMethodNames } from '../../../common/receipts.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import type { Uses } from '../../deps.ts';
import { owingStatuses, scanBookings } from './bookings.payments.ts';
import type { BookingRecord } from './bookings.storage.ts';

/**
 * The admin's figures (issue 37 §4): money in per week of a month and what is unpaid per month (drawn as charts on
 * the Money tab), hours per tutor in the month (for paying the tutors), and the month's payments as CSV for the
 * accountant. Read from the records each time: the payments are the truth of the money (0052), the sessions of
 * the hours.
 */

/** The figures of `month` (`YYYY-MM`). */
export async function readFigures(
  deps: Uses<'bookings' | 'payments'>,
  me: Me | undefined,
  month: string,
): Promise<Figures> {
  requireRole(me, 'admin');
  const { bookings, payments } = deps.repos;
  const weeks = moneyByWeek(month, await payments.listPaidBetween(...spanOfWeeks(month)));
  const months = sixMonthsTo(month);
  const owing: { date: string; owingCents: number }[] = [];
  const dates = { from: `${months[0]}-01`, to: monthRange(month).to };
  await scanBookings(bookings, owingStatuses, dates, (row) => {
    const { owingCents } = bookingStanding(row);
    if (owingCents > 0) owing.push({ date: row.date, owingCents });
  });
  const held: { tutor: { id: string | null; name: string }; hours: number }[] = [];
  await scanBookings(bookings, ['Confirmed', 'Completed'], monthRange(month), (row) => {
    if (row.tutor) held.push({ tutor: row.tutor, hours: row.hours });
  });
  return { month, weeks, unpaid: unpaidByMonth(month, owing), tutors: hoursByTutor(held) };
}

/** From the first week's Monday to the last week's Sunday. */
function spanOfWeeks(month: string): [string, string] {
  const weeks = moneyByWeek(month, []);
  return [weeks[0]!.from, weeks.at(-1)!.to];
}

/** A spreadsheet reads a cell starting with =, +, - or @ as a formula: such text is written as text. */
const asText = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const rand = (cents: number) => (cents / 100).toFixed(2);

/**
 * The month's money for the accountant, as CSV: each payment, refund and waiver dated in `month`, oldest first,
 * with what it went to (sessions by module, date and reference; a package by name and month), the student, how
 * it came and who recorded it.
 */
export async function paymentsCsv(
  deps: Uses<'bookings' | 'payments' | 'packages'>,
  me: Me | undefined,
  month: string,
): Promise<string> {
  requireRole(me, 'admin');
  const { bookings, payments, packages } = deps.repos;
  const { from, to } = monthRange(month);
  const records = await payments.listPaidBetween(from, to);
  const bookingIds = [...new Set(records.flatMap((p) => p.allocations.map((a) => a.bookingId)))];
  const rows = new Map<string, BookingRecord>();
  for (const id of bookingIds) {
    const row = await bookings.findById(id);
    if (row) rows.set(id, row);
  }
  const lines = [];
  for (const payment of records) {
    const pkg = payment.packageId ? await packages.find(payment.packageId) : undefined;
    const paidFor = pkg
      ? [`Package: ${pkg.name}, ${formatMonth(pkg.month)} (${pkg.paymentReference})`]
      : payment.allocations.map((a) => {
          const row = rows.get(a.bookingId);
          return row
            ? `${row.moduleName}, ${row.date} (${row.paymentReference}): R${rand(a.amountCents)}`
            : a.bookingId;
        });
    const student = pkg?.student.name ?? rows.get(payment.allocations[0]?.bookingId ?? '')?.student.name ?? '';
    lines.push([
      payment.paidOn,
      payment.kind,
      payment.method ? paymentMethodNames[payment.method] : '',
      rand(payment.kind === 'refund' ? -payment.amountCents : payment.amountCents),
      asText(payment.reference),
      asText(student),
      asText(paidFor.join('; ')),
      asText(payment.note),
      asText(payment.recordedBy.name),
      payment.id,
    ]);
  }
  return stringify(lines, {
    header: true,
    columns: [
      'Date',
      'Kind',
      'Method',
      'Amount (R)',
      'Reference',
      'Student',
      'For',
      'Note',
      'Recorded by',
      'Payment id',
    ],
  });
}
