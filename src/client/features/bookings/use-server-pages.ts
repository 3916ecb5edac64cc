import { useEffect, useState } from 'react';
import { bookingMessages } from '../../../common/bookings.ts';
import { isSessionEnded } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { engine } from '../../offline/engine.ts';
import { bookingsApi, type BookingFilters } from './bookings-api.ts';
import { storeBookings } from './use-bookings.ts';

/** Where the server's list for the current filters got to: the cursor of "Load more", or a failure. */
interface Fetched {
  key: string;
  nextCursor: string | null;
  failed: boolean;
}

/**
 * The server's bookings for the staff's filters, stored in IndexedDB as they come (the cards read them from
 * there): the first page whenever the filters change and the device is online, and the next on `loadMore`.
 * `arrived`: the first page for these filters has been answered (or has failed).
 */
export function useServerPages(filters: BookingFilters, online: boolean) {
  const key = JSON.stringify(filters);
  const [fetched, setFetched] = useState<Fetched>();
  const [loadingMore, setLoadingMore] = useState(false);

  // The server's first page for these filters (the admin's filters run on the server, over every booking).
  useEffect(() => {
    if (!online) return;
    let current = true;
    const generation = engine.generation();
    bookingsApi
      .list(JSON.parse(key) as BookingFilters)
      .then(async (page) => {
        await storeBookings(page.bookings, generation);
        if (current) setFetched({ key, nextCursor: page.nextCursor, failed: false });
      })
      .catch((error: unknown) => {
        if (!current) return;
        setFetched({ key, nextCursor: null, failed: !isSessionEnded(error) });
      });
    return () => {
      current = false;
    };
  }, [key, online]);

  const failed = fetched?.key === key && fetched.failed;
  // Spec §8 Admin: 'Failed to fetch bookings.'
  useEffect(() => {
    if (failed && online) toast.error(bookingMessages.fetchFailed);
  }, [failed, online]);

  const nextCursor = fetched?.key === key ? fetched.nextCursor : null;
  function loadMore() {
    if (!nextCursor) return;
    setLoadingMore(true);
    const generation = engine.generation();
    bookingsApi
      .list(filters, nextCursor)
      .then(async (page) => {
        await storeBookings(page.bookings, generation);
        setFetched({ key, nextCursor: page.nextCursor, failed: false });
      })
      .catch((error: unknown) => {
        if (!isSessionEnded(error)) toast.error(bookingMessages.fetchFailed);
      })
      .finally(() => setLoadingMore(false));
  }

  return { arrived: fetched?.key === key, failed, nextCursor, loadingMore, loadMore };
}
