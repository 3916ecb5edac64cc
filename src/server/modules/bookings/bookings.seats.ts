import type { BookingStatus } from '../../../common/bookings.ts';
import type { Uses } from '../../deps.ts';
import { createGroupFullError } from './bookings.errors.ts';
import type { BookingRecord } from './bookings.storage.ts';

/**
 * A seat's booking changing status: read with the change's other reads, this says what becomes of its seat, and
 * the write to run with the change's writes. Cancelled gives the seat back; any other status from Cancelled
 * takes it again if one is free (else 409). A booking of no group changes nothing.
 */
export async function seatFollows(
  tx: Uses<'groups'>,
  row: Pick<BookingRecord, 'id' | 'student' | 'group'>,
  to: BookingStatus,
): Promise<() => Promise<void>> {
  const nothing = async () => {};
  if (!row.group) return nothing;
  const group = await tx.repos.groups.find(row.group.id);
  if (!group) return nothing;
  const holds = group.taken.some((seat) => seat.bookingId === row.id);
  if (holds && to === 'Cancelled')
    return () =>
      tx.repos.groups.setTaken(
        group.id,
        group.taken.filter((seat) => seat.bookingId !== row.id),
      );
  if (!holds && to !== 'Cancelled') {
    if (group.taken.length >= group.seats) throw createGroupFullError();
    return () => tx.repos.groups.setTaken(group.id, [...group.taken, { bookingId: row.id, userId: row.student.id }]);
  }
  return nothing;
}
