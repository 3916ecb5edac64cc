import { useId } from 'react';
import { bookingMessages, type Booking } from '../../../common/bookings.ts';
import { Notice } from '../../components/notice.tsx';
import { BookingFacts, BookingHistory, LateCancellation, StatusLabel } from './booking-parts.tsx';
import { StaffBookingActions, type Confirmer } from './staff-booking-actions.tsx';
import { ReceiptLinks } from './receipt-links.tsx';
import { RecordPayment } from './record-payment.tsx';
import { BookingQuestion, SessionNotesView, StaffSessionNotes } from './session-notes.tsx';
import { StaffMove } from './staff-move.tsx';
import type { useStaffActions } from './use-bookings.ts';

/**
 * One booking as the staff see it: who booked what, when and for how much, the concepts, and the changes
 * they may make (none on a tutor's own booking), then its history.
 */
export function StaffBookingCard({
  booking,
  actions,
  own,
  confirmer,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  own: boolean;
  confirmer: Confirmer;
}) {
  const nameId = useId();
  return (
    <article id={`booking-${booking.id}`} aria-labelledby={nameId} className="card min-w-0 scroll-mt-20">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={nameId} className="text-lg font-semibold">
          {booking.moduleName}
        </h3>
        <StatusLabel status={booking.status} />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Booking <span className="font-mono">{booking.paymentReference}</span>
      </p>
      <BookingFacts booking={booking} forStaff />
      <BookingQuestion booking={booking} forStaff />
      <LateCancellation booking={booking} />
      {/* The admin may download every payment's receipt (a student asks for a copy); a tutor is not shown them. */}
      {confirmer.role === 'admin' && <ReceiptLinks booking={booking} />}
      <div className="mt-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">Concepts</p>
        <p className="whitespace-pre-line break-words">{booking.concepts}</p>
      </div>
      {own ? (
        <Notice tone="info" className="mt-4">
          {bookingMessages.ownBooking}
        </Notice>
      ) : (
        <>
          {/* Keyed by version: a newer copy of the booking resets the choosers to what it holds. The forms below
              keep what was typed in them (a newer copy came in the middle of an admin's payment in CI). */}
          <StaffBookingActions
            key={booking.version}
            booking={booking}
            actions={actions}
            nameId={nameId}
            confirmer={confirmer}
          />
          <StaffMove booking={booking} actions={actions} nameId={nameId} />
          <StaffSessionNotes key={`notes-${booking.version}`} booking={booking} nameId={nameId} />
          {confirmer.role === 'admin' && <RecordPayment booking={booking} actions={actions} nameId={nameId} />}
        </>
      )}
      {/* Staff who run the booking read the notes in their form (StaffSessionNotes). */}
      {own && <SessionNotesView booking={booking} />}
      <BookingHistory history={booking.history} />
    </article>
  );
}
