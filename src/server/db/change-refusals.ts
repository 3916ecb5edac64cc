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

export interface StoredRefusal {
  status: number;
  body: string;
}

/** The refusal of this user's change, if one was stored at `since` (an ISO time) or later. */
export function findRefusal(db: Db, userId: string, changeId: string, since: string) {
  return db
    .selectFrom('change_refusals')
    .select(['status', 'body'])
    .where('user_id', '=', userId)
    .where('change_id', '=', changeId)
    .where('created_at', '>=', since)
    .executeTakeFirst();
}

/**
 * Stores a refusal, unless one is stored for the change already (the same change sent twice at once): true when
 * this one was stored. Refusals stored before `expiredBefore` are deleted first, here because refusals are rare
 * and the index on `created_at` makes finding none cheap; that also frees the change id of an expired one.
 */
export async function storeRefusal(db: Db, row: ChangeRefusalsTable, expiredBefore: string): Promise<boolean> {
  await db.deleteFrom('change_refusals').where('created_at', '<', expiredBefore).execute();
  const result = await db
    .insertInto('change_refusals')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'change_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
