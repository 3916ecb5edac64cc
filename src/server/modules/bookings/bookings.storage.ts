import type { Booking, BookingCategory, BookingChange, BookingStatus, BookingTutor } from '../../../common/bookings.ts';
import type { BusySession } from '../../../common/availability.ts';
import type { Position, Stamp } from '../../../common/positions.ts';
import type { Category, Role } from '../../../common/roles.ts';

/** A booking as stored: what the API sends but its history, plus what the server keeps for itself. */
export interface BookingRecord extends Omit<Booking, 'history' | 'tutor'> {
  /** Set by a confirmation (bookings.usecases.ts); null before. */
  tutor: BookingTutor | null;
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

/**
 * What a change to a booking may set; `stamp` (from `takeStamps`) always gives its new version. The fields
 * after `updatedAt` only a later run of the Firebase import changes (the old site's edits, decision 0037).
 */
export type BookingUpdate = Partial<
  Pick<
    BookingRecord,
    | 'status'
    | 'confirmedSlot'
    | 'startsAt'
    | 'lateCancellation'
    | 'reminderSentAt'
    | 'updatedAt'
    | 'tutor'
    | 'student'
    | 'moduleName'
    | 'moduleCategory'
    | 'priceCentsPerHour'
    | 'totalCents'
    | 'date'
    | 'slots'
    | 'hours'
    | 'concepts'
    | 'payments'
    | 'package'
    | 'notes'
    | 'summaryConsentAt'
    | 'summaryPostedAt'
  >
> & { stamp: Stamp };

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
 * The bookings' storage, in the bookings' words (docs/decisions/0026): bookings.repository.ts on SQL,
 * bookings.firestore.ts on Firestore. Every change is one transaction of one shape: `beginChanges`, then every
 * read, then `takeStamps`, then the writes, each carrying its stamp. On SQL `beginChanges` is the serialisation
 * point that makes a check followed by a write safe (a client id, a payment reference, a version); on
 * Firestore the transaction itself is (what it read conflicts with any write to it before the commit), so
 * a method that changes a booking read in the transaction trusts that read instead of reading again.
 */
export interface BookingsRepository {
  /**
   * The first call of every change transaction. SQL: takes the bookings' counter lock, so every other bookings
   * writer waits here until this transaction ends (db/versions.ts says why); on SQLite the transaction holds
   * the database's write lock from its start, which covers it. Firestore: nothing.
   */
  beginChanges(): Promise<void>;
  /**
   * `count` new versions for the bookings this transaction writes, after its every read and before its first
   * write; `above` are the versions those bookings have now (read in this transaction; a new booking has none).
   * Versions grow in commit order per shard and per booking (docs/decisions/0027).
   */
  takeStamps(count: number, above?: readonly number[]): Promise<Stamp[]>;
  /** What every committed change is covered by, for `Synced-To`: SQL's committed version, `[version]`. */
  readPosition(): Promise<Position>;
  findById(id: string): Promise<BookingRecord | undefined>;
  /** Booking requests the user sent after `since` (an ISO time). */
  countRequestsSince(userId: string, since: string): Promise<number>;
  /** Whether a booking holds this reference; read in the change's transaction, it stays free until the insert. */
  isPaymentReferenceTaken(reference: string): Promise<boolean>;
  /**
   * The bookings holding these payment references (a bank statement's, `TB-…` without a late fee's `-F`), in no
   * order; a reference nobody holds is left out.
   */
  findByPaymentReferences(references: readonly string[]): Promise<BookingRecord[]>;
  /** Stores a new booking at `stamp` (its `version`). Its reference and id are unique: a duplicate throws. */
  insert(booking: Omit<BookingRecord, 'version'>, stamp: Stamp): Promise<void>;
  /** Adds an entry to a booking's history (stored, or inserted in this transaction). */
  addChange(change: BookingChangeRecord): Promise<void>;
  /**
   * Applies `update` only if the booking is still at `version`, at once: false when someone changed it meanwhile
   * (or it is gone). This is what makes a confirmation atomic, and the loser hear of it. In a transaction, the
   * booking must have been read in it first (`findById`, `listTouchedBy`).
   */
  updateIfAtVersion(id: string, version: number, update: BookingUpdate): Promise<boolean>;
  /**
   * The tutor's confirmed sessions dated `dates` (a confirm's date and the days either side: a session may cross
   * midnight), held until this transaction ends: read after `beginChanges` and before the first write, no other
   * transaction confirms a session of this tutor on those dates until this one ends, so the clash check that
   * reads them holds at the commit. SQL: `beginChanges`'s lock already orders every bookings writer. Firestore:
   * reads the tutor's day documents of `dates` with the sessions, and `updateIfAtVersion` of a booking that
   * becomes this tutor's confirmed session writes them, so two such transactions conflict and one runs again.
   */
  tutorSessionsOn(tutorId: string, dates: readonly string[]): Promise<BookingRecord[]>;
  /** Every session of a weekly series, in order; in a change's transaction, read as its other reads are. */
  findSeries(seriesId: string): Promise<BookingRecord[]>;
  /**
   * When these tutors are taken from `from` to `to` (dates, SAST, both included): each confirmed session's date,
   * start and length, nothing else of it (the free times' read: common/availability.ts). Outside any lock.
   */
  busyOf(tutorIds: readonly string[], dates: { from: string; to: string }): Promise<TutorBusySession[]>;
  /** Gives the booking a new version without changing anything else (its student's name changes elsewhere). */
  setVersion(id: string, stamp: Stamp): Promise<void>;
  /**
   * Newest session first (then newest request, then id), along one of the list indexes (a user's, a category's,
   * or all).
   */
  list(filter: BookingListFilter): Promise<BookingRecord[]>;
  /**
   * Bookings changed since `since`, in the order they changed, at most `limit`; `visibleTo` limits them to a
   * user's own and their categories'. `position` is what the answer covers (the next `since`); `more` says
   * another page waits.
   */
  listChangedSince(args: {
    since: Position;
    visibleTo?: { userId: string; categories: readonly Category[] };
    limit: number;
  }): Promise<{ bookings: BookingRecord[]; position: Position; more: boolean }>;
  /** The history of these bookings, grouped by booking, each in the order it happened. */
  historyOf(bookingIds: readonly string[]): Promise<BookingChangeRecord[]>;
  /** Confirmed sessions with a confirmed time in (`after`, `until`] that have had no reminder, soonest first. */
  findDueReminders(args: { after: string; until: string; limit: number }): Promise<BookingRecord[]>;
  /**
   * Confirmed sessions with a confirmed time in (`after`, `until`], reminded or not, soonest first: those whose
   * reminder is checked on the staff's dashboards (bookings.reminder-check.ts).
   */
  findConfirmedStarting(args: { after: string; until: string; limit: number }): Promise<BookingRecord[]>;
  /** How many requests wait for a time to be confirmed (`Pending`) in these categories, or in all: the staff's badge. */
  countWaiting(categories: readonly Category[] | 'all'): Promise<number>;
  /** Marks the reminder sent if nobody did and the booking is still at `version`: of several processes, one wins. */
  claimReminder(id: string, version: number, at: string): Promise<boolean>;
  /** The user's own bookings, oldest request first (the data export). */
  listOf(userId: string): Promise<BookingRecord[]>;
  /** Bookings the user made, changed (a tutor's confirmations) or is the tutor of, by id. */
  listTouchedBy(userId: string): Promise<BookingRecord[]>;
  /**
   * Replaces the student's name, address and concepts on all their bookings and takes their account's id off
   * them (account deletion). This and the three below change many bookings: in a transaction,
   * `listTouchedBy(userId)` must have read them first.
   */
  scrubStudent(userId: string, name: string, at: string): Promise<void>;
  /** The student's name on all their bookings: the name they have now (docs/decisions/0025). */
  setStudentName(userId: string, name: string, at: string): Promise<void>;
  /** Replaces the user's name in every booking's history and as its tutor (a rename, or 'Deleted user'). */
  setNameInHistory(userId: string, name: string): Promise<void>;
  /**
   * Replaces the user's name in every booking's history and as its tutor by `name`, and takes their id off
   * (account deletion).
   */
  forgetInHistory(userId: string, name: string): Promise<void>;
}

/** A confirmed session as it takes its tutor's time (`busyOf`). */
export interface TutorBusySession extends BusySession {
  tutorId: string;
}
