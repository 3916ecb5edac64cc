import {
  Filter,
  Timestamp,
  type CollectionReference,
  type DocumentData,
  type DocumentReference,
  type Query,
  type Transaction,
} from 'firebase-admin/firestore';
import type { Category, Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';
import { atomically, read, readAll, type FirestoreContext } from '../storage/firestore/context.ts';
import { deleteFound, query } from '../storage/firestore/queries.ts';
import type { Account, AccountsRepository, ImportedLogin } from './accounts.storage.ts';
import { firebaseHashPrefix } from './firebase-password.ts';

/**
 * Accounts on Firestore (docs/firestore-layout.md): the collections better-auth's adapter writes
 * (firestore-adapter.ts: `users`, `sessions`, `accounts`, `verifications`, snake_case fields, dates as
 * timestamps), plus a tutor's categories as `tutor_categories` on the user's document (so that a session's
 * read is one document, and the staff who hear of a category one query), and `guards/admins`, the document
 * every change of roles writes (`lockAdmins`).
 */
interface UserDoc {
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  role: Role;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Sorted; absent on a user better-auth made and nobody has given a role since. */
  tutor_categories?: Category[];
}

/** better-auth's adapter stores Dates, which Firestore hands back as timestamps. */
const iso = (value: Timestamp | Date) => (value instanceof Timestamp ? value.toDate() : value).toISOString();

function toAccount(id: string, doc: UserDoc): Account {
  return {
    id,
    name: doc.name,
    email: doc.email,
    emailVerified: Boolean(doc.email_verified),
    image: doc.image ?? null,
    role: doc.role,
    createdAt: iso(doc.created_at),
    updatedAt: iso(doc.updated_at),
  };
}

/** SQL's ORDER BY on text: code unit order, as JavaScript compares strings. */
const toMe = (id: string, doc: UserDoc): Me => ({
  id,
  name: doc.name,
  email: doc.email,
  emailVerified: Boolean(doc.email_verified),
  role: doc.role,
  categories: doc.role === 'tutor' ? [...(doc.tutor_categories ?? [])] : [],
});

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createAccountsFirestoreRepository(ctx: FirestoreContext): AccountsRepository {
  const { db } = ctx;
  const users = db.collection('users') as CollectionReference<UserDoc>;
  const sessions = db.collection('sessions');
  const logins = db.collection('accounts');
  const verifications = db.collection('verifications');
  const adminsGuard = db.doc('guards/admins');

  const userRef = (id: string) => users.doc(id) as DocumentReference<UserDoc>;
  const findUser = async (id: string) => (await read(ctx, userRef(id))).data();

  async function byCreation(q: Query) {
    const found = await query(ctx, q);
    return found.docs
      .map((d): DocumentData => ({ ...d.data(), id: d.id }))
      .sort(
        (a, b) =>
          compare(iso(a.created_at as Timestamp), iso(b.created_at as Timestamp)) ||
          compare(a.id as string, b.id as string),
      );
  }

  /** Writes `changes` to a user, in the transaction when there is one; every change of roles also writes the guard. */
  async function writeUser(userId: string, changes: Partial<UserDoc>, roles: boolean) {
    if (ctx.tx) {
      ctx.tx.update(userRef(userId), changes);
      if (roles) ctx.tx.set(adminsGuard, { changedAt: Timestamp.now() });
      return;
    }
    const batch = db.batch();
    batch.update(userRef(userId), changes);
    if (roles) batch.set(adminsGuard, { changedAt: Timestamp.now() });
    await batch.commit();
  }

  /** An imported account's logins, every field of better-auth's model written (firestore-layout.md). */
  function createLogins(
    tx: Transaction,
    userId: string,
    imported: readonly ImportedLogin[],
    createdAt: Timestamp,
    now: Timestamp,
  ) {
    for (const login of imported) {
      tx.create(logins.doc(crypto.randomUUID()), {
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
      });
    }
  }

  return {
    async findById(id) {
      const doc = await findUser(id);
      return doc && toAccount(id, doc);
    },

    async findByEmail(email) {
      const found = await query(ctx, users.where('email', '==', email).limit(1));
      const doc = found.docs[0];
      return doc && toAccount(doc.id, doc.data());
    },

    async describe(ids) {
      const found = await readAll(
        ctx,
        [...new Set(ids)].map((id) => userRef(id)),
      );
      return new Map(found.filter((d) => d.exists).map((d) => [d.id, { name: d.data()!.name, role: d.data()!.role }]));
    },

    async categoriesOf(userId) {
      return (await findUser(userId))?.tutor_categories ?? [];
    },

    async staffOf(category) {
      // One query: the admins, or the tutors whose categories hold it.
      const admins = Filter.where('role', '==', 'admin');
      const q =
        category === null
          ? users.where(admins)
          : users.where(
              Filter.or(
                admins,
                Filter.and(
                  Filter.where('role', '==', 'tutor'),
                  Filter.where('tutor_categories', 'array-contains', category),
                ),
              ),
            );
      const found = await query(ctx, q);
      return found.docs
        .map((d) => ({ id: d.id, name: d.data().name, email: d.data().email, role: d.data().role }))
        .sort((a, b) => compare(a.email, b.email));
    },

    async listStaff() {
      const found = await query(ctx, users.where('role', 'in', ['admin', 'tutor']));
      return found.docs
        .map((d) => d.data())
        .sort((a, b) => compare(a.role, b.role) || compare(a.email, b.email))
        .map((u) => ({ email: u.email, name: u.name, role: u.role, categories: [...(u.tutor_categories ?? [])] }));
    },

    async loginMethods(userId) {
      const rows = await byCreation(logins.where('user_id', '==', userId));
      return rows.map((r) => ({
        providerId: r.provider_id as string,
        createdAt: iso(r.created_at as Timestamp),
        updatedAt: iso(r.updated_at as Timestamp),
      }));
    },

    async sessionsOf(userId) {
      const rows = await byCreation(sessions.where('user_id', '==', userId));
      return rows.map((r) => ({
        createdAt: iso(r.created_at as Timestamp),
        expiresAt: iso(r.expires_at as Timestamp),
        ipAddress: (r.ip_address as string | null) ?? null,
        userAgent: (r.user_agent as string | null) ?? null,
      }));
    },

    insertInvited: (user, now) =>
      // Firestore has no unique index, and better-auth's adapter checks only what it writes: the address is
      // looked up in the same transaction as the create, so a sign-up or another invitation with it at once
      // meets this one on the query's documents, and the later finds the earlier's (firestore-layout.md).
      atomically(ctx, async ({ tx }) => {
        if (!(await tx.get(users.where('email', '==', user.email).limit(1))).empty)
          throw new Error(`users.email must be unique: "${user.email}" is taken`);
        const at = Timestamp.fromDate(now);
        tx.create(userRef(user.id), {
          name: user.name,
          email: user.email,
          email_verified: true,
          image: null,
          role: user.role,
          created_at: at,
          updated_at: at,
          tutor_categories: [],
        });
      }),

    reclaimUnproven: (userId, name, now) =>
      atomically(ctx, async ({ tx }) => {
        const [userLogins, userSessions, links] = await Promise.all([
          tx.get(logins.where('user_id', '==', userId)),
          tx.get(sessions.where('user_id', '==', userId)),
          tx.get(verifications.where('value', '==', userId)),
        ]);
        for (const doc of [...userLogins.docs, ...userSessions.docs]) tx.delete(doc.ref);
        // better-auth keeps a reset link as `reset-password:<token>` holding the user id (no LIKE here).
        for (const link of links.docs)
          if (String(link.get('identifier')).startsWith('reset-password:')) tx.delete(link.ref);
        tx.update(userRef(userId), { name, email_verified: true, updated_at: Timestamp.fromDate(now) });
      }),

    async passwordHashOf(userId) {
      const found = await query(
        ctx,
        logins.where('user_id', '==', userId).where('provider_id', '==', 'credential').limit(1),
      );
      return (found.docs[0]?.get('password') as string | null | undefined) ?? null;
    },

    async countImportedPasswordsUnused() {
      // A range on one field, which its automatic index serves: only a Firebase hash starts with the prefix
      // (better-auth's are hex), and `%` is the character after `$`.
      const unused = logins
        .where('password', '>=', firebaseHashPrefix)
        .where('password', '<', `${firebaseHashPrefix.slice(0, -1)}%`)
        .count();
      const snapshot = await (ctx.tx ? ctx.tx.get(unused) : unused.get());
      return snapshot.data().count;
    },

    async googleIdOf(userId) {
      const found = await query(
        ctx,
        logins.where('user_id', '==', userId).where('provider_id', '==', 'google').limit(1),
      );
      return (found.docs[0]?.get('account_id') as string | undefined) ?? null;
    },

    updateImported: (userId, changes, now) =>
      atomically(ctx, async ({ tx }) => {
        const at = Timestamp.fromDate(now);
        const [userLogins, userSessions] = await Promise.all([
          changes.logins ? tx.get(logins.where('user_id', '==', userId)) : undefined,
          changes.endSessions ? tx.get(sessions.where('user_id', '==', userId)) : undefined,
        ]);
        for (const doc of userSessions?.docs ?? []) tx.delete(doc.ref);
        for (const doc of userLogins?.docs ?? [])
          if (['credential', 'google'].includes(doc.get('provider_id') as string)) tx.delete(doc.ref);
        if (changes.logins) createLogins(tx, userId, changes.logins, at, at);
        tx.update(userRef(userId), {
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.emailVerified !== undefined && { email_verified: changes.emailVerified }),
          updated_at: at,
        });
      }),

    insertImported: (account, imported, now) =>
      // As an invitation's user: the address is looked up in the same transaction as the create
      // (firestore-layout.md, "Unique fields").
      atomically(ctx, async ({ tx }) => {
        if (!(await tx.get(users.where('email', '==', account.email).limit(1))).empty)
          throw new Error(`users.email must be unique: "${account.email}" is taken`);
        const createdAt = Timestamp.fromDate(new Date(account.createdAt));
        tx.create(userRef(account.id), {
          name: account.name,
          email: account.email,
          email_verified: account.emailVerified,
          image: account.image,
          role: 'student',
          created_at: createdAt,
          updated_at: Timestamp.fromDate(now),
          tutor_categories: [],
        });
        createLogins(tx, account.id, imported, createdAt, Timestamp.fromDate(now));
      }),

    handOverToImported: (userId, old, imported, now) =>
      atomically(ctx, async ({ tx }) => {
        const [userLogins, userSessions] = await Promise.all([
          tx.get(logins.where('user_id', '==', userId)),
          tx.get(sessions.where('user_id', '==', userId)),
        ]);
        for (const doc of [...userLogins.docs, ...userSessions.docs]) tx.delete(doc.ref);
        const at = Timestamp.fromDate(now);
        tx.update(userRef(userId), { name: old.name, email_verified: old.emailVerified, updated_at: at });
        createLogins(tx, userId, imported, at, at);
      }),

    async lockAdmins() {
      // The guard document is read here and written by every change of roles (setRole): two changes that
      // both read it and both write it cannot both commit, so the later runs again and counts anew, as SQL's
      // lock makes it wait. Meaningful inside a transaction, as on SQL.
      const [, admins] = await Promise.all([read(ctx, adminsGuard), query(ctx, users.where('role', '==', 'admin'))]);
      return admins.size;
    },

    setRole: (userId, role, categories, now) =>
      writeUser(
        userId,
        { role, tutor_categories: [...new Set(categories)].sort(compare), updated_at: Timestamp.fromDate(now) },
        true,
      ),

    rename: (userId, name, now) => writeUser(userId, { name, updated_at: Timestamp.fromDate(now) }, false),

    async delete(userId) {
      // No cascades here: the sessions, logins and reset links (verifications holding the user id) go with it.
      await deleteFound(
        ctx,
        sessions.where('user_id', '==', userId),
        logins.where('user_id', '==', userId),
        verifications.where('value', '==', userId),
      );
      if (ctx.tx) ctx.tx.delete(userRef(userId));
      else await userRef(userId).delete();
    },

    async findSignedIn(userId) {
      // The hot path: one document read, the categories on it.
      const doc = await findUser(userId);
      return doc && toMe(userId, doc);
    },

    async findSignedInBySession(token) {
      // better-auth's adapter keeps a session under its id, so the token is a query (an equality on one field,
      // which Firestore's automatic index answers), then the user by key.
      const found = await query(ctx, sessions.where('token', '==', token).limit(1));
      const session = found.docs[0]?.data();
      if (!session) return undefined;
      const userId = session.user_id as string;
      const doc = await findUser(userId);
      return doc && { me: toMe(userId, doc), expiresAt: (session.expires_at as Timestamp).toDate() };
    },
  };
}
