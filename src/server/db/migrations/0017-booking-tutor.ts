import { sql, type Kysely } from 'kysely';

/**
 * A booking's tutor (issue 36): who confirmed it, or whom the admin named, shown to the student; null until a
 * confirmation names one. The name is a copy, as the student's is (docs/decisions/0025: a rename reaches it).
 * The index serves the confirm's clash check (a tutor's confirmed sessions around a date) and a rename's or a
 * deletion's search for the tutor's bookings; a request, which has no tutor yet, adds nothing to it (the write
 * benchmark's insert). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('tutor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('bookings').addColumn('tutor_name', 'text').execute();
  await db.schema
    .createIndex('bookings_tutor_idx')
    .on('bookings')
    .columns(['tutor_id', 'date'])
    .where(sql.ref('tutor_id'), 'is not', null)
    .execute();
}
