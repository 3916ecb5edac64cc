import type { Availability } from '../../../common/availability.ts';

/** One tutor's availability as stored: the whole of it, replaced by each save. */
export interface TutorAvailabilityRecord {
  tutorId: string;
  availability: Availability;
  /** UTC ISO: when it was last saved. */
  updatedAt: string;
}

/**
 * The tutors' availability, in its words (docs/decisions/0026): availability.repository.ts on SQL,
 * availability.firestore.ts on Firestore. One record per tutor, or none while they have set nothing.
 */
export interface AvailabilityRepository {
  /** The tutor's; undefined when they have set nothing (or `tutorId` names nobody). */
  find(tutorId: string): Promise<TutorAvailabilityRecord | undefined>;
  /** Those of `tutorIds` that have a record, in one read, in the order of `tutorIds` (each once). */
  findMany(tutorIds: readonly string[]): Promise<TutorAvailabilityRecord[]>;
  /** Replaces the tutor's record whole, or makes it. The tutor's account must exist. */
  save(record: TutorAvailabilityRecord): Promise<void>;
  /** Removes the tutor's record; nothing when there is none. */
  delete(tutorId: string): Promise<void>;
}
