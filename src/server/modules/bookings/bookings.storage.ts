import type { Booking, BookingCategory, BookingChange, BookingStatus } from '../../../common/bookings.ts';
import type { Category, Role } from '../../../common/roles.ts';

/** A booking as stored: what the API sends but its history, plus what the server keeps for itself. */
export interface BookingRecord extends Omit<Booking, 'history'> {
  /** UTC ISO: the confirmed slot's start, else the earliest requested slot's. */
  startsAt: string;
  /** When the reminder went (or the confirmation stood for it); null until then. */
  reminderSentAt: string | null;
  updatedAt: string;
}

/** One entry of a booking's history: the request itself (from null), a confirmation, a status, a cancellation. */
export interface BookingChangeRecord extends BookingChange {
  id: string;
  bookingId: string;
  /** The booking's version after the change. */
  version: number;
  by: { id: string | null; name: string; role: Role | null };
}

/** What a change to a booking may set; `version` is always the new one. */
export type BookingUpdate = Partial<
  Pick<BookingRecord, 'status' | 'confirmedSlot' | 'startsAt' | 'lateCancellation' | 'reminderSentAt' | 'updatedAt'>
> & { version: number };

export interface BookingListFilter {
  userId?: string;
  category?: BookingCategory;
  status?: BookingStatus;
  /** `YYYY-MM-DD`, both ends included. */
  from?: string;
  to?: string;
  /** The (date, createdAt, id) of the last booking of the previous page. */
  after?: { date: string; createdAt: string; id: string };
  limit: number;
}

/**
 * The bookings' storage, in the bookings' words (docs/decisions/0026): bookings.repository.ts on SQL. Every
 * write to bookings happens in a transaction that first calls `takeVersions`: that is the serialisation point
 * that makes a check followed by a write safe (a client id, a payment reference, a version).
 */
export interface BookingsRepository {
  /**
   * Reserves `count` new versions of the bookings and returns the first; the others follow it. The first write
   * of every bookings transaction: until it ends, every other bookings writer waits here (db/versions.ts says
   * why), so versions become visible in order and what the transaction read stays true. `count` 0 only waits.
   */
  takeVersions(count: number): Promise<number>;
  /** The bookings' committed version: every change at or below it has committed. */
  readVersion(): Promise<number>;
  findById(id: string): Promise<BookingRecord | undefined>;
  /** Booking requests the user sent after `since` (an ISO time). */
  countRequestsSince(userId: string, since: string): Promise<number>;
  /** Whether a booking holds this reference; called after `takeVersions`, so it stays free until the insert. */
  isPaymentReferenceTaken(reference: string): Promise<boolean>;
  insert(booking: BookingRecord): Promise<void>;
  addChange(change: BookingChangeRecord): Promise<void>;
  /**
   * Applies `update` only if the booking is still at `version`, at once: false when someone changed it meanwhile
   * (or it is gone). This is what makes a confirmation atomic, and the loser hear of it.
   */
  updateIfAtVersion(id: string, version: number, update: BookingUpdate): Promise<boolean>;
  /** Gives the booking a new version without changing anything else (its student's name changes elsewhere). */
  setVersion(id: string, version: number): Promise<void>;
  /**
   * Newest session first (then newest request, then id), along one of the list indexes (a user's, a category's,
   * or all).
   */
  list(filter: BookingListFilter): Promise<BookingRecord[]>;
  /**
   * Bookings changed after `version`, in the order they changed; `visibleTo` limits them to a user's own and
   * their categories'.
   */
  listChangedSince(args: {
    version: number;
    visibleTo?: { userId: string; categories: readonly Category[] };
    limit: number;
  }): Promise<BookingRecord[]>;
  /** The history of these bookings, grouped by booking, each in the order it happened. */
  historyOf(bookingIds: readonly string[]): Promise<BookingChangeRecord[]>;
  /** Confirmed sessions with a confirmed time in (`after`, `until`] that have had no reminder, soonest first. */
  findDueReminders(args: { after: string; until: string; limit: number }): Promise<BookingRecord[]>;
  /** Marks the reminder sent if nobody did and the booking is still at `version`: of several processes, one wins. */
  claimReminder(id: string, version: number, at: string): Promise<boolean>;
  /** The user's own bookings, oldest request first (the data export). */
  listOf(userId: string): Promise<BookingRecord[]>;
  /** Bookings the user made or changed (a tutor's confirmations), by id. */
  listTouchedBy(userId: string): Promise<BookingRecord[]>;
  /** Replaces the student's name, address and concepts on all their bookings (account deletion). */
  scrubStudent(userId: string, name: string, at: string): Promise<void>;
  /** The student's name on all their bookings: the name they have now (docs/decisions/0025). */
  setStudentName(userId: string, name: string, at: string): Promise<void>;
  /** Replaces the user's name in every booking's history (a rename, or 'Deleted user'). */
  setNameInHistory(userId: string, name: string): Promise<void>;
}
