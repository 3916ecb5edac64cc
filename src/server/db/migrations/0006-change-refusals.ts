import type { Kysely } from 'kysely';

/**
 * Refusals of changes a client queued offline, kept so that the same change (the same user and client-made
 * change id) sent again is refused the same way whatever changed meanwhile (http/offline-changes.ts). `body` is
 * the JSON answer as sent. They go with the user, and after 30 days (by `created_at`). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_refusals')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_refusals_pk', ['user_id', 'change_id'])
    .execute();
  // The purge of old refusals walks this index from its start.
  await db.schema.createIndex('change_refusals_created_idx').on('change_refusals').column('created_at').execute();
}
