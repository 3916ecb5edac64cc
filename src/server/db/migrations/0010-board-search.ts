import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An index for the board's search, which finds the lower-cased query anywhere in `questions.search` (issue 22:
 * a scan of 100,000 rows took about 50 ms on SQLite, all of it holding the event loop). Each engine's own
 * substring index, so the results stay exactly LIKE's:
 * - PostgreSQL: a trigram GIN index, which LIKE '%…%' uses as it is. pg_trgm ships with PostgreSQL and is a
 *   trusted extension: the owner of the database may create it.
 * - SQLite: an FTS5 table with the trigram tokenizer, case-sensitive because the text is lower-cased already. It
 *   keeps no copy of the text (contentless), only each question's id; a phrase of the query's trigrams is a
 *   substring match. A trigger fills it; `search` is written once (no route edits a question), and a second
 *   trigger refuses an update that would leave the index behind. qa.repository.ts reads it.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`savepoint board_search`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
    } catch (error) {
      await sql`rollback to savepoint board_search`.execute(db);
      throw new Error(
        'The board’s search needs PostgreSQL’s pg_trgm extension. Give the app’s role ownership of its database, ' +
          'or have a superuser run CREATE EXTENSION pg_trgm in it once.',
        { cause: error },
      );
    }
    await sql`create index questions_search_trgm_idx on questions using gin (search gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table questions_search using fts5(
    search, question_id unindexed, content='', contentless_unindexed=1, tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  await sql`insert into questions_search (search, question_id) select search, id from questions`.execute(db);
  await sql`create trigger questions_search_insert after insert on questions begin
    insert into questions_search (search, question_id) values (new.search, new.id);
  end`.execute(db);
  await sql`create trigger questions_search_frozen before update of search on questions begin
    select raise(abort, 'questions.search is written once: questions_search indexes it');
  end`.execute(db);
}
