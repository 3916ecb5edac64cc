import { BellRing } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { paymentMessages } from '../../../common/payments.ts';
import { formatSastDate, formatSastSlot } from '../../../common/sast.ts';
import { Notice } from '../../components/notice.tsx';
import { isSessionEnded } from '../../lib/api.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import { StatusLabel } from './booking-parts.tsx';
import { bookingsApi } from './bookings-api.ts';
import { MoneyFigures } from './money-figures.tsx';
import { RecordPayment } from './record-payment.tsx';
import { StatementImport } from './statement-import.tsx';
import { useStaffActions } from './use-bookings.ts';

type Owing = Awaited<ReturnType<typeof bookingsApi.unpaid>>;

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The admin's money owing (issue 37 §1): every booking with something still to pay, the oldest session first,
 * with the amount and the reference to pay under, a reminder to the student one press away, and the payment
 * recorded in place. Read from the server each time it is opened (it needs the connection, as staff changes do);
 * recording money or sending a reminder reads it again.
 */
export function MoneyOwing() {
  const headingId = useId();
  const { online } = useSyncStatus();
  const staff = useStaffActions('admin');
  const [owing, setOwing] = useState<Owing>();
  const [failed, setFailed] = useState(false);
  const [reads, setReads] = useState(0);
  const readAgain = () => setReads((n) => n + 1);
  // Bookings reminded from this page: the button says so, and is not pressed twice by mistake.
  const [reminded, setReminded] = useState<ReadonlySet<string>>(new Set());
  const [sending, setSending] = useState<string>();

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    bookingsApi
      .unpaid(controller.signal)
      .then((answer) => {
        setOwing(answer);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted && !isSessionEnded(error)) setFailed(true);
      });
    return () => controller.abort();
  }, [online, reads]);

  // A payment recorded here reads the list again: a booking paid in full leaves it.
  const actions: typeof staff = {
    ...staff,
    async recordPayment(booking, request) {
      const done = await staff.recordPayment(booking, request);
      if (done) readAgain();
      return done;
    },
  };

  async function remind(booking: Booking) {
    setSending(booking.id);
    const sent = await staff.remindPayment(booking);
    setSending(undefined);
    if (sent) setReminded((ids) => new Set(ids).add(booking.id));
    // Sent, the booking has a new version (the reminder's guard against a second); refused, it changed.
    readAgain();
  }

  let body;
  if (!online && !owing)
    body = (
      <Notice tone="offline" className="mt-4">
        You are offline. What is owing is read from the server: it appears here once you have a connection.
      </Notice>
    );
  else if (failed && !owing)
    body = (
      <div className="card mt-4 flex flex-col items-start gap-4">
        <Notice tone="error">{paymentMessages.unpaidFailed}</Notice>
        <button type="button" className="btn-secondary" onClick={readAgain}>
          Try again
        </button>
      </div>
    );
  else if (!owing)
    body = (
      <p role="status" className={`card mt-4 ${muted}`}>
        Loading what is owing…
      </p>
    );
  else if (owing.bookings.length === 0)
    body = <p className={`card mt-4 ${muted}`}>Nothing is owing: every session due has been paid.</p>;
  else
    body = (
      <>
        <p className="mt-4 font-medium" role="status">
          {formatRand(owing.owingCents)} owing on {owing.bookings.length}{' '}
          {owing.bookings.length === 1 ? 'booking' : 'bookings'}, the oldest session first.
        </p>
        <ul className="mt-4 flex flex-col gap-4" aria-label="Money owing">
          {owing.bookings.map(({ booking, owingCents, reference }) => (
            <li key={booking.id} className="min-w-0">
              <OwingCard
                booking={booking}
                owingCents={owingCents}
                reference={reference}
                actions={actions}
                reminded={reminded.has(booking.id)}
                sending={sending === booking.id}
                onRemind={() => void remind(booking)}
              />
            </li>
          ))}
        </ul>
      </>
    );

  return (
    <>
      <section aria-labelledby={headingId} className="mt-8">
        <h2 id={headingId} className="text-xl font-semibold">
          Money owing
        </h2>
        {!online && owing && (
          <Notice tone="offline" className="mt-4">
            You are offline. The list is as it was when you last had a connection; reminders and payments need one.
          </Notice>
        )}
        <StatementImport onRecorded={readAgain} />
        {body}
      </section>
      <MoneyFigures />
    </>
  );
}

function OwingCard({
  booking,
  owingCents,
  reference,
  actions,
  reminded,
  sending,
  onRemind,
}: {
  booking: Booking;
  owingCents: number;
  reference: string;
  actions: ReturnType<typeof useStaffActions>;
  reminded: boolean;
  sending: boolean;
  onRemind: () => void;
}) {
  const nameId = useId();
  const slot = booking.confirmedSlot ?? [...booking.slots].sort()[0];
  return (
    <article aria-labelledby={nameId} className="card min-w-0">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={nameId} className="text-lg font-semibold">
          {booking.moduleName}
        </h3>
        <StatusLabel status={booking.status} />
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Owing</dt>
          <dd className="text-lg font-semibold">{formatRand(owingCents)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Pay under</dt>
          <dd className="font-mono">{reference}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Student</dt>
          <dd className="break-words">
            {booking.student.name}{' '}
            <a className="link break-all" href={`mailto:${booking.student.email}`}>
              {booking.student.email}
            </a>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Session</dt>
          <dd>{slot ? formatSastSlot(booking.date, slot) : formatSastDate(booking.date)}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-secondary"
          aria-describedby={nameId}
          disabled={reminded || sending}
          onClick={onRemind}
        >
          <BellRing aria-hidden size={18} />
          {reminded ? 'Reminder sent' : sending ? 'Sending…' : 'Send reminder'}
        </button>
      </div>
      <RecordPayment booking={booking} actions={actions} nameId={nameId} />
    </article>
  );
}
