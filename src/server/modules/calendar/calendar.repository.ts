import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.ts';
import type { CalendarFeedRecord, CalendarFeedsRepository } from './calendar.storage.ts';
import type { CalendarFeedsTable } from './calendar.table.ts';

const toRecord = (row: Selectable<CalendarFeedsTable>): CalendarFeedRecord => ({
  userId: row.user_id,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
});

/** The users' calendar feeds on SQLite and PostgreSQL (`calendar_feeds`, one row per user). */
export function createCalendarFeedsRepository(db: Db): CalendarFeedsRepository {
  return {
    async find(userId) {
      const row = await db.selectFrom('calendar_feeds').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row && toRecord(row);
    },

    async findBySecretHash(secretHash) {
      const row = await db
        .selectFrom('calendar_feeds')
        .selectAll()
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async save({ userId, secretHash, createdAt }) {
      await db
        .insertInto('calendar_feeds')
        .values({ user_id: userId, secret_hash: secretHash, created_at: createdAt })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_hash: secretHash, created_at: createdAt }))
        .execute();
    },

    async delete(userId) {
      await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
    },
  };
}
