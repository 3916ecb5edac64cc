import type { Kysely } from 'kysely';

/**
 * A booking's moves (issue 36): a history entry that moved the session to another date or time keeps from what
 * and to what, as JSON (`BookingMove`: `{ from: { date, slot, slots }, to: … }`), null for every other change.
 * The booking itself keeps only where it is now. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('booking_changes').addColumn('move', 'text').execute();
}
