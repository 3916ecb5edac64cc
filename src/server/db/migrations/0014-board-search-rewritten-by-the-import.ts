import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: a question's `search` may change after all. A later run of the Firebase import brings the old
 * site's edits of a question's title and text (docs/decisions/0037); the board's repository then takes the
 * question's entry out of the search index (`questions_search`) with the text it was made of and writes the
 * new one (`updateImportedQuestion`), as it writes a new question's since 0012. The trigger of 0010 that
 * refused any change of `search` goes. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger questions_search_frozen`.execute(db);
}
