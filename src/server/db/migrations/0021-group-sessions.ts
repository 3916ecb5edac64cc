import type { Kysely } from 'kysely';

/**
 * Group sessions (issue 36): a session of a module at a date and time with a number of seats, each seat a
 * booking of its own that names the group (`bookings.group_id`). The seats taken are kept on the group's row,
 * changed under the bookings' lock with the seat's booking, so the last seat is taken once. Listed by date.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('group_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('module_name', 'text', (col) => col.notNull())
    .addColumn('module_category', 'text', (col) => col.notNull())
    .addColumn('date', 'text', (col) => col.notNull())
    .addColumn('start', 'text', (col) => col.notNull())
    .addColumn('hours', 'integer', (col) => col.notNull())
    .addColumn('seats', 'integer', (col) => col.notNull())
    .addColumn('price_cents', 'integer', (col) => col.notNull())
    .addColumn('tutor_id', 'text')
    .addColumn('tutor_name', 'text', (col) => col.notNull())
    .addColumn('taken', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('group_sessions_date_idx').on('group_sessions').columns(['date', 'start']).execute();
  await db.schema.alterTable('bookings').addColumn('group_id', 'text').execute();
}
