import {
  bookingMessages,
  uncategorized,
  type Booking,
  type BookingChange,
  type BookingStatus,
} from '../../../common/bookings.ts';
import type { Role } from '../../../common/roles.ts';
import type { Deps, Uses } from '../../deps.ts';
import type { Audience } from '../../events/events.ts';
import { timeOrderedId } from '../../time-ordered-id.ts';
import { isCategory } from './bookings.access.ts';
import { createBookingNotFoundError } from './bookings.errors.ts';
import type { BookingChangeRecord, BookingRecord, BookingsRepository, BookingUpdate } from './bookings.storage.ts';

/**
 * A booking as the API sends it and as its history records it, and who hears of its changes: what the
 * usecases, the kept pages and the personal-data part share.
 */

/** The history entry as the API sends it: no ids of its own. */
export function toChange(change: BookingChangeRecord): BookingChange {
  return {
    at: change.at,
    by: change.by,
    from: change.from,
    to: change.to,
    slot: change.slot,
    ...(change.move ? { move: change.move } : {}),
    ...(change.payment ? { payment: change.payment } : {}),
  };
}

/** The booking as the API sends it: what the server keeps for itself (its start, reminder, last change) stays. */
export function toBooking(record: BookingRecord, history: BookingChange[]): Booking {
  return {
    id: record.id,
    student: record.student,
    moduleName: record.moduleName,
    moduleCategory: record.moduleCategory,
    date: record.date,
    slots: record.slots,
    confirmedSlot: record.confirmedSlot,
    hours: record.hours,
    concepts: record.concepts,
    status: record.status,
    priceCentsPerHour: record.priceCentsPerHour,
    totalCents: record.totalCents,
    paymentReference: record.paymentReference,
    lateCancellation: record.lateCancellation,
    createdAt: record.createdAt,
    version: record.version,
    history,
    tutor: record.tutor,
    ...(record.series ? { series: record.series } : {}),
    ...(record.group ? { group: record.group } : {}),
    ...(record.payments ? { payments: record.payments } : {}),
    ...(record.package ? { package: record.package } : {}),
    ...(record.question ? { question: record.question } : {}),
    ...(record.notes ? { notes: record.notes } : {}),
    ...(record.summaryConsentAt ? { summaryConsentAt: record.summaryConsentAt } : {}),
    ...(record.summaryPostedAt ? { summaryPostedAt: record.summaryPostedAt } : {}),
  };
}

/** The bookings with their histories: one read for all the histories, whatever the count. */
export async function withHistory(bookings: BookingsRepository, records: BookingRecord[]): Promise<Booking[]> {
  const changes = Map.groupBy(await bookings.historyOf(records.map((r) => r.id)), (c) => c.bookingId);
  return records.map((record) => toBooking(record, (changes.get(record.id) ?? []).map(toChange)));
}

export async function readBooking(bookings: BookingsRepository, id: string): Promise<Booking> {
  const record = await bookings.findById(id);
  if (!record) throw createBookingNotFoundError();
  return (await withHistory(bookings, [record]))[0]!;
}

/** The student, the admins, and the tutors of the category hear of a change (an uncategorised booking: no tutor). */
export function audienceOf(row: Pick<BookingRecord, 'student' | 'moduleCategory'>): Audience {
  return {
    userIds: row.student.id ? [row.student.id] : [],
    roles: ['admin'],
    tutorCategories: isCategory(row.moduleCategory) ? [row.moduleCategory] : [],
  };
}

/** `version`: the bookings' version the change commits at; `ids`: the bookings it changed, when not only `row`. */
export const notify = (
  tx: Pick<Deps, 'events'>,
  row: Pick<BookingRecord, 'id' | 'student' | 'moduleCategory'>,
  version: number,
  ids: readonly string[] = [row.id],
) => tx.events.publish({ table: 'bookings', ids: [...ids], audience: audienceOf(row), version });

export type Actor = { id: string | null; name: string; role: Role | null };

/** The deletion of an account, as the history shows it. */
export const deletedUser: Actor = { id: null, name: bookingMessages.deletedUser, role: null };

export function historyEntry(
  bookingId: string,
  version: number,
  at: string,
  by: Actor,
  from: BookingStatus | null,
  to: BookingStatus,
  slot: string | null = null,
): BookingChangeRecord {
  return {
    // Time-ordered, as the outbox's ids are (mail.repository.ts): a stored entry's key goes after the others.
    id: timeOrderedId(),
    bookingId,
    version,
    at,
    by: { id: by.id, name: by.name, role: by.role },
    from,
    to,
    slot,
  };
}

/**
 * Who hears of a booking by e-mail: the tutors of its category and every admin (an uncategorised one: the
 * admins). Read before the transaction's first write to the bookings (docs/decisions/0026).
 */
export const staffToTell = (tx: Uses<'accounts'>, category: BookingRecord['moduleCategory']) =>
  tx.repos.accounts.staffOf(category === uncategorized ? null : category);

/** The booking as `update` leaves it: its fields, at its stamp's version. */
export function updated(row: BookingRecord, { stamp, ...changes }: BookingUpdate): BookingRecord {
  return { ...row, ...changes, version: stamp.version };
}
