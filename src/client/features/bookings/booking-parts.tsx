import { CheckCheck, CircleCheck, CircleX, Clock, History, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  bookingLimits,
  type Booking,
  type BookingChange,
  type BookingMove,
  type BookingStatus,
} from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { hoursOf, isLastFromPackage } from '../../../common/package-draw.ts';
import {
  bookingDue,
  bookingStanding,
  lateFeeReference,
  paymentStateLabels,
  type PaymentState,
} from '../../../common/payments.ts';
import { formatSastDate, formatSastDateTime, formatSastSlot } from '../../../common/sast.ts';
import { shownSlots, statusClassName } from './booking-rules.ts';

const badge = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-sm font-semibold';

const statusLooks: Record<BookingStatus, { icon: LucideIcon; className: string }> = {
  Pending: { icon: Clock, className: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100' },
  Confirmed: { icon: CircleCheck, className: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100' },
  Completed: { icon: CheckCheck, className: 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100' },
  Cancelled: { icon: CircleX, className: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100' },
};

/** Spec §4: the status as a label styled by its lowercase name (`pending`, `confirmed`…): colour, icon and word. */
export function StatusLabel({ status }: { status: BookingStatus }) {
  const { icon: Icon, className } = statusLooks[status];
  return (
    <span className={`status-label ${statusClassName(status)} ${badge} ${className}`}>
      <Icon aria-hidden size={16} />
      {status}
    </span>
  );
}

export function WaitingBadge() {
  return (
    <span className={`${badge} bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100`}>
      <Clock aria-hidden size={16} /> Waiting to send
    </span>
  );
}

/** "09:00, 13:30 and 17:00 SAST". */
export function formatSlots(slots: string[]): string {
  if (slots.length === 0) return 'No time given';
  const list = slots.length === 1 ? slots[0]! : `${slots.slice(0, -1).join(', ')} and ${slots.at(-1)!}`;
  return `${list} SAST`;
}

function Fact({ term, children, className = '' }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-sm text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

/**
 * What a booking is: date, time(s), hours, total and the payment reference; staff also see who booked
 * (`forStaff`). The student's view shows only the confirmed time once there is one (spec §4).
 */
export function BookingFacts({ booking, forStaff = false }: { booking: Booking; forStaff?: boolean }) {
  const slots = forStaff ? booking.slots : shownSlots(booking);
  const confirmedOnly = slots.length === 1 && booking.confirmedSlot === slots[0];
  return (
    <dl className={`mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 ${forStaff ? 'lg:grid-cols-4' : ''}`}>
      {forStaff && (
        <Fact term="Student" className="col-span-2">
          {booking.student.name}
          <br />
          <a className="link text-sm font-normal break-words" href={`mailto:${booking.student.email}`}>
            {booking.student.email}
          </a>
        </Fact>
      )}
      <Fact term="Date">{formatSastDate(booking.date)}</Fact>
      <Fact term={confirmedOnly ? 'Confirmed time' : forStaff ? 'Requested times' : 'Times you asked for'}>
        {formatSlots(slots)}
        {forStaff && booking.confirmedSlot && (
          <span className="block text-sm font-normal">Confirmed: {booking.confirmedSlot} SAST</span>
        )}
      </Fact>
      {/* A booking kept on the device from before bookings had a tutor has none (undefined). */}
      {booking.tutor && <Fact term="Tutor">{booking.tutor.name}</Fact>}
      {booking.series && (
        <Fact term="Weekly">
          Session {booking.series.index + 1} of {booking.series.count}
        </Fact>
      )}
      {booking.group && <Fact term="Kind">Group session (a seat)</Fact>}
      <Fact term="Hours">{booking.hours}</Fact>
      <Fact term="Total">
        {formatRand(booking.totalCents)}{' '}
        <span className="text-sm font-normal">({formatRand(booking.priceCentsPerHour)}/hour)</span>
      </Fact>
      <PaymentFact booking={booking} />
      <Fact term="Payment reference">
        {booking.paymentReference ? (
          <span className="font-mono">{booking.paymentReference}</span>
        ) : (
          <span className="font-normal">Given once the request reaches us</span>
        )}
      </Fact>
      {forStaff && <Fact term="Category">{booking.moduleCategory}</Fact>}
    </dl>
  );
}

const paymentLooks: Record<Exclude<PaymentState, 'nothing-due'>, string> = {
  unpaid: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  'part-paid': 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  paid: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100',
  refunded: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
  waived: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
};

/**
 * Where the booking's money stands (issue 37), as the student, its tutor and the admin all see it: a word, and
 * what is still to pay or was paid beyond what is due. Nothing while nothing is due or recorded (a request not
 * yet confirmed, a cancellation in good time).
 */
function PaymentFact({ booking }: { booking: Booking }) {
  const standing = bookingStanding(booking);
  if (standing.state === 'nothing-due') return <PackageFact booking={booking} />;
  const detail =
    standing.owingCents > 0
      ? `${formatRand(standing.owingCents)} to pay${standing.due.what === 'late-fee' ? ' (the late fee)' : ''}`
      : standing.overpaidCents > 0
        ? `${formatRand(standing.overpaidCents)} paid beyond what is due`
        : standing.state === 'paid'
          ? `${formatRand(standing.paidCents)} received`
          : '';
  return (
    <Fact term="Payment">
      <span className={`${badge} ${paymentLooks[standing.state]}`}>{paymentStateLabels[standing.state]}</span>
      {detail && <span className="block text-sm font-normal">{detail}</span>}
      <PackageLines booking={booking} />
    </Fact>
  );
}

/** A session its monthly package pays for whole (issue 37 §3): nothing due in money, and from which package. */
function PackageFact({ booking }: { booking: Booking }) {
  if (!booking.package?.countedMinutes) return null;
  return (
    <Fact term="Payment">
      <span className={`${badge} ${paymentLooks.paid}`}>From package</span>
      <PackageLines booking={booking} />
    </Fact>
  );
}

/** How many of the session's hours its package pays, and whether it is the last session the package pays for. */
function PackageLines({ booking }: { booking: Booking }) {
  const draw = booking.package;
  if (!draw?.countedMinutes) return null;
  return (
    <>
      <span className="block text-sm font-normal">
        {hoursOf(draw.countedMinutes)} {draw.countedMinutes === 60 ? 'hour' : 'hours'} from “{draw.name}”
      </span>
      {isLastFromPackage(draw) && (
        <span className="mt-1 block text-sm font-semibold text-amber-900 dark:text-amber-200">
          Last session paid from the package
        </span>
      )}
    </>
  );
}

/** A late cancellation is shown on the booking, with what the fee comes to. */
export function LateCancellation({ booking }: { booking: Booking }) {
  if (!booking.lateCancellation) return null;
  const fee = bookingDue(booking).dueCents;
  return (
    <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      Late cancellation: cancelled within {bookingLimits.lateCancelHours} hours of the session, so the late-cancellation
      fee ({bookingLimits.lateFeePercent}%, {formatRand(fee)}) applies. Its payment reference is{' '}
      <span className="font-mono">{lateFeeReference(booking.paymentReference)}</span>.
    </p>
  );
}

/** "Thu, 03 Dec 2026, 10:00 SAST", or, pending, "Thu, 03 Dec 2026 (09:00, 10:00 and 11:00 SAST)". */
const timesText = (times: BookingMove['from']) =>
  times.slot ? formatSastSlot(times.date, times.slot) : `${formatSastDate(times.date)} (${formatSlots(times.slots)})`;

const paymentMethodWords = {
  eft: 'by EFT',
  statement: 'from the bank statement',
  admin: 'by hand',
  payfast: 'through PayFast',
};

function describeChange(change: BookingChange): string {
  if (change.from === null) return 'requested the booking';
  if (change.payment) {
    const { kind, method, amountCents } = change.payment;
    const amount = formatRand(amountCents);
    if (kind === 'waiver') return `waived ${amount}`;
    const how = method ? ` ${paymentMethodWords[method]}` : '';
    return kind === 'refund' ? `recorded a refund of ${amount}${how}` : `recorded a payment of ${amount}${how}`;
  }
  if (change.move) return `moved the session from ${timesText(change.move.from)} to ${timesText(change.move.to)}`;
  if (change.to === 'Confirmed' && change.slot) return `confirmed ${change.slot} SAST`;
  return `changed the status from ${change.from} to ${change.to}`;
}

/** Every change to the booking: who, when, from what to what (issue 8, "atomic and audited"). */
export function BookingHistory({ history }: { history: BookingChange[] }) {
  if (history.length === 0) return null;
  return (
    <details className="group mt-4 rounded-lg border border-slate-200 dark:border-slate-700">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 px-3 font-medium">
        <History aria-hidden size={18} />
        History ({history.length} {history.length === 1 ? 'change' : 'changes'})
      </summary>
      <ol className="space-y-2 border-t border-slate-200 px-3 py-3 text-sm dark:border-slate-700">
        {history.map((change, i) => (
          <li key={`${change.at}-${i}`}>
            <time dateTime={change.at} className="text-slate-600 dark:text-slate-400">
              {formatSastDateTime(change.at)}
            </time>
            <span className="block sm:inline sm:before:content-[':_']">
              {change.by.name}
              {change.by.role && change.by.role !== 'student' ? ` (${change.by.role})` : ''} {describeChange(change)}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}
