import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Photos of working on the board (issue 39 §2, docs/decisions/0061): up to three per question or answer, each with
 * its thumbnail, kept in the database beside the post (bytes as `bytea` on PostgreSQL, `blob` on SQLite), so a
 * backup, a deletion and a transaction cover them with the post. `answer_id` is null for a question's photo;
 * `user_id` is who posted it (the account's deletion deletes its photos). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('post_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('answer_id', 'text', (c) => c.references('answers.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', bytes, (c) => c.notNull())
    .addColumn('thumb_type', 'text', (c) => c.notNull())
    .addColumn('thumb', bytes, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('post_photos_question_idx')
    .on('post_photos')
    .columns(['question_id', 'position'])
    .execute();
  await db.schema.createIndex('post_photos_answer_idx').on('post_photos').columns(['answer_id']).execute();
  await db.schema.createIndex('post_photos_user_idx').on('post_photos').columns(['user_id']).execute();
}
