/** A user's calendar feed as stored: the hash of its secret, never the secret (docs/decisions/0049). */
export interface CalendarFeedRecord {
  userId: string;
  /** sha256 of the secret, hex (calendar.usecases.ts `hashSecret`). */
  secretHash: string;
  /** UTC ISO: when this secret was made (the feed's creation or its last renewal). */
  createdAt: string;
}

/**
 * The users' calendar feeds, in their words (docs/decisions/0026): calendar.repository.ts on SQL,
 * calendar.firestore.ts on Firestore. One record per user, or none while they have made no feed.
 */
export interface CalendarFeedsRepository {
  /** The user's; undefined when they have none (or `userId` names nobody). */
  find(userId: string): Promise<CalendarFeedRecord | undefined>;
  /** The feed whose secret hashes to `secretHash`; undefined when none does (an unknown or renewed secret). */
  findBySecretHash(secretHash: string): Promise<CalendarFeedRecord | undefined>;
  /** Makes the user's record, or replaces it whole: the old secret stops naming any feed. The account must exist. */
  save(record: CalendarFeedRecord): Promise<void>;
  /** Removes the user's record; nothing when there is none. */
  delete(userId: string): Promise<void>;
}
