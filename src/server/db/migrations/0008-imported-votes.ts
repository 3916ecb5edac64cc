import type { Kysely } from 'kysely';

/**
 * Votes a question brought from the old Firebase site (`npm run cli -- import firebase`): that site kept only
 * the two counts, not who voted, so they cannot become rows of `question_votes`. The board's counts are these
 * plus the rows (qa.repository.ts `recount`), so a new vote adds to the old ones instead of replacing them.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('imported_upvotes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('questions')
    .addColumn('imported_downvotes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
