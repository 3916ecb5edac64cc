import { sql, type Kysely } from 'kysely';

/**
 * The Q&A board: questions, answers and one vote per user per question (DESIGN "Product decisions"), and the
 * counter that gives every change its version for incremental sync (see `takeVersions` in qa.repository.ts).
 * Ids are made by the client, so a repeated post finds its row. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_counter')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('sync_counter').values({ name: 'questions', value: 0 }).execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Null once the author's account is deleted: the post stays and reads "Deleted user".
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // Title and text lower-cased by the app, so a search finds the same rows on SQLite and PostgreSQL (their
    // LIKE and lower() treat case differently beyond ASCII).
    .addColumn('search', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
    // Not a foreign key: answers reference questions, and SQLite cannot add the reverse one afterwards. The
    // app clears it when it deletes the answer.
    .addColumn('accepted_answer_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    // A deleted question stays as a tombstone, so `since` can report it.
    .addColumn('deleted_at', 'text')
    .execute();
  // The board's pages: newest first, keyset on (created_at, id), tombstones left out.
  await db.schema
    .createIndex('questions_listed_idx')
    .on('questions')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('questions_version_idx').on('questions').column('version').execute();
  // The rate limit counts a user's recent posts; the foreign key's SET NULL finds them too.
  await db.schema
    .createIndex('questions_user_created_idx')
    .on('questions')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('answers_question_created_idx')
    .on('answers')
    .columns(['question_id', 'created_at'])
    .execute();
  await db.schema.createIndex('answers_user_created_idx').on('answers').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('question_votes')
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('value', 'integer', (c) => c.notNull().check(sql`value in (1, -1)`))
    .addPrimaryKeyConstraint('question_votes_pkey', ['question_id', 'user_id'])
    .execute();
  await db.schema.createIndex('question_votes_user_idx').on('question_votes').column('user_id').execute();
}
