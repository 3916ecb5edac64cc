import type { Selectable } from 'kysely';
import type { Category, Role } from '../../common/roles.ts';
import type { Db } from '../db/create-db.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Account, AccountsRepository, ImportedLogin, StaffMember } from './accounts.storage.ts';
import { forgetResetLinks } from './auth.ts';
import { firebaseHashPrefix } from './firebase-password.ts';
import type { SessionsTable, UsersTable } from './auth.table.ts';

/** better-auth writes Date objects; SQLite hands back strings, PostgreSQL Dates. */
const iso = (value: Date | string) => (typeof value === 'string' ? value : value.toISOString());

function toAccount(row: Selectable<UsersTable>): Account {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: Boolean(row.email_verified),
    image: row.image,
    role: row.role,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

type SessionRow = Pick<Selectable<UsersTable>, 'id' | 'name' | 'email' | 'email_verified' | 'role'> & {
  expires_at: Selectable<SessionsTable>['expires_at'];
};

/**
 * The hottest path, every signed-in request (auth.session.ts): the session and its user in one statement,
 * compiled once (building it was about a fifth of a signed-in read).
 */
const signedIn = preparedQuery<{ token: string }, SessionRow>((db, arg) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.name', 'users.email', 'users.email_verified', 'users.role', 'sessions.expires_at'])
    .where('sessions.token', '=', arg('token')),
);

/** Who hears of a booking in `category` (every booking's request asks): its tutors and the admins; without one, the admins. */
const staff = preparedQuery<{ category?: Category }, Pick<Account, 'id' | 'name' | 'email' | 'role'>>((db, arg) => {
  const category = arg('category');
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role'])
    .where((eb) =>
      category === undefined
        ? eb('role', '=', 'admin')
        : eb.or([
            eb('role', '=', 'admin'),
            eb.and([
              eb('role', '=', 'tutor'),
              eb('id', 'in', eb.selectFrom('tutor_categories').select('user_id').where('category', '=', category)),
            ]),
          ]),
    )
    .orderBy('email');
});

/** Accounts on SQLite and PostgreSQL: better-auth's tables (`users`, `accounts`, `sessions`, `verifications`) and `tutor_categories`. */
export function createAccountsRepository(db: Db): AccountsRepository {
  async function categoriesOf(userId: string): Promise<Category[]> {
    const rows = await db
      .selectFrom('tutor_categories')
      .select('category')
      .where('user_id', '=', userId)
      .orderBy('category')
      .execute();
    return rows.map((r) => r.category);
  }

  const toMe = async (row: Pick<Selectable<UsersTable>, 'id' | 'name' | 'email' | 'email_verified' | 'role'>) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: Boolean(row.email_verified),
    role: row.role,
    categories: row.role === 'tutor' ? await categoriesOf(row.id) : [],
  });

  return {
    async findById(id) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toAccount(row);
    },

    async findByEmail(email) {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row && toAccount(row);
    },

    async describe(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'name', 'role'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((r) => [r.id, { name: r.name, role: r.role }]));
    },

    categoriesOf,

    staffOf: async (category) => (await staff(db, { category: category ?? undefined })).rows,

    async listStaff() {
      const rows = await db
        .selectFrom('users')
        .leftJoin('tutor_categories', 'tutor_categories.user_id', 'users.id')
        .select(['users.email', 'users.name', 'users.role', 'tutor_categories.category'])
        .where('users.role', 'in', ['admin', 'tutor'])
        .orderBy('users.role')
        .orderBy('users.email')
        .orderBy('tutor_categories.category')
        .execute();
      const byEmail = new Map<string, StaffMember>();
      for (const row of rows) {
        const entry = byEmail.get(row.email) ?? { email: row.email, name: row.name, role: row.role, categories: [] };
        if (row.category) entry.categories.push(row.category);
        byEmail.set(row.email, entry);
      }
      return [...byEmail.values()];
    },

    async loginMethods(userId) {
      const rows = await db
        .selectFrom('accounts')
        .select(['provider_id', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        providerId: r.provider_id,
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
      }));
    },

    async sessionsOf(userId) {
      const rows = await db
        .selectFrom('sessions')
        .select(['created_at', 'expires_at', 'ip_address', 'user_agent'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        createdAt: iso(r.created_at),
        expiresAt: iso(r.expires_at),
        ipAddress: r.ip_address,
        userAgent: r.user_agent,
      }));
    },

    async insertInvited(user, now) {
      await db
        .insertInto('users')
        .values({ ...user, email_verified: true, image: null, created_at: now, updated_at: now })
        .execute();
    },

    async reclaimUnproven(userId, name, now) {
      await db.deleteFrom('accounts').where('user_id', '=', userId).execute();
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await forgetResetLinks(db, userId);
      await db
        .updateTable('users')
        .set({ name, email_verified: true, updated_at: now })
        .where('id', '=', userId)
        .execute();
    },

    async passwordHashOf(userId) {
      const row = await db
        .selectFrom('accounts')
        .select('password')
        .where('user_id', '=', userId)
        .where('provider_id', '=', 'credential')
        .executeTakeFirst();
      return row?.password ?? null;
    },

    async countImportedPasswordsUnused() {
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('provider_id', '=', 'credential')
        .where('password', 'like', `${firebaseHashPrefix}%`)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async googleIdOf(userId) {
      const row = await db
        .selectFrom('accounts')
        .select('account_id')
        .where('user_id', '=', userId)
        .where('provider_id', '=', 'google')
        .executeTakeFirst();
      return row?.account_id ?? null;
    },

    async updateImported(userId, changes, now) {
      if (changes.endSessions) await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      if (changes.logins) {
        await db
          .deleteFrom('accounts')
          .where('user_id', '=', userId)
          .where('provider_id', 'in', ['credential', 'google'])
          .execute();
        await insertLogins(db, userId, changes.logins, now, now);
      }
      await db
        .updateTable('users')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.emailVerified !== undefined && { email_verified: changes.emailVerified }),
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
    },

    async insertImported(account, logins, now) {
      const createdAt = new Date(account.createdAt);
      await db
        .insertInto('users')
        .values({
          id: account.id,
          name: account.name,
          email: account.email,
          email_verified: account.emailVerified,
          image: account.image,
          created_at: createdAt,
          updated_at: now,
        })
        .execute();
      await insertLogins(db, account.id, logins, createdAt, now);
    },

    async handOverToImported(userId, old, logins, now) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await db.deleteFrom('accounts').where('user_id', '=', userId).execute();
      await db
        .updateTable('users')
        .set({ name: old.name, email_verified: old.emailVerified, updated_at: now })
        .where('id', '=', userId)
        .execute();
      await insertLogins(db, userId, logins, now, now);
    },

    async lockAdmins() {
      // An update that changes nothing: the one lock both SQLite (the database's write lock) and PostgreSQL
      // (the rows') take the same way.
      const result = await db
        .updateTable('users')
        .set((eb) => ({ role: eb.ref('role') }))
        .where('role', '=', 'admin')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async setRole(userId, role: Role, categories: readonly Category[], now) {
      await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', userId).execute();
      await db.deleteFrom('tutor_categories').where('user_id', '=', userId).execute();
      if (categories.length > 0)
        await db
          .insertInto('tutor_categories')
          .values(categories.map((category) => ({ user_id: userId, category })))
          .execute();
    },

    async rename(userId, name, now) {
      await db.updateTable('users').set({ name, updated_at: now }).where('id', '=', userId).execute();
    },

    async delete(userId) {
      // The users row cascades to sessions, logins (accounts) and tutor categories; pending password-reset
      // links (verifications holding the user id) go here.
      await db.deleteFrom('verifications').where('value', '=', userId).execute();
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },

    async findSignedIn(userId) {
      // The hot path: only the columns a session shows, and the categories only for a tutor.
      const row = await db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'email_verified', 'role'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return row && toMe(row);
    },

    async findSignedInBySession(token) {
      const {
        rows: [row],
      } = await signedIn(db, { token });
      return row && { me: await toMe(row), expiresAt: new Date(row.expires_at) };
    },
  };
}

/** The logins an imported account brings (better-auth's accounts rows: no tokens). */
async function insertLogins(db: Db, userId: string, logins: readonly ImportedLogin[], createdAt: Date, now: Date) {
  if (logins.length === 0) return;
  await db
    .insertInto('accounts')
    .values(
      logins.map((login) => ({
        id: crypto.randomUUID(),
        user_id: userId,
        account_id: login.accountId,
        provider_id: login.providerId,
        password: login.passwordHash,
        access_token: null,
        refresh_token: null,
        id_token: null,
        access_token_expires_at: null,
        refresh_token_expires_at: null,
        scope: null,
        created_at: createdAt,
        updated_at: now,
      })),
    )
    .execute();
}
