import type { Category, Role } from '../../../common/roles.ts';
import { forgetResetLinks } from '../../auth/auth.ts';
import type { Db } from '../../db/create-db.ts';

export async function findUserByEmail(db: Db, email: string) {
  const row = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role', 'email_verified'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row && { ...row, email_verified: Boolean(row.email_verified) };
}

/**
 * An account whose address was never proven becomes like a new invitation: whatever password and sessions the
 * sign-up made are removed (and its outstanding reset links), and the name is the one given here. The address is
 * marked verified as an invited one is: only the invitation link or Google, both proofs of it, can open it now.
 * Several statements: call it inside the usecase's transaction.
 */
export async function reclaimUnprovenAccount(db: Db, userId: string, name: string, now: Date) {
  await db.deleteFrom('accounts').where('user_id', '=', userId).execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await forgetResetLinks(db, userId);
  await db.updateTable('users').set({ name, email_verified: true, updated_at: now }).where('id', '=', userId).execute();
}

export async function insertInvitedUser(
  db: Db,
  user: { id: string; name: string; email: string; role: Role },
  now: Date,
) {
  // The invitation link proves the address, so the account starts verified.
  await db
    .insertInto('users')
    .values({ ...user, email_verified: true, image: null, created_at: now, updated_at: now })
    .execute();
}

/**
 * How many admins there are, with their rows locked until the transaction ends: the first statement of a
 * usecase that may take the admin role away, so two such changes at once run one after the other and cannot
 * each see the other admin and leave none. An update that changes nothing, as it is the one lock both SQLite
 * (the database's write lock) and PostgreSQL (the rows') take the same way.
 */
export async function lockAdmins(db: Db): Promise<number> {
  const result = await db
    .updateTable('users')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('role', '=', 'admin')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Sets the role and replaces the tutor categories (inside the usecase's transaction). */
export async function setRole(db: Db, userId: string, role: Role, categories: readonly Category[], now: Date) {
  await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', userId).execute();
  await db.deleteFrom('tutor_categories').where('user_id', '=', userId).execute();
  if (categories.length > 0) {
    await db
      .insertInto('tutor_categories')
      .values(categories.map((category) => ({ user_id: userId, category })))
      .execute();
  }
}

export async function listStaff(db: Db) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('tutor_categories', 'tutor_categories.user_id', 'users.id')
    .select(['users.email', 'users.name', 'users.role', 'tutor_categories.category'])
    .where('users.role', 'in', ['admin', 'tutor'])
    .orderBy('users.role')
    .orderBy('users.email')
    .orderBy('tutor_categories.category')
    .execute();
  const byEmail = new Map<string, { email: string; name: string; role: Role; categories: Category[] }>();
  for (const row of rows) {
    const entry = byEmail.get(row.email) ?? { email: row.email, name: row.name, role: row.role, categories: [] };
    if (row.category) entry.categories.push(row.category);
    byEmail.set(row.email, entry);
  }
  return [...byEmail.values()];
}
