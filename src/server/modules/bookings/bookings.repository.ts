import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { uncategorized, type BookingCategory, type BookingStatus } from '../../../common/bookings.ts';
import type { Category } from '../../../common/roles.ts';
import type { Db } from '../../db/create-db.ts';
import { readVersion as readCollectionVersion, takeVersions as takeCollectionVersions } from '../../db/versions.ts';
import type { BookingChangesTable, BookingsTable } from './bookings.table.ts';

export type BookingRow = Selectable<BookingsTable>;
export type BookingChangeRow = Selectable<BookingChangesTable>;

/**
 * Reserves `count` versions of the bookings and locks them for this transaction (db/versions.ts says why):
 * every booking write takes this lock first, so a check followed by a write (a client id, a payment
 * reference, a version) is safe from a concurrent writer.
 */
export const takeVersions = (db: Db, count: number) => takeCollectionVersions(db, 'bookings', count);

/** The bookings' committed version: every change at or below it has committed. */
export const readVersion = (db: Db) => readCollectionVersion(db, 'bookings');

export function findBooking(db: Db, id: string): Promise<BookingRow | undefined> {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The catalogue's module of that name, in any case (the catalogue keeps names unique that way). */
export function findModuleByName(db: Db, name: string) {
  return db
    .selectFrom('modules')
    .select(['name', 'category', 'price_cents'])
    .where((eb) => eb(sql`lower(name)`, '=', sql`lower(${name})`))
    .executeTakeFirst();
}

/** Booking requests the user sent after `since` (an ISO time). */
export async function countRequestsSince(db: Db, userId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function isPaymentReferenceTaken(db: Db, reference: string): Promise<boolean> {
  return (
    (await db.selectFrom('bookings').select('id').where('payment_reference', '=', reference).executeTakeFirst()) !==
    undefined
  );
}

export async function insertBooking(db: Db, row: Insertable<BookingsTable>) {
  await db.insertInto('bookings').values(row).execute();
}

export async function insertChange(db: Db, row: Insertable<BookingChangesTable>) {
  await db.insertInto('booking_changes').values(row).execute();
}

/**
 * Applies `changes` only if the booking is still at `version`, in one statement: false when someone changed
 * it meanwhile (or it is gone). This is what makes a confirmation atomic.
 */
export async function updateIfAtVersion(
  db: Db,
  id: string,
  version: number,
  changes: Updateable<BookingsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set(changes)
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setVersion(db: Db, id: string, version: number) {
  await db.updateTable('bookings').set({ version }).where('id', '=', id).execute();
}

/** Who hears of a booking in a category: its tutors and every admin (an uncategorised one: the admins). */
export function listStaffOf(db: Db, category: BookingCategory) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role'])
    .where((eb) =>
      category === uncategorized
        ? eb('role', '=', 'admin')
        : eb.or([
            eb('role', '=', 'admin'),
            eb.and([
              eb('role', '=', 'tutor'),
              eb('id', 'in', eb.selectFrom('tutor_categories').select('user_id').where('category', '=', category)),
            ]),
          ]),
    )
    .orderBy('email')
    .execute();
}

export interface ListFilter {
  userId?: string;
  category?: BookingCategory;
  status?: BookingStatus;
  from?: string;
  to?: string;
  /** The (date, created_at, id) of the last row of the previous page. */
  after?: { date: string; createdAt: string; id: string };
  limit: number;
}

/** Newest session first, along one of the list indexes (a user's, a category's, or all). */
export function listBookings(db: Db, filter: ListFilter): Promise<BookingRow[]> {
  let query = db.selectFrom('bookings').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.category !== undefined) query = query.where('module_category', '=', filter.category);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('date', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('date', '<=', filter.to);
  const after = filter.after;
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('date', 'created_at', 'id'), '<', eb.tuple(after.date, after.createdAt, after.id)),
    );
  return query
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
}

/** Bookings changed after `version`, in the order they changed; `visibleTo` limits them to a user's own and their categories'. */
export function listChangedBookings(
  db: Db,
  args: { version: number; visibleTo?: { userId: string; categories: readonly Category[] }; limit: number },
) {
  let query = db.selectFrom('bookings').selectAll().where('version', '>', args.version);
  const visibleTo = args.visibleTo;
  if (visibleTo) {
    query = query.where((eb) =>
      eb.or([
        eb('user_id', '=', visibleTo.userId),
        ...(visibleTo.categories.length > 0 ? [eb('module_category', 'in', visibleTo.categories)] : []),
      ]),
    );
  }
  return query.orderBy('version').limit(args.limit).execute();
}

/** The history of these bookings, each in the order it happened. */
export function listChanges(db: Db, bookingIds: readonly string[]): Promise<BookingChangeRow[]> {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('booking_changes')
    .selectAll()
    .where('booking_id', 'in', bookingIds)
    .orderBy('booking_id')
    .orderBy('version')
    .execute();
}

// ---------------------------------------------------------------------------------------------------------
// Reminders

/** Confirmed sessions with a confirmed time starting in (`after`, `until`] that have had no reminder, soonest first. */
export function findDueReminders(db: Db, args: { after: string; until: string; limit: number }): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('status', '=', 'Confirmed')
    .where('reminder_sent_at', 'is', null)
    .where('confirmed_slot', 'is not', null)
    .where('starts_at', '>', args.after)
    .where('starts_at', '<=', args.until)
    .orderBy('starts_at')
    .limit(args.limit)
    .execute();
}

/** Marks the reminder sent if nobody did and the booking is still as read: one process wins. */
export async function claimReminder(db: Db, id: string, version: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ reminder_sent_at: at })
    .where('id', '=', id)
    .where('version', '=', version)
    .where('reminder_sent_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------------------------------------------------
// One user's data: the export and account deletion

export function listBookingsOf(db: Db, userId: string): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Bookings the user made or changed (a tutor's confirmations). */
export function listBookingsTouchedBy(db: Db, userId: string): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('user_id', '=', userId),
        eb('id', 'in', eb.selectFrom('booking_changes').select('booking_id').where('by_user_id', '=', userId)),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** Replaces the student's name, address and concepts on all their bookings. */
export async function scrubStudent(db: Db, userId: string, name: string, at: string) {
  await db
    .updateTable('bookings')
    .set({ student_name: name, student_email: '', concepts: '', updated_at: at })
    .where('user_id', '=', userId)
    .execute();
}

/** The student's name on all their bookings: the name they have now (docs/decisions/0025). */
export async function setStudentName(db: Db, userId: string, name: string, at: string) {
  await db.updateTable('bookings').set({ student_name: name, updated_at: at }).where('user_id', '=', userId).execute();
}

/** Replaces the user's name in every booking's history (a rename, or 'Deleted user'). */
export async function setNameInChanges(db: Db, userId: string, name: string) {
  await db.updateTable('booking_changes').set({ by_name: name }).where('by_user_id', '=', userId).execute();
}
