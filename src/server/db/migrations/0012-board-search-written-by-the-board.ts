import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the board's repository writes a new question's row of the search index (`questions_search`) itself,
 * after the question, instead of the trigger of 0010 (issue 22). A statement with a trigger opens a statement
 * journal, and at every one SQLite's full-text index writes out all it holds: with the trigger, once a question,
 * about 85 µs of a `POST /api/questions` of 790; without it, once a commit of a group. PostgreSQL's trigram index
 * needs no writing. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger questions_search_insert`.execute(db);
}
