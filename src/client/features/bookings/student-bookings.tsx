import { CalendarPlus } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { bookingMessages, type Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { Notice } from '../../components/notice.tsx';
import type { OutboxItem } from '../../offline/engine.ts';
import { useOutboxItems } from '../../offline/hooks.ts';
import { BookingFacts, BookingHistory, LateCancellation, StatusLabel, WaitingBadge } from './booking-parts.tsx';
import { canCancel } from './booking-rules.ts';
import { MoveSession } from './move-session.tsx';
import { PayNow } from './pay-now.tsx';
import { ReceiptLinks } from './receipt-links.tsx';
import { ShareOnWhatsApp } from './share-on-whatsapp.tsx';
import { BookingQuestion, SessionNotesView, SummaryConsent } from './session-notes.tsx';
import { useMyBookings, useStudentActions } from './use-bookings.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The student's booking history (spec §2 student dashboard, §4 Booking status): from IndexedDB, so it opens
 * offline; requests still on the device say "Waiting to send", refused ones say why and can be put right.
 */
export function StudentBookings({ userId }: { userId: string }) {
  const bookings = useMyBookings(userId);
  const items = useOutboxItems();
  const actions = useStudentActions();
  // The outbox item of each booking request not yet accepted, by booking id (a refused one outranks).
  const pending = useMemo(() => {
    const map = new Map<string, OutboxItem>();
    for (const item of items)
      if (item.target.table === 'bookings' && (!map.has(item.target.id) || item.state === 'attention'))
        map.set(item.target.id, item);
    return map;
  }, [items]);

  const list = bookings.data ?? [];
  return (
    <div className="mt-4" aria-busy={bookings.status === 'loading'}>
      {bookings.status === 'stale' && (
        <Notice tone={bookings.failure === 'offline' ? 'offline' : 'error'} className="mb-4">
          {bookings.failure === 'offline'
            ? 'You are offline. Showing your bookings as they were when you last had a connection.'
            : `${bookingMessages.fetchFailed} Showing your bookings as they were last loaded.`}
        </Notice>
      )}
      {bookings.status === 'loading' ? (
        <p role="status" className={`card ${muted}`}>
          {bookingMessages.loading}
        </p>
      ) : bookings.status === 'unavailable' ? (
        <div className="card flex flex-col items-start gap-4">
          <Notice tone="error">
            {bookingMessages.fetchFailed}
            {bookings.failure === 'offline' && (
              <span className="block font-normal">
                You appear to be offline. Your bookings appear here once you have opened this page with a connection.
              </span>
            )}
          </Notice>
          <button type="button" className="btn-secondary" onClick={bookings.retry}>
            Try again
          </button>
        </div>
      ) : list.length === 0 ? (
        <div className="card flex flex-col items-start gap-4">
          <p className={muted}>{bookingMessages.empty}</p>
          <Link to="/offers" className="btn-primary">
            <CalendarPlus aria-hidden size={18} />
            Book a session
          </Link>
        </div>
      ) : (
        <>
          <Link to="/offers" className="btn-secondary mb-4">
            <CalendarPlus aria-hidden size={18} />
            Book another session
          </Link>
          <MoneySummary bookings={list} />
          <ul className="flex flex-col gap-4" aria-label="Your bookings">
            {list.map((booking) => (
              <li key={booking.id}>
                <StudentBookingCard booking={booking} pending={pending.get(booking.id)} actions={actions} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * What the student owes across their bookings and what they have paid (issue 37): a line above the list, only once
 * something is due or paid. Each card says its own; this says the sum.
 */
function MoneySummary({ bookings }: { bookings: Booking[] }) {
  const standings = bookings.map(bookingStanding).filter((s) => s.state !== 'nothing-due');
  if (standings.length === 0) return null;
  const owing = standings.filter((s) => s.owingCents > 0);
  const owingCents = owing.reduce((sum, s) => sum + s.owingCents, 0);
  const paidCents = standings.reduce((sum, s) => sum + Math.max(0, s.paidCents), 0);
  return (
    <p className={`card mb-4 ${muted}`}>
      {owing.length > 0 ? (
        <>
          <strong className="text-slate-900 dark:text-slate-100">
            To pay: {formatRand(owingCents)} for {owing.length} {owing.length === 1 ? 'session' : 'sessions'}.
          </strong>{' '}
          Pay by EFT with each session's payment reference.
        </>
      ) : (
        <strong className="text-slate-900 dark:text-slate-100">Nothing to pay.</strong>
      )}{' '}
      Paid so far: {formatRand(paidCents)}.
    </p>
  );
}

function StudentBookingCard({
  booking,
  pending,
  actions,
}: {
  booking: Booking;
  pending: OutboxItem | undefined;
  actions: ReturnType<typeof useStudentActions>;
}) {
  const nameId = useId();
  const refused = pending?.state === 'attention';
  return (
    <article
      id={`booking-${booking.id}`}
      aria-labelledby={nameId}
      className={`card ${refused ? 'border-red-300 dark:border-red-900' : ''}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={nameId} className="text-lg font-semibold">
          {booking.moduleName}
        </h3>
        <div className="flex flex-wrap gap-2">
          {pending?.state === 'waiting' && <WaitingBadge />}
          <StatusLabel status={booking.status} />
        </div>
      </div>
      <BookingFacts booking={booking} />
      <BookingQuestion booking={booking} />
      <LateCancellation booking={booking} />
      <SessionNotesView booking={booking} />
      <SummaryConsent booking={booking} />
      {!pending && (
        <PayNow
          target="booking"
          id={booking.id}
          owingCents={bookingStanding(booking).owingCents}
          describedBy={nameId}
        />
      )}
      <ReceiptLinks booking={booking} />
      {!pending && <ShareOnWhatsApp booking={booking} describedBy={nameId} />}
      {refused ? (
        <div className="mt-4 flex flex-col gap-3">
          <Notice tone="error">Needs attention: {pending.error?.message ?? bookingMessages.failed}</Notice>
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className="btn-primary"
              aria-describedby={nameId}
              onClick={() => void actions.edit(pending)}
            >
              Edit and send again
            </button>
            <button
              type="button"
              className="btn-secondary"
              aria-describedby={nameId}
              onClick={() => void actions.discard(pending)}
            >
              Discard
            </button>
          </div>
        </div>
      ) : (
        !pending &&
        canCancel(booking) && (
          <div className="flex flex-wrap items-start gap-x-3">
            <MoveSession booking={booking} nameId={nameId} />
            <button
              type="button"
              className="btn-secondary mt-4"
              aria-describedby={nameId}
              onClick={() => void actions.cancel(booking)}
            >
              Cancel booking
            </button>
          </div>
        )
      )}
      <BookingHistory history={booking.history} />
    </article>
  );
}
