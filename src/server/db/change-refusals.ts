import type { RefusalsRepository } from '../http/refusals.storage.ts';
import type { Db } from './create-db.ts';

/** A change queued on a device and refused for good (migration 0006; http/offline-changes.ts says why). */
export interface ChangeRefusalsTable {
  user_id: string;
  /** Made by the client, one per queued change. */
  change_id: string;
  status: number;
  /** The JSON answer as it was sent. */
  body: string;
  created_at: string;
}

/** Refusals on SQLite and PostgreSQL (`change_refusals`). */
export function createRefusalsRepository(db: Db): RefusalsRepository {
  return {
    find: (userId, changeId, since) =>
      db
        .selectFrom('change_refusals')
        .select(['status', 'body'])
        .where('user_id', '=', userId)
        .where('change_id', '=', changeId)
        .where('created_at', '>=', since)
        .executeTakeFirst(),

    async store(refusal, expiredBefore) {
      // Deleted here because refusals are rare and the index on `created_at` makes finding none cheap.
      await db.deleteFrom('change_refusals').where('created_at', '<', expiredBefore).execute();
      const result = await db
        .insertInto('change_refusals')
        .values({
          user_id: refusal.userId,
          change_id: refusal.changeId,
          status: refusal.status,
          body: refusal.body,
          created_at: refusal.createdAt,
        })
        .onConflict((oc) => oc.columns(['user_id', 'change_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async deleteOf(userId) {
      // The foreign key would take them with the user's row anyway; saying it keeps every engine's deletion whole.
      await db.deleteFrom('change_refusals').where('user_id', '=', userId).execute();
    },
  };
}
