import type { z } from 'zod';
import type { BookingPage, bookingListQuerySchema } from '../../../common/bookings.ts';
import { formatPosition, type Position } from '../../../common/positions.ts';
import type { Me } from '../../../common/session.ts';
import type { BookingsRepository } from './bookings.storage.ts';

/**
 * First pages of bookings kept at the position they were read at (docs/decisions/0034): `listBookings` asks
 * here before it reads.
 */

/** What the reader asked for: its filters and cursor (a part of the key a page is kept under). */
type ListQuery = z.output<typeof bookingListQuerySchema>;

/** Pages kept per repository (so per app and storage), at most this many: the oldest kept goes first. */
const keptPagesLimit = 1_000;
const keptPages = new WeakMap<BookingsRepository, Map<string, { at: string; page: Promise<BookingPage> }>>();

/**
 * The page `read` gives, kept under the position it was read at (issue 22: a device reads its list on every
 * page, focus and reconnection, mostly unchanged). Sound because every change to a booking or its history
 * takes a new version of the collection (a rename's and a deleted account's included), as the devices'
 * `?since=` reads need too: while the committed position is the one the page was read after, nothing it
 * holds has changed, and a fresh read would give the same rows. Kept by who reads (their id, role and
 * categories: a tutor given another category reads anew) and by what they ask. A failed read is not kept.
 */
export function keptPage(
  bookings: BookingsRepository,
  user: Me,
  query: ListQuery,
  readAt: Position,
  read: () => Promise<BookingPage>,
): Promise<BookingPage> {
  let pages = keptPages.get(bookings);
  if (!pages) keptPages.set(bookings, (pages = new Map()));
  const key = JSON.stringify([user.id, user.role, user.categories, query]);
  const at = formatPosition(readAt);
  const known = pages.get(key);
  if (known?.at === at) return known.page;
  const page = read();
  pages.delete(key);
  pages.set(key, { at, page });
  if (pages.size > keptPagesLimit) pages.delete(pages.keys().next().value!);
  page.catch(() => pages.get(key)?.page === page && pages.delete(key));
  return page;
}
