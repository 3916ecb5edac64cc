import type { Kysely } from 'kysely';

/**
 * From a question to a session (issue 39 §4). `session_offers`: a tutor's (or the admin's) offer of a session on a
 * board question, one per tutor and question; the tutor's account's deletion erases theirs (as on Firestore, which
 * has no foreign keys, so the rule is the same code on every engine). On `bookings`: the
 * question it was booked from (its id, and its title as it was), the tutor's notes after the session (JSON of
 * common/session-notes.ts `SessionNotes`), when the student agreed to a summary on her question, and when it was
 * posted. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('session_offers')
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('tutor_id', 'text', (c) => c.notNull())
    .addColumn('tutor_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_offers_pk', ['question_id', 'tutor_id'])
    .execute();
  await db.schema.createIndex('session_offers_tutor_idx').on('session_offers').columns(['tutor_id']).execute();
  // No foreign key, as on Firestore: questions are deleted as tombstones, and a link to one gone shows as gone.
  await db.schema.alterTable('bookings').addColumn('question_id', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('question_title', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('session_notes', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('summary_consent_at', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('summary_posted_at', 'text').execute();
}
