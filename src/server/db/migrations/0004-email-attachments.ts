import type { Kysely } from 'kysely';

/**
 * E-mails with attachments (a booking confirmation carries its `.ics` invitation): a JSON array of
 * `{ filename, contentType, content }`, null for none. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('email_outbox').addColumn('attachments', 'text').execute();
}
