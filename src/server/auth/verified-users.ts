import type { Db } from '../db/create-db.ts';
import type { DBAdapter } from 'better-auth';

/**
 * Verified accounts with an e-mail and password login, written straight to the database in one transaction:
 * for tests and benchmarks where signing up is not what is measured. `passwordHash` is made by better-auth's
 * own hasher (`(await auth.$context).password.hash`), so the accounts log in as any other.
 */
export async function insertVerifiedUsers(
  db: Db,
  users: readonly { id: string; name: string; email: string }[],
  passwordHash: string,
): Promise<void> {
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values(users.map((u) => ({ ...u, email_verified: true, image: null, created_at: now, updated_at: now })))
      .execute();
    await trx
      .insertInto('accounts')
      .values(
        users.map((u) => ({
          id: crypto.randomUUID(),
          user_id: u.id,
          account_id: u.id,
          provider_id: 'credential',
          password: passwordHash,
          access_token: null,
          refresh_token: null,
          id_token: null,
          access_token_expires_at: null,
          refresh_token_expires_at: null,
          scope: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  });
}

/**
 * One such account through better-auth's own adapter (`(await auth.$context).adapter`), on any engine,
 * Firestore included: the user and password login records as sign-up and verification leave them (no hooks
 * run: nothing is e-mailed).
 */
export async function insertVerifiedUserThroughAuth(
  adapter: Pick<DBAdapter, 'create'>,
  user: { name: string; email: string },
  passwordHash: string,
): Promise<{ id: string; name: string; email: string }> {
  const now = new Date();
  const created = await adapter.create<Record<string, unknown>, { id: string }>({
    model: 'user',
    data: { ...user, emailVerified: true, role: 'student', createdAt: now, updatedAt: now },
  });
  await adapter.create({
    model: 'account',
    data: {
      userId: created.id,
      accountId: created.id,
      providerId: 'credential',
      password: passwordHash,
      createdAt: now,
      updatedAt: now,
    },
  });
  return { id: created.id, name: user.name, email: user.email };
}
