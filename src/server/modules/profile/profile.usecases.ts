import type { Enrolment, EnrolInput } from '../../../common/profile.ts';
import type { Me } from '../../../common/session.ts';
import type { Db } from '../../db/create-db.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraint-errors.ts';
import { createForbiddenError, createUnauthenticatedError } from '../../http/errors.ts';
import { createAlreadyEnrolledError, createEnrolModuleNotFoundError, createEnrolmentNotFoundError } from './profile.errors.ts';
import * as repo from './profile.repository.ts';

/**
 * The signed-in user's own data. Every function acts on `me` only: an admin has no more rights over
 * someone else's profile here than a student has.
 */
export interface ProfileDeps {
  db: Db;
  now?: () => Date;
}

const now = (deps: ProfileDeps) => (deps.now ?? (() => new Date()))();

/** better-auth writes Date objects: SQLite hands them back as strings, PostgreSQL as Dates. */
const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toEnrolment(row: repo.EnrolmentRow): Enrolment {
  return { id: row.id, moduleId: row.module_id, moduleName: row.module_name, moduleSlug: row.module_slug, enrolledAt: row.created_at };
}

export async function listMyEnrolments(deps: ProfileDeps, me: Me): Promise<Enrolment[]> {
  return (await repo.listEnrolments(deps.db, me.id)).map(toEnrolment);
}

export async function enrol(deps: ProfileDeps, me: Me, input: EnrolInput): Promise<Enrolment> {
  const module = await repo.findModule(deps.db, input.moduleId);
  if (!module) throw createEnrolModuleNotFoundError();
  const row = { id: crypto.randomUUID(), user_id: me.id, module_id: module.id, module_name: module.name, created_at: now(deps).toISOString() };
  try {
    await repo.insertEnrolment(deps.db, row);
  } catch (error) {
    // The unique (user, module) pair catches a double click; the foreign key a module deleted meanwhile.
    if (isUniqueViolation(error)) throw createAlreadyEnrolledError();
    if (isForeignKeyViolation(error)) throw createEnrolModuleNotFoundError();
    throw error;
  }
  return { id: row.id, moduleId: module.id, moduleName: module.name, moduleSlug: module.slug, enrolledAt: row.created_at };
}

/** Removes one of the user's own enrolments; someone else's is refused (403), a missing one is a 404. */
export async function removeEnrolment(deps: ProfileDeps, me: Me, id: string): Promise<void> {
  const enrolment = await repo.findEnrolment(deps.db, id);
  if (!enrolment) throw createEnrolmentNotFoundError();
  if (enrolment.user_id !== me.id) throw createForbiddenError();
  await repo.deleteEnrolment(deps.db, id, me.id);
}

const sastDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * Everything stored about the user (POPIA's right of access), as a file to download before deleting the
 * account. Secrets are left out: password hashes, session and OAuth tokens, and e-mail bodies (they hold
 * one-time links). Bookings, questions, answers and votes are empty until those features exist.
 */
export async function exportMyData(deps: ProfileDeps, me: Me) {
  const at = now(deps);
  const user = await repo.findUser(deps.db, me.id);
  // The session was read moments ago; the account can only be gone if it was deleted since.
  if (!user) throw createUnauthenticatedError();
  const [tutorCategories, logins, sessions, enrolments, emails] = await Promise.all([
    repo.listTutorCategories(deps.db, me.id),
    repo.listLoginMethods(deps.db, me.id),
    repo.listSessions(deps.db, me.id),
    listMyEnrolments(deps, me),
    repo.listEmailsTo(deps.db, user.email),
  ]);
  const data = {
    exportedAt: at.toISOString(),
    account: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: Boolean(user.email_verified),
      image: user.image,
      role: user.role,
      tutorCategories,
      createdAt: iso(user.created_at),
      updatedAt: iso(user.updated_at),
      logins: logins.map((l) => ({ provider: l.provider_id, createdAt: iso(l.created_at), updatedAt: iso(l.updated_at) })),
    },
    sessions: sessions.map((s) => ({ createdAt: iso(s.created_at), expiresAt: iso(s.expires_at), ipAddress: s.ip_address, userAgent: s.user_agent })),
    enrolments,
    emails: emails.map((e) => ({ kind: e.kind, subject: e.subject, status: e.status, createdAt: e.created_at, sentAt: isoOrNull(e.sent_at) })),
    bookings: [],
    questions: [],
    answers: [],
    votes: [],
  };
  return { filename: `tutorbook-data-${sastDate.format(at)}.json`, data };
}

/** Deletes the account and everything that hangs off it, in one transaction. */
export async function deleteMyAccount(deps: ProfileDeps, me: Me): Promise<void> {
  await repo.deleteUser(deps.db, me.id);
}
