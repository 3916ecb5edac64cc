import { bookingMessages, type Booking } from '../../../common/bookings.ts';
import { Notice } from '../../components/notice.tsx';
import type { LocalData } from '../../offline/hooks.ts';
import { StaffBookingCard } from './staff-booking-card.tsx';
import { useConfirmData } from './use-confirm-data.ts';
import type { useStaffActions } from './use-bookings.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The staff's cards, or what stands in for them: loading, not available on this device yet (with Try again),
 * or `emptyText`. `isOwn`: a booking the staff member made as a student, which they do not confirm. The cards
 * check a time before it is confirmed against what the device holds of `role`'s `categories` (a tutor's).
 */
export function StaffBookingList({
  bookings,
  loading,
  emptyText,
  actions,
  isOwn,
  role,
  categories,
  userId,
}: {
  bookings: LocalData<Booking[]>;
  loading: boolean;
  emptyText: string;
  actions: ReturnType<typeof useStaffActions>;
  isOwn: (booking: Booking) => boolean;
  role: 'tutor' | 'admin';
  categories: readonly string[];
  userId: string;
}) {
  const confirmer = { role, userId, data: useConfirmData(role, categories) };
  const list = bookings.data ?? [];
  if (loading)
    return (
      <p role="status" className={`card ${muted}`}>
        {bookingMessages.loading}
      </p>
    );
  if (bookings.status === 'unavailable')
    return (
      <div className="card flex flex-col items-start gap-4">
        <Notice tone="error">
          {bookingMessages.fetchFailed}
          {bookings.failure === 'offline' && (
            <span className="block font-normal">
              The bookings appear here once you have opened this page with a connection.
            </span>
          )}
        </Notice>
        <button type="button" className="btn-secondary" onClick={bookings.retry}>
          Try again
        </button>
      </div>
    );
  if (list.length === 0) return <p className={`card ${muted}`}>{emptyText}</p>;
  return (
    <ul className="flex flex-col gap-4" aria-label="Bookings">
      {list.map((booking) => (
        <li key={booking.id} className="min-w-0">
          <StaffBookingCard booking={booking} actions={actions} own={isOwn(booking)} confirmer={confirmer} />
        </li>
      ))}
    </ul>
  );
}
