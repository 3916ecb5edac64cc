import type { Kysely } from 'kysely';

/**
 * The Firebase import's ledger (docs/decisions/0037): for each old record it brought in, the record of ours it
 * became and, per field, a fingerprint of the old site's value and of ours as the import last left them, so a
 * later run tells which side changed what. Keyed by the old record's kind and id. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('imported_records')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('old_id', 'text', (c) => c.notNull())
    .addColumn('our_id', 'text', (c) => c.notNull())
    .addColumn('old_prints', 'text', (c) => c.notNull())
    .addColumn('our_prints', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('imported_records_pk', ['kind', 'old_id'])
    .execute();
}
