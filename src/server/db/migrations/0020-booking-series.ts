import { sql, type Kysely } from 'kysely';

/**
 * Weekly series (issue 36): each session of a series is a booking of its own (moved or cancelled on its own),
 * carrying the series' id (its first session's), its place in it and the count. The index finds a series'
 * sessions when staff confirm them all at once; a single session adds nothing to it. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('series_id', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('series_index', 'integer').execute();
  await db.schema.alterTable('bookings').addColumn('series_count', 'integer').execute();
  await db.schema
    .createIndex('bookings_series_idx')
    .on('bookings')
    .columns(['series_id', 'series_index'])
    .where(sql.ref('series_id'), 'is not', null)
    .execute();
}
