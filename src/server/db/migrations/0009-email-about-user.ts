import type { Kysely } from 'kysely';

/**
 * The person an e-mail is about, when it is not (only) its recipient: a booking's e-mails to staff carry the
 * student's name, address and concepts. Deleting that person's account deletes those e-mails too (POPIA);
 * null for the rest, and once the person is gone. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('email_outbox')
    .addColumn('about_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('email_outbox_about_idx').on('email_outbox').column('about_user_id').execute();
}
