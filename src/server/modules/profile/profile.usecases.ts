import type { UpdateNameInput } from '../../../common/auth.schemas.ts';
import type { Enrolment, EnrolInput } from '../../../common/profile.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraint-errors.ts';
import { withTransaction, type Deps } from '../../deps.ts';
import { accessChanged } from '../../events/events.ts';
import { createForbiddenError, createUnauthenticatedError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import {
  createAlreadyEnrolledError,
  createEnrolModuleNotFoundError,
  createEnrolmentNotFoundError,
} from './profile.errors.ts';
import * as repo from './profile.repository.ts';

/*
 * The signed-in user's own data. Every function acts on `me` only: an admin has no more rights over
 * someone else's profile here than a student has.
 */

/** better-auth writes Date objects: SQLite hands them back as strings, PostgreSQL as Dates. */
const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toEnrolment(row: repo.EnrolmentRow): Enrolment {
  return {
    id: row.id,
    moduleId: row.module_id,
    moduleName: row.module_name,
    moduleSlug: row.module_slug,
    enrolledAt: row.created_at,
  };
}

export async function listMyEnrolments(deps: Deps, me: Me | undefined): Promise<Enrolment[]> {
  const user = requireUser(me);
  return (await repo.listEnrolments(deps.db, user.id)).map(toEnrolment);
}

export async function enrol(deps: Deps, me: Me | undefined, input: EnrolInput): Promise<Enrolment> {
  const user = requireUser(me);
  const module = await repo.findModule(deps.db, input.moduleId);
  if (!module) throw createEnrolModuleNotFoundError();
  const row = {
    id: crypto.randomUUID(),
    user_id: user.id,
    module_id: module.id,
    module_name: module.name,
    created_at: deps.clock.now().toISOString(),
  };
  try {
    await repo.insertEnrolment(deps.db, row);
  } catch (error) {
    // The unique (user, module) pair catches a double click; the foreign key a module deleted meanwhile.
    if (isUniqueViolation(error)) throw createAlreadyEnrolledError();
    if (isForeignKeyViolation(error)) throw createEnrolModuleNotFoundError();
    throw error;
  }
  return {
    id: row.id,
    moduleId: module.id,
    moduleName: module.name,
    moduleSlug: module.slug,
    enrolledAt: row.created_at,
  };
}

/** Removes one of the user's own enrolments; someone else's is refused (403), a missing one is a 404. */
export async function removeEnrolment(deps: Deps, me: Me | undefined, id: string): Promise<void> {
  const user = requireUser(me);
  const enrolment = await repo.findEnrolment(deps.db, id);
  if (!enrolment) throw createEnrolmentNotFoundError();
  if (enrolment.user_id !== user.id) throw createForbiddenError();
  await repo.deleteEnrolment(deps.db, id, user.id);
}

/** The profile's own table, as one part of the export and deletion like any other feature's. */
export const enrolmentsPersonalData: PersonalDataPart = {
  exportFor: async (deps, me) => ({ enrolments: await listMyEnrolments(deps, me) }),
  eraseFor: (tx, userId) => repo.deleteEnrolmentsOf(tx.db, userId),
};

const sastDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Africa/Johannesburg',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * Everything stored about the user (POPIA's right of access), as a file to download before deleting the
 * account: the account, sessions, logins and e-mails here, and each part's keys (`parts`, one per feature
 * that stores something about a person). Secrets are left out: password hashes, session and OAuth tokens,
 * and e-mail bodies (they hold one-time links).
 */
export async function exportMyData(deps: Deps, me: Me | undefined, parts: readonly PersonalDataPart[]) {
  const signedIn = requireUser(me);
  const at = deps.clock.now();
  const user = await repo.findUser(deps.db, signedIn.id);
  // The session was read moments ago; the account can only be gone if it was deleted since.
  if (!user) throw createUnauthenticatedError();
  const [tutorCategories, logins, sessions, emails, ...partsData] = await Promise.all([
    repo.listTutorCategories(deps.db, user.id),
    repo.listLoginMethods(deps.db, user.id),
    repo.listSessions(deps.db, user.id),
    repo.listEmailsTo(deps.db, user.email),
    ...parts.map((part) => part.exportFor(deps, signedIn)),
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
      logins: logins.map((l) => ({
        provider: l.provider_id,
        createdAt: iso(l.created_at),
        updatedAt: iso(l.updated_at),
      })),
    },
    sessions: sessions.map((s) => ({
      createdAt: iso(s.created_at),
      expiresAt: iso(s.expires_at),
      ipAddress: s.ip_address,
      userAgent: s.user_agent,
    })),
    emails: emails.map((e) => ({
      kind: e.kind,
      subject: e.subject,
      status: e.status,
      createdAt: e.created_at,
      sentAt: isoOrNull(e.sent_at),
    })),
    ...Object.fromEntries(partsData.flatMap((part) => Object.entries(part))),
  };
  return { filename: `tutorbook-data-${sastDate.format(at)}.json`, data };
}

/**
 * A new name, and every copy of it the features keep (docs/decisions/0025), in one transaction: nobody sees
 * the old name beside the new. The user's own devices hear a `me` notice, so an open page shows it at once.
 */
export async function renameMe(
  deps: Deps,
  me: Me | undefined,
  input: UpdateNameInput,
  parts: readonly PersonalDataPart[],
): Promise<void> {
  const user = requireUser(me);
  await withTransaction(deps, async (tx) => {
    await repo.setUserName(tx.db, user.id, input.name, tx.clock.now());
    for (const part of parts) await part.renameFor?.(tx, user.id, input.name);
    tx.events.publish({ table: 'me', ids: [user.id], audience: { userIds: [user.id] } });
  });
}

/**
 * Deletes the account: every part erases its data, then the e-mails that hold it and the user row (with
 * sessions and logins), all in one transaction. An e-mail a part queues here (the staff told of a cancelled
 * booking) must hold nothing of the user's: it is sent after they are gone.
 */
export async function deleteMyAccount(
  deps: Deps,
  me: Me | undefined,
  parts: readonly PersonalDataPart[],
): Promise<void> {
  const user = requireUser(me);
  await withTransaction(deps, async (tx) => {
    for (const part of parts) await part.eraseFor(tx, user.id);
    await repo.deleteEmailsOf(tx.db, user);
    await repo.deleteUser(tx.db, user.id);
    // Its open event streams, in any process, end once the deletion is committed.
    tx.events.publish(accessChanged([user.id]));
  });
}
