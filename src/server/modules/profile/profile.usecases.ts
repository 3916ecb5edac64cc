import type { UpdateNameInput } from '../../../common/auth.schemas.ts';
import type { Enrolment, EnrolInput } from '../../../common/profile.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Deps, type Uses } from '../../deps.ts';
import { accessChanged } from '../../events/events.ts';
import { createForbiddenError, createUnauthenticatedError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { createEnrolModuleNotFoundError, createEnrolmentNotFoundError } from './profile.errors.ts';

/*
 * The signed-in user's own data. Every function acts on `me` only: an admin has no more rights over
 * someone else's profile here than a student has. The export, the rename and the deletion take the whole
 * `Deps`: they hand it to every feature's part (personal-data.ts), whose needs are the parts' own.
 */

/**
 * The user's enrolments, oldest first, with the module's current name and slug; once the module is deleted,
 * the name it had when the enrolment was made (and no slug). The names are the catalogue's, asked for here
 * rather than copied on a rename, so the catalogue never writes the profile's storage.
 */
export async function listMyEnrolments(
  { repos }: Uses<'profile' | 'catalogue'>,
  me: Me | undefined,
): Promise<Enrolment[]> {
  const user = requireUser(me);
  const stored = await repos.profile.enrolmentsOf(user.id);
  const moduleIds = stored.flatMap((e) => (e.moduleId === null ? [] : [e.moduleId]));
  const modules = await repos.catalogue.findNames(moduleIds);
  return stored.map((e) => {
    const module = e.moduleId === null ? undefined : modules.get(e.moduleId);
    // A module gone is gone whether or not the storage has cleared the enrolment's link to it yet (SQL's
    // foreign key does at once; a read between the two reads above, or an engine without one, may not).
    return {
      id: e.id,
      moduleId: module ? e.moduleId : null,
      moduleName: module?.name ?? e.moduleName,
      moduleSlug: module?.slug ?? null,
      enrolledAt: e.createdAt,
    };
  });
}

export async function enrol(
  { repos, clock }: Uses<'profile' | 'catalogue', 'clock'>,
  me: Me | undefined,
  input: EnrolInput,
): Promise<Enrolment> {
  const user = requireUser(me);
  const module = await repos.catalogue.findById(input.moduleId);
  if (!module) throw createEnrolModuleNotFoundError();
  const enrolment = {
    id: crypto.randomUUID(),
    userId: user.id,
    moduleId: module.id,
    moduleName: module.name,
    createdAt: clock.now().toISOString(),
  };
  // Refused there when the user is enrolled already (a double click) or the module was deleted meanwhile.
  await repos.profile.insertEnrolment(enrolment);
  return {
    id: enrolment.id,
    moduleId: module.id,
    moduleName: module.name,
    moduleSlug: module.slug,
    enrolledAt: enrolment.createdAt,
  };
}

/** Removes one of the user's own enrolments; someone else's is refused (403), a missing one is a 404. */
export async function removeEnrolment({ repos }: Uses<'profile'>, me: Me | undefined, id: string): Promise<void> {
  const user = requireUser(me);
  const enrolment = await repos.profile.findEnrolment(id);
  if (!enrolment) throw createEnrolmentNotFoundError();
  if (enrolment.userId !== user.id) throw createForbiddenError();
  await repos.profile.deleteEnrolment(id, user.id);
}

/** The profile's own storage, as one part of the export and deletion like any other feature's. */
export const enrolmentsPersonalData: PersonalDataPart = {
  exportFor: async (deps, me) => ({ enrolments: await listMyEnrolments(deps, me) }),
  eraseFor: (tx, userId) => tx.repos.profile.deleteEnrolmentsOf(userId),
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
  const { accounts } = deps.repos;
  const user = await accounts.findById(signedIn.id);
  // The session was read moments ago; the account can only be gone if it was deleted since.
  if (!user) throw createUnauthenticatedError();
  const [tutorCategories, logins, sessions, emails, ...partsData] = await Promise.all([
    accounts.categoriesOf(user.id),
    accounts.loginMethods(user.id),
    accounts.sessionsOf(user.id),
    deps.repos.outbox.listTo(user.email),
    ...parts.map((part) => part.exportFor(deps, signedIn)),
  ]);
  const data = {
    exportedAt: at.toISOString(),
    account: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      role: user.role,
      tutorCategories,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
      logins: logins.map((l) => ({ provider: l.providerId, createdAt: l.createdAt, updatedAt: l.updatedAt })),
    },
    sessions,
    emails,
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
    // The features' copies first: they may read, and a read never sees an earlier write of the same
    // transaction on Firestore (docs/decisions/0028; the account's rename only writes). On SQL the order changes
    // nothing but the lock order, bookings before the user's row as in the account's deletion.
    for (const part of parts) await part.renameFor?.(tx, user.id, input.name);
    await tx.repos.accounts.rename(user.id, input.name, tx.clock.now());
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
    await tx.repos.refusals.deleteOf(user.id);
    await tx.repos.outbox.deleteOf(user);
    await tx.repos.accounts.delete(user.id);
    // Its open event streams, in any process, end once the deletion is committed.
    tx.events.publish(accessChanged([user.id]));
  });
}
