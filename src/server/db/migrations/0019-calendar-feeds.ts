import type { Kysely } from 'kysely';

/**
 * The users' calendar feeds (issue 36 §5): one row per user, gone with the account. Only the secret's hash is
 * kept (docs/decisions/0049); it is unique, and the feed's address is looked up by it. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
