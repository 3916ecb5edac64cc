import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../db/create-db.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../test/storage-engines.ts';
import { createAccountsFirestoreRepository } from './accounts.firestore.ts';
import type { AccountsRepository } from './accounts.storage.ts';
import { deadline } from '../test/deadline.ts';

/**
 * The accounts' repository contract, the same cases on SQL and on Firestore's emulator; races run for real.
 * better-auth's own records (logins, sessions, reset links) are written here as its adapter writes them.
 */
interface Engine {
  repo: AccountsRepository;
  transaction<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T>;
  seed: {
    login(userId: string, providerId: string, at: Date): Promise<void>;
    session(userId: string, at: Date, ipAddress: string | null): Promise<void>;
    /** A verification holding the user id: `reset-password:<token>` is a reset link. */
    verification(userId: string, identifier: string): Promise<void>;
  };
  /** What is left of the user's logins, sessions and verifications (their identifiers). */
  leftOf(userId: string): Promise<{ logins: number; sessions: number; verifications: string[] }>;
  close(): Promise<void>;
}

const t0 = new Date('2026-11-24T10:00:00.000Z');
const later = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

function record(userId: string, at: Date) {
  return { id: crypto.randomUUID(), user_id: userId, created_at: at, updated_at: at };
}

async function openSql(): Promise<Engine> {
  const { db, storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.accounts,
    transaction: (work) => storage.transaction((repos) => work(repos.accounts)),
    seed: {
      login: (userId, providerId, at) =>
        insert(db, 'accounts', { ...record(userId, at), account_id: userId, provider_id: providerId }),
      session: (userId, at, ipAddress) =>
        insert(db, 'sessions', {
          ...record(userId, at),
          token: crypto.randomUUID(),
          expires_at: later(60 * 24),
          ip_address: ipAddress,
          user_agent: 'Firefox',
        }),
      verification: (userId, identifier) =>
        insert(db, 'verifications', {
          id: crypto.randomUUID(),
          identifier,
          value: userId,
          expires_at: later(60),
          created_at: t0,
          updated_at: t0,
        }),
    },
    async leftOf(userId) {
      const count = async (table: 'accounts' | 'sessions') =>
        (await db.selectFrom(table).select('id').where('user_id', '=', userId).execute()).length;
      const links = await db.selectFrom('verifications').select('identifier').where('value', '=', userId).execute();
      return {
        logins: await count('accounts'),
        sessions: await count('sessions'),
        verifications: links.map((l) => l.identifier).sort(),
      };
    },
    close,
  };
}

async function insert(db: Db, table: 'accounts' | 'sessions' | 'verifications', values: Record<string, unknown>) {
  // better-auth's records with only the columns these cases need (the others are nullable).
  await db
    .insertInto(table)
    .values(values as never)
    .execute();
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('accounts');
  const write = (collection: string, values: Record<string, unknown>) => {
    const { id, ...fields } = values;
    return db
      .collection(collection)
      .doc(id as string)
      .create(fields)
      .then(() => undefined);
  };
  return {
    repo: createAccountsFirestoreRepository({ db }),
    transaction: (work) => db.runTransaction((tx) => work(createAccountsFirestoreRepository({ db, tx }))),
    seed: {
      login: (userId, providerId, at) =>
        write('accounts', { ...record(userId, at), account_id: userId, provider_id: providerId, password: null }),
      session: (userId, at, ipAddress) =>
        write('sessions', {
          ...record(userId, at),
          token: crypto.randomUUID(),
          expires_at: later(60 * 24),
          ip_address: ipAddress,
          user_agent: 'Firefox',
        }),
      verification: (userId, identifier) =>
        write('verifications', {
          id: crypto.randomUUID(),
          identifier,
          value: userId,
          expires_at: later(60),
          created_at: t0,
          updated_at: t0,
        }),
    },
    leftOf: (userId) => leftOnFirestore(db, userId),
    close,
  };
}

async function leftOnFirestore(db: Firestore, userId: string) {
  const of = (collection: string, field: string) => db.collection(collection).where(field, '==', userId).get();
  const [logins, sessions, links] = await Promise.all([
    of('accounts', 'user_id'),
    of('sessions', 'user_id'),
    of('verifications', 'value'),
  ]);
  return {
    logins: logins.size,
    sessions: sessions.size,
    verifications: links.docs.map((d) => d.get('identifier') as string).sort(),
  };
}

describe.each(contractEngines(openSql, openFirestore))('the accounts’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  }, deadline(90_000));
  afterAll(() => engine.close());

  /** An invited account, with a unique address unless one is given. */
  async function invite(role: 'student' | 'tutor' | 'admin' = 'student', email?: string) {
    const id = crypto.randomUUID();
    const user = { id, name: `Person ${id.slice(0, 4)}`, email: email ?? `${id}@example.com`, role };
    await engine.repo.insertInvited(user, t0);
    return user;
  }

  test('an invited account is read back by id and by address, verified, as a session names it', async () => {
    const user = await invite('student');
    const account = {
      ...user,
      emailVerified: true,
      image: null,
      createdAt: t0.toISOString(),
      updatedAt: t0.toISOString(),
    };
    expect(await engine.repo.findById(user.id)).toEqual(account);
    expect(await engine.repo.findByEmail(user.email)).toEqual(account);
    expect(await engine.repo.findSignedIn(user.id)).toEqual({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: true,
      role: 'student',
      categories: [],
    });
    expect(await engine.repo.describe([user.id, crypto.randomUUID(), user.id])).toEqual(
      new Map([[user.id, { name: user.name, role: 'student' }]]),
    );
    expect(await engine.repo.findById(crypto.randomUUID())).toBeUndefined();
    expect(await engine.repo.findByEmail('nobody@example.com')).toBeUndefined();
    expect(await engine.repo.findSignedIn(crypto.randomUUID())).toBeUndefined();
    expect(await engine.repo.describe([])).toEqual(new Map());
  });

  test('an address is one account’s: of five invitations with it at once, one is stored', async () => {
    const email = `race-${crypto.randomUUID()}@example.com`;
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => invite('student', email)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await expect(invite('student', email)).rejects.toThrow();
    const stored = await engine.repo.findByEmail(email);
    const winner = results.find((r) => r.status === 'fulfilled');
    expect(stored?.id).toBe((winner as PromiseFulfilledResult<{ id: string }>).value.id);
  });

  test('roles and tutor categories: who hears of a category, the staff list, the session', async () => {
    // An address that sorts first keeps this case apart from the others' staff.
    const admin = await invite('student', `a-admin-${crypto.randomUUID()}@example.com`);
    const maths = await invite('student', `b-maths-${crypto.randomUUID()}@example.com`);
    const stats = await invite('student', `c-stats-${crypto.randomUUID()}@example.com`);
    await engine.repo.setRole(admin.id, 'admin', [], later(1));
    await engine.repo.setRole(maths.id, 'tutor', ['Statistics', 'Mathematics'], later(1));
    await engine.repo.setRole(stats.id, 'tutor', ['Statistics'], later(1));
    expect(await engine.repo.categoriesOf(maths.id)).toEqual(['Mathematics', 'Statistics']);
    expect((await engine.repo.findSignedIn(maths.id))?.categories).toEqual(['Mathematics', 'Statistics']);
    expect((await engine.repo.findById(maths.id))?.updatedAt).toBe(later(1).toISOString());
    const ids = (list: { id: string }[]) =>
      list.map((s) => s.id).filter((id) => [admin, maths, stats].some((u) => u.id === id));
    expect(ids(await engine.repo.staffOf('Mathematics'))).toEqual([admin.id, maths.id]);
    expect(ids(await engine.repo.staffOf('Statistics'))).toEqual([admin.id, maths.id, stats.id]);
    expect(ids(await engine.repo.staffOf('Computer Science'))).toEqual([admin.id]);
    expect(ids(await engine.repo.staffOf(null))).toEqual([admin.id]);
    expect((await engine.repo.staffOf('Mathematics'))[0]).toEqual({
      id: admin.id,
      name: admin.name,
      email: admin.email,
      role: 'admin',
    });
    const staff = (await engine.repo.listStaff()).filter((s) => [admin, maths, stats].some((u) => u.email === s.email));
    expect(staff).toEqual([
      { email: admin.email, name: admin.name, role: 'admin', categories: [] },
      { email: maths.email, name: maths.name, role: 'tutor', categories: ['Mathematics', 'Statistics'] },
      { email: stats.email, name: stats.name, role: 'tutor', categories: ['Statistics'] },
    ]);
    // A student again: the categories go with the role.
    await engine.repo.setRole(maths.id, 'student', [], later(2));
    expect(await engine.repo.categoriesOf(maths.id)).toEqual([]);
    expect(ids(await engine.repo.staffOf('Mathematics'))).toEqual([admin.id]);
    expect((await engine.repo.listStaff()).some((s) => s.email === maths.email)).toBe(false);
  });

  test('an invitation as the staff command makes it: read, create and give the role in one transaction', async () => {
    const email = `invited-${crypto.randomUUID()}@example.com`;
    const id = crypto.randomUUID();
    await engine.transaction(async (repo) => {
      await repo.lockAdmins();
      expect(await repo.findByEmail(email)).toBeUndefined();
      await repo.insertInvited({ id, name: 'Naledi', email, role: 'student' }, t0);
      await repo.setRole(id, 'tutor', ['Mathematics'], t0);
    });
    expect(await engine.repo.findSignedIn(id)).toMatchObject({ role: 'tutor', categories: ['Mathematics'] });
  });

  test('logins and sessions are listed oldest first, without secrets', async () => {
    const user = await invite();
    await engine.seed.login(user.id, 'google', later(5));
    await engine.seed.login(user.id, 'credential', later(1));
    await engine.seed.session(user.id, later(3), null);
    await engine.seed.session(user.id, later(2), '10.0.0.1');
    expect(await engine.repo.loginMethods(user.id)).toEqual([
      { providerId: 'credential', createdAt: later(1).toISOString(), updatedAt: later(1).toISOString() },
      { providerId: 'google', createdAt: later(5).toISOString(), updatedAt: later(5).toISOString() },
    ]);
    expect(await engine.repo.sessionsOf(user.id)).toEqual([
      {
        createdAt: later(2).toISOString(),
        expiresAt: later(60 * 24).toISOString(),
        ipAddress: '10.0.0.1',
        userAgent: 'Firefox',
      },
      {
        createdAt: later(3).toISOString(),
        expiresAt: later(60 * 24).toISOString(),
        ipAddress: null,
        userAgent: 'Firefox',
      },
    ]);
    expect(await engine.repo.loginMethods(crypto.randomUUID())).toEqual([]);
  });

  test('a reclaimed account loses its password, sessions and reset links, and counts as verified', async () => {
    const user = await invite();
    const other = await invite();
    for (const u of [user, other]) {
      await engine.seed.login(u.id, 'credential', t0);
      await engine.seed.session(u.id, t0, null);
      await engine.seed.verification(u.id, `reset-password:${crypto.randomUUID()}`);
    }
    await engine.seed.verification(user.id, 'something-else');
    await engine.transaction((repo) => repo.reclaimUnproven(user.id, 'New Name', later(9)));
    expect(await engine.leftOf(user.id)).toEqual({ logins: 0, sessions: 0, verifications: ['something-else'] });
    expect(await engine.repo.findById(user.id)).toMatchObject({
      name: 'New Name',
      emailVerified: true,
      updatedAt: later(9).toISOString(),
    });
    expect(await engine.leftOf(other.id)).toMatchObject({ logins: 1, sessions: 1 });
  });

  test('an imported account keeps its id, time, flag and logins; one handed over to it loses its sign-up', async () => {
    const id = crypto.randomUUID();
    const old = { id, name: 'Thandi Old', email: `${id}@example.com`, emailVerified: false, image: 'https://x/a.png' };
    const hash = `$firebase-scrypt$14,8$Bw==$key$salt$${id}`;
    await engine.transaction((repo) =>
      repo.insertImported(
        { ...old, createdAt: t0.toISOString() },
        [
          { providerId: 'credential', accountId: id, passwordHash: hash },
          { providerId: 'google', accountId: `g${id}`, passwordHash: null },
        ],
        later(5),
      ),
    );
    expect(await engine.repo.findByEmail(old.email)).toEqual({
      ...old,
      role: 'student',
      createdAt: t0.toISOString(),
      updatedAt: later(5).toISOString(),
    });
    expect(await engine.repo.passwordHashOf(id)).toBe(hash);
    expect((await engine.repo.loginMethods(id)).map((l) => l.providerId).sort()).toEqual(['credential', 'google']);

    // Someone else's unverified sign-up with an address goes to the old owner: its login and session go.
    const squatter = await invite();
    await engine.seed.login(squatter.id, 'credential', t0);
    await engine.seed.session(squatter.id, t0, null);
    expect(await engine.repo.passwordHashOf(squatter.id)).toBeNull(); // seeded without a password
    await engine.transaction((repo) =>
      repo.handOverToImported(
        squatter.id,
        { name: 'Sipho Old', emailVerified: false },
        [{ providerId: 'credential', accountId: squatter.id, passwordHash: hash }],
        later(9),
      ),
    );
    expect(await engine.leftOf(squatter.id)).toMatchObject({ logins: 1, sessions: 0 });
    expect(await engine.repo.passwordHashOf(squatter.id)).toBe(hash);
    expect(await engine.repo.findById(squatter.id)).toMatchObject({
      name: 'Sipho Old',
      emailVerified: false,
      updatedAt: later(9).toISOString(),
    });
    expect(await engine.repo.passwordHashOf(crypto.randomUUID())).toBeNull();
  });

  test('imported password logins still holding their Firebase hash are counted; Google and our own hashes are not', async () => {
    const before = await engine.repo.countImportedPasswordsUnused();
    const importOne = (
      logins: (id: string) => { providerId: 'credential' | 'google'; passwordHash: string | null }[],
    ) => {
      const id = crypto.randomUUID();
      return engine.transaction((repo) =>
        repo.insertImported(
          {
            id,
            name: 'Old User',
            email: `${id}@example.com`,
            emailVerified: true,
            image: null,
            createdAt: t0.toISOString(),
          },
          logins(id).map((login) => ({ ...login, accountId: login.providerId === 'google' ? `g${id}` : id })),
          t0,
        ),
      );
    };
    await importOne((id) => [{ providerId: 'credential', passwordHash: `$firebase-scrypt$14,8$Bw==$key$salt$${id}` }]);
    await importOne((id) => [
      { providerId: 'credential', passwordHash: `$firebase-scrypt$14,8$Bw==$key$salt$${id}` },
      { providerId: 'google', passwordHash: null },
    ]);
    await importOne(() => [{ providerId: 'google', passwordHash: null }]);
    // better-auth's own hash (hex salt:key), as after a first login: not counted.
    await importOne(() => [{ providerId: 'credential', passwordHash: 'a1b2c3:d4e5f6' }]);
    expect(await engine.repo.countImportedPasswordsUnused()).toBe(before + 2);
  });

  test('an imported account brought up to date: name, flag, logins replaced, signed out when disabled', async () => {
    const id = crypto.randomUUID();
    const email = `${id}@example.com`;
    const hash = `$firebase-scrypt$14,8$Bw==$key$salt$${id}`;
    await engine.transaction((repo) =>
      repo.insertImported(
        { id, name: 'Thandi Old', email, emailVerified: false, image: null, createdAt: t0.toISOString() },
        [{ providerId: 'credential', accountId: id, passwordHash: hash }],
        t0,
      ),
    );
    expect(await engine.repo.googleIdOf(id)).toBeNull();
    await engine.seed.session(id, t0, null);
    // Another way in that is not the old site's (none is made here today, but it would not be its to replace).
    await engine.seed.login(id, 'github', t0);

    // The old site renamed her, verified her address, and she changed her password and linked Google there.
    const newHash = `$firebase-scrypt$14,8$Bw==$key$salt2$${id}`;
    await engine.transaction((repo) =>
      repo.updateImported(
        id,
        {
          name: 'Thandi New',
          emailVerified: true,
          logins: [
            { providerId: 'credential', accountId: id, passwordHash: newHash },
            { providerId: 'google', accountId: `g${id}`, passwordHash: null },
          ],
        },
        later(5),
      ),
    );
    expect(await engine.repo.findById(id)).toMatchObject({
      name: 'Thandi New',
      emailVerified: true,
      updatedAt: later(5).toISOString(),
    });
    expect(await engine.repo.passwordHashOf(id)).toBe(newHash);
    expect(await engine.repo.googleIdOf(id)).toBe(`g${id}`);
    expect((await engine.repo.loginMethods(id)).map((l) => l.providerId).sort()).toEqual([
      'credential',
      'github',
      'google',
    ]);
    expect(await engine.leftOf(id)).toMatchObject({ sessions: 1 });

    // Only the name: the rest stays.
    await engine.transaction((repo) => repo.updateImported(id, { name: 'Thandi' }, later(6)));
    expect(await engine.repo.findById(id)).toMatchObject({ name: 'Thandi', emailVerified: true });
    expect(await engine.repo.passwordHashOf(id)).toBe(newHash);

    // Disabled there: no password or Google login left, and signed out.
    await engine.transaction((repo) => repo.updateImported(id, { logins: [], endSessions: true }, later(7)));
    expect(await engine.repo.passwordHashOf(id)).toBeNull();
    expect(await engine.repo.googleIdOf(id)).toBeNull();
    expect(await engine.leftOf(id)).toMatchObject({ logins: 1, sessions: 0 });
  });

  test('a renamed account keeps the rest; a deleted one goes with its sessions, logins and links', async () => {
    const user = await invite('student');
    const other = await invite('student');
    await engine.repo.setRole(user.id, 'tutor', ['Statistics'], t0);
    await engine.repo.rename(user.id, 'Renamed', later(4));
    expect(await engine.repo.findById(user.id)).toMatchObject({ name: 'Renamed', role: 'tutor', email: user.email });
    for (const u of [user, other]) {
      await engine.seed.login(u.id, 'credential', t0);
      await engine.seed.session(u.id, t0, null);
      await engine.seed.verification(u.id, `reset-password:${crypto.randomUUID()}`);
    }
    // As in the account's deletion: after other writes of the same transaction (Firestore allows no read there).
    await engine.transaction(async (repo) => {
      await repo.rename(other.id, 'Still here', later(5));
      await repo.delete(user.id);
    });
    expect(await engine.repo.findById(user.id)).toBeUndefined();
    expect(await engine.repo.findByEmail(user.email)).toBeUndefined();
    expect(await engine.leftOf(user.id)).toEqual({ logins: 0, sessions: 0, verifications: [] });
    expect(await engine.leftOf(other.id)).toMatchObject({ logins: 1, sessions: 1 });
    // The address is free again.
    await invite('student', user.email);
  });

  test('two admins removing each other at once: one succeeds, the other finds the last admin', async () => {
    // A store of its own: the count is of every admin.
    const fresh = await open();
    try {
      const ids = [crypto.randomUUID(), crypto.randomUUID()];
      for (const id of ids) {
        await fresh.repo.insertInvited({ id, name: 'Admin', email: `${id}@example.com`, role: 'student' }, t0);
        await fresh.repo.setRole(id, 'admin', [], t0);
      }
      const removals = ids.map((_, i) =>
        fresh.transaction(async (repo) => {
          const admins = await repo.lockAdmins();
          const other = await repo.findById(ids[1 - i]!);
          if (admins <= 1) throw new Error('the only admin stays admin');
          await repo.setRole(other!.id, 'student', [], later(1));
        }),
      );
      const results = await Promise.allSettled(removals);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({
        reason: { message: 'the only admin stays admin' },
      });
      expect(await fresh.repo.staffOf(null)).toHaveLength(1);
      expect(await fresh.repo.lockAdmins()).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
