import type { Db } from '../../db/create-db.ts';

/**
 * The user's enrolments, oldest first, with the module's current name and slug; once the module is deleted,
 * the name it had when the enrolment was made (and no slug). Read here rather than copied on a rename, so the
 * catalogue never writes this feature's table.
 */
export function listEnrolments(db: Db, userId: string) {
  return db
    .selectFrom('enrolments')
    .leftJoin('modules', 'modules.id', 'enrolments.module_id')
    .select((eb) => [
      'enrolments.id',
      'enrolments.module_id',
      eb.fn.coalesce('modules.name', 'enrolments.module_name').as('module_name'),
      'modules.slug as module_slug',
      'enrolments.created_at',
    ])
    .where('enrolments.user_id', '=', userId)
    .orderBy('enrolments.created_at')
    .orderBy('enrolments.id')
    .execute();
}
export type EnrolmentRow = Awaited<ReturnType<typeof listEnrolments>>[number];

export function findModule(db: Db, id: string) {
  return db.selectFrom('modules').select(['id', 'name', 'slug']).where('id', '=', id).executeTakeFirst();
}

export async function insertEnrolment(
  db: Db,
  row: { id: string; user_id: string; module_id: string; module_name: string; created_at: string },
) {
  await db.insertInto('enrolments').values(row).execute();
}

export function findEnrolment(db: Db, id: string) {
  return db.selectFrom('enrolments').select(['id', 'user_id', 'module_name']).where('id', '=', id).executeTakeFirst();
}

export async function deleteEnrolment(db: Db, id: string, userId: string) {
  await db.deleteFrom('enrolments').where('id', '=', id).where('user_id', '=', userId).execute();
}

export async function deleteEnrolmentsOf(db: Db, userId: string) {
  await db.deleteFrom('enrolments').where('user_id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------------------
// The data export: everything stored about one user, without secrets (password hashes, tokens).

export function findUser(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'email_verified', 'image', 'role', 'created_at', 'updated_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function listTutorCategories(db: Db, userId: string) {
  const rows = await db
    .selectFrom('tutor_categories')
    .select('category')
    .where('user_id', '=', userId)
    .orderBy('category')
    .execute();
  return rows.map((r) => r.category);
}

/** How the user logs in (password, Google): which provider and since when; never the hash or tokens. */
export function listLoginMethods(db: Db, userId: string) {
  return db
    .selectFrom('accounts')
    .select(['provider_id', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

export function listSessions(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'expires_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** E-mails sent (or queued) to the address: what and when, not the bodies (they hold one-time links). */
export function listEmailsTo(db: Db, email: string) {
  return db
    .selectFrom('email_outbox')
    .select(['kind', 'subject', 'status', 'created_at', 'sent_at'])
    .where('to_address', '=', email)
    .orderBy('created_at')
    .execute();
}

/**
 * The e-mails that hold the user's data: those sent (or waiting) to their address, and those about them to
 * others (a booking's, to staff). Whatever status: the delivery log keeps no one's data past their account.
 */
export async function deleteEmailsOf(db: Db, user: { id: string; email: string }): Promise<void> {
  await db
    .deleteFrom('email_outbox')
    .where((eb) => eb.or([eb('to_address', '=', user.email), eb('about_user_id', '=', user.id)]))
    .execute();
}

/**
 * Deletes the account (call it inside the deletion's transaction). The users row cascades to sessions, logins
 * (accounts) and tutor categories; pending password-reset links (verifications holding the user id) go too.
 */
export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('verifications').where('value', '=', userId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** The user's name, as their account shows it (better-auth's row; the session reads it on every request). */
export async function setUserName(db: Db, userId: string, name: string, now: Date) {
  await db.updateTable('users').set({ name, updated_at: now }).where('id', '=', userId).execute();
}
