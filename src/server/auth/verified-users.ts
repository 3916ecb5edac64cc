import type { Db } from '../db/create-db.ts';

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
