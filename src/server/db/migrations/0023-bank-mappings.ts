import type { Kysely } from 'kysely';

/**
 * How each bank's statement is read (issue 37 §2): the admin maps a bank's columns once, and the next statement
 * from that bank is read the same way. One row per bank, known by its name lower-cased; the mapping is JSON
 * (common/statements.ts `bankMappingSchema`), read back through that schema. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bank_mappings')
    .addColumn('bank_key', 'text', (c) => c.primaryKey())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
