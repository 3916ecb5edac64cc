import type { Kysely } from 'kysely';

/**
 * Each board post's HTML, rendered once when it is posted (issue 39 §1, decision 0064): `html`, and `html_version`,
 * the pipeline's version that made it (common/post-html.ts `postHtmlVersion`). Null for a post from before, an
 * imported one, or one whose HTML is too long to keep: those are rendered when read, as before. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['questions', 'answers']) {
    await db.schema.alterTable(table).addColumn('html', 'text').execute();
    await db.schema.alterTable(table).addColumn('html_version', 'integer').execute();
  }
}
