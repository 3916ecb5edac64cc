import type { Kysely } from 'kysely';

/**
 * Bank statement lines the admin ignored (issue 37 §2, docs/decisions/0056): a transfer of their own, a line not
 * for a session. Known by the line's content key, as a recorded line's payment is (`payments.statement_line_key`),
 * so the next import of the same statement shows it ignored, not waiting. Who ignored it and when; taking the
 * ignore back deletes the row. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ignored_statement_lines')
    .addColumn('line_key', 'text', (c) => c.primaryKey())
    .addColumn('ignored_by_id', 'text')
    .addColumn('ignored_by_name', 'text', (c) => c.notNull())
    .addColumn('ignored_at', 'text', (c) => c.notNull())
    .execute();
}
