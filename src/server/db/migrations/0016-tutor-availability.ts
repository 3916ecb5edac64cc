import { sql, type Kysely } from 'kysely';

/**
 * The tutors' availability (issue 36): one row per tutor, gone with the account. The week and the dates off are
 * JSON text, as `modules.topics` is: read and written whole, never queried inside, the same on SQLite and
 * PostgreSQL. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tutor_availability')
    .addColumn('tutor_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('weekly', 'text', (c) => c.notNull())
    .addColumn('days_off', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('buffer_minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`buffer_minutes >= 0`),
    )
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
