import { useEffect, useId, useState } from 'react';
import { bookingMessages, dateRangeInOrder } from '../../../common/bookings.ts';
import { Notice } from '../../components/notice.tsx';
import { showAppBadge } from '../../lib/app-badge.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import type { BookingFilters } from './bookings-api.ts';
import { StaffBookingList } from './staff-booking-list.tsx';
import { StaffFilters } from './staff-filters.tsx';
import { useServerPages } from './use-server-pages.ts';
import { useStaffActions, useStaffBookings, useWaitingCount } from './use-bookings.ts';

/**
 * The staff's bookings as cards (spec §2 tutor and admin dashboards, §8 Tutor and Admin): a tutor's categories,
 * or every booking for the admin, who can filter by status, category and session dates. Cards come from
 * IndexedDB, so they are readable offline; online, the server's list for the filters is fetched and merged in,
 * with "Load more" for the next page. Confirming and setting a status need the connection.
 */
export function StaffBookings({
  role,
  categories,
  userId,
}: {
  role: 'tutor' | 'admin';
  categories: readonly string[];
  /** The staff member: a tutor's own bookings are theirs as a student, not to confirm. */
  userId: string;
}) {
  const headingId = useId();
  const [typed, setTyped] = useState<BookingFilters>({});
  const [filters, setFilters] = useState<BookingFilters>({});
  // A reversed range is said next to the dates and not asked for: the list keeps the last range in order.
  const reversed = !dateRangeInOrder(typed);
  const changeFilters = (next: BookingFilters) => {
    setTyped(next);
    if (dateRangeInOrder(next)) setFilters(next);
  };
  const { online } = useSyncStatus();
  const bookings = useStaffBookings(filters, role === 'tutor' ? categories : undefined);
  const { arrived, failed, nextCursor, loadingMore, loadMore } = useServerPages(filters, online);
  const actions = useStaffActions(role);
  const waiting = useWaitingCount(role === 'tutor' ? categories : undefined, userId);
  useEffect(() => showAppBadge(waiting), [waiting]);

  if (role === 'tutor' && categories.length === 0) {
    return (
      <Notice tone="info" className="mt-6">
        {bookingMessages.notAssigned}
      </Notice>
    );
  }

  const filtered = Object.values(filters).some(Boolean);
  const loading = bookings.status === 'loading' || (online && !arrived && (bookings.data ?? []).length === 0);
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Bookings
      </h2>
      <StaffFilters filters={typed} onChange={changeFilters} withCategory={role === 'admin'} reversed={reversed} />
      {!online && (
        <Notice tone="offline" className="mt-4">
          You are offline. Showing the bookings as they were when you last had a connection; confirming a time or
          changing a status needs the connection.
        </Notice>
      )}
      {failed && online && (
        <Notice tone="error" className="mt-4">
          {bookingMessages.fetchFailed}
        </Notice>
      )}
      <div className="mt-4" aria-busy={loading}>
        <StaffBookingList
          bookings={bookings}
          loading={loading}
          emptyText={
            filtered
              ? 'No bookings match these filters.'
              : role === 'tutor'
                ? 'No bookings in your subjects yet.'
                : 'No bookings yet.'
          }
          actions={actions}
          isOwn={(booking) => role === 'tutor' && booking.student.id === userId}
          role={role}
          categories={categories}
          userId={userId}
        />
        {nextCursor && online && (
          <button type="button" className="btn-secondary mt-4" disabled={loadingMore} onClick={loadMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </section>
  );
}
