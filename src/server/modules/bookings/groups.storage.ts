import type { BookingCategory, BookingTutor } from '../../../common/bookings.ts';

/** A seat taken: its booking, and whose it is (to refuse a second seat to the same student). */
export interface GroupSeat {
  bookingId: string;
  /** Null once the student's account is deleted. */
  userId: string | null;
}

/** A group session as stored (common/groups.ts says what it is). */
export interface GroupSessionRecord {
  id: string;
  moduleName: string;
  moduleCategory: BookingCategory;
  date: string;
  start: string;
  hours: number;
  seats: number;
  priceCents: number;
  tutor: BookingTutor;
  /** One per seat whose booking is not cancelled, in the order they were taken. */
  taken: GroupSeat[];
  createdAt: string;
}

/**
 * The group sessions, in their words (docs/decisions/0026): groups.repository.ts on SQL, groups.firestore.ts on
 * Firestore. A seat is taken or given back in the bookings' change transaction (bookings.groups.ts): `find`
 * first, with its other reads, then `setTaken` with its writes. On SQL the bookings' lock orders those
 * transactions; on Firestore both write the group's document, so of two that read it one runs again.
 */
export interface GroupSessionsRepository {
  /** Undefined for an id no group has. */
  find(id: string): Promise<GroupSessionRecord | undefined>;
  insert(group: GroupSessionRecord): Promise<void>;
  /** The seats taken, replaced whole; the group must have been read in this transaction (`find`). */
  setTaken(id: string, taken: readonly GroupSeat[]): Promise<void>;
  /** The groups dated `from` (a date, SAST) or later, soonest first. */
  listFrom(from: string): Promise<GroupSessionRecord[]>;
  /** The tutor's groups, for a rename or their account's deletion; in a transaction, read with its other reads. */
  ofTutor(tutorId: string): Promise<GroupSessionRecord[]>;
  /** The group's tutor as `tutor` (a rename, or 'Deleted user' with no id); read in this transaction first. */
  setTutor(id: string, tutor: GroupSessionRecord['tutor']): Promise<void>;
}
