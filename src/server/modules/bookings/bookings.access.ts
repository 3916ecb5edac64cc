import { categories, type Category } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import type { Uses } from '../../deps.ts';
import { createForbiddenError } from '../../http/errors.ts';
import { createBookingNotFoundError, createOwnBookingError } from './bookings.errors.ts';
import type { BookingRecord } from './bookings.storage.ts';

/**
 * Who may do what with a booking (spec §3, §4). A student sees their own bookings, a tutor their own and their
 * categories', the admin all. A booking the caller may not see does not exist for them (404); one they see but
 * may not change is a 403.
 */

export const isCategory = (category: string): category is Category =>
  (categories as readonly string[]).includes(category);

function canSee(me: Me, row: BookingRecord): boolean {
  return me.role === 'admin' || row.student.id === me.id || canManage(me, row);
}

/** Confirming and setting a status: the admin, or a tutor of the booking's category. */
function canManage(me: Me, row: BookingRecord): boolean {
  return (
    me.role === 'admin' ||
    (me.role === 'tutor' && isCategory(row.moduleCategory) && me.categories.includes(row.moduleCategory))
  );
}

/**
 * canManage, and not a tutor's own booking: a tutor who books a session in their own subject is its student,
 * and does not confirm or complete it themself (another tutor of the category or the admin does).
 */
export function requireManageable(me: Me, row: BookingRecord) {
  if (!canManage(me, row)) throw createForbiddenError();
  if (me.role === 'tutor' && row.student.id === me.id) throw createOwnBookingError();
}

/** requireManageable as a test: whether `me` runs this booking as staff. */
export const managesBooking = (me: Me, row: BookingRecord): boolean =>
  canManage(me, row) && !(me.role === 'tutor' && row.student.id === me.id);

/** Staff only: a student is refused before the body is read or the booking looked up. */
export function requireBookingStaff(me: Me | undefined): Me {
  return requireRole(me, 'tutor', 'admin');
}

export async function requireVisible(tx: Uses<'bookings'>, me: Me, id: string): Promise<BookingRecord> {
  const row = await tx.repos.bookings.findById(id);
  if (!row || !canSee(me, row)) throw createBookingNotFoundError();
  return row;
}
