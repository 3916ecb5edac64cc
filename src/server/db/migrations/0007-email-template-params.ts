import type { Kysely } from 'kysely';

/**
 * What a mail service that fills in its own templates (EmailJS) needs beside the rendered bodies: the
 * recipient's name and the values the old site's templates used (`student_name`, `module_name`, …), as a JSON
 * object of strings; null for none. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('email_outbox').addColumn('template_params', 'text').execute();
}
