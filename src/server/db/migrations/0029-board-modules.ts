import type { Kysely } from 'kysely';

/**
 * Modules, anonymity and endorsement on the board (issue 39 §3, docs/decisions/0062): a question names the
 * catalogue module it is about by slug (null: "Other"), and may be anonymous to classmates (1; its `user_id` stays,
 * so tutors, the admin, the export and the account's deletion still find it); an answer may be endorsed by a tutor
 * or the admin (who, and when). The board filters by module, newest first. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('questions').addColumn('module_slug', 'text').execute();
  await db.schema
    .alterTable('questions')
    .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('answers')
    .addColumn('endorsed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('answers').addColumn('endorsed_at', 'text').execute();
  await db.schema
    .createIndex('questions_module_idx')
    .on('questions')
    .columns(['module_slug', 'created_at', 'id'])
    .execute();
}
