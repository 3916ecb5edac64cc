import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Me } from '../../common/session.ts';
import { accessChanged, type BusMessage } from '../events/events.ts';
import { removeStaff } from '../modules/staff/staff.usecases.ts';
import { runCli, startProcessBeside } from '../test/main-process.ts';
import {
  withCookiesOf,
  createVerifiedUser,
  expectApiError,
  logIn,
  makeStaff,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
  waitFor,
  sessionCookieName,
} from '../test/harness.ts';
import { createSessionCache, type SessionCacheOptions, type SignedIn } from './session-cache.ts';

/**
 * The sessions a server keeps in memory (docs/decisions/0032): every way a session or a permission ends counts
 * from the next request on, in this process and in every other.
 */

const signedIn = (id: string, name = 'Thandi'): SignedIn => ({
  me: { id, name, email: `${id}@example.com`, emailVerified: true, role: 'student', categories: [] } satisfies Me,
  expiresAt: new Date(Date.now() + 60_000),
});

/** A cache with a counting loader: `reads(token)` says how many times the store was asked for `token`. */
function cacheUnderTest(options: Partial<SessionCacheOptions> = {}) {
  let elsewhere = 0;
  let hearsAll = true;
  let clock = 0;
  const reads = new Map<string, number>();
  const stored = new Map<string, SignedIn>();
  const cache = createSessionCache({
    writesElsewhere: () => elsewhere,
    busHearsAll: () => hearsAll,
    now: () => clock,
    ...options,
  });
  const read = (token: string) =>
    cache.read(token, async () => {
      reads.set(token, (reads.get(token) ?? 0) + 1);
      return stored.get(token);
    });
  return {
    cache,
    stored,
    read,
    reads: (token: string) => reads.get(token) ?? 0,
    writeElsewhere: () => elsewhere++,
    setHearsAll: (value: boolean) => (hearsAll = value),
    advance: (ms: number) => (clock += ms),
  };
}

describe('the session cache', () => {
  test('a session read once is answered from memory until a notice names its user', async () => {
    const t = cacheUnderTest();
    t.stored.set('a1', signedIn('alice'));
    t.stored.set('a2', signedIn('alice'));
    t.stored.set('b1', signedIn('bongani'));
    for (const token of ['a1', 'a2', 'b1', 'a1', 'a2', 'b1']) await t.read(token);
    expect([t.reads('a1'), t.reads('a2'), t.reads('b1')]).toEqual([1, 1, 1]);

    t.cache.hear(accessChanged(['alice']));
    for (const token of ['a1', 'a2', 'b1']) await t.read(token);
    expect([t.reads('a1'), t.reads('a2'), t.reads('b1')]).toEqual([2, 2, 1]);

    // A new name (the `me` notice renameMe publishes); a notice of another table changes nothing.
    t.cache.onBusMessage({ type: 'notice', event: { table: 'me', ids: ['bongani'], audience: {}, id: 'e1' } });
    t.cache.onBusMessage({ type: 'notice', event: { table: 'bookings', ids: ['alice'], audience: {}, id: 'e2' } });
    for (const token of ['a1', 'b1']) await t.read(token);
    expect([t.reads('a1'), t.reads('b1')]).toEqual([2, 2]);
  });

  test('a session that is not found is not kept: the next read asks again', async () => {
    const t = cacheUnderTest();
    expect(await t.read('nobody')).toBeUndefined();
    t.stored.set('nobody', signedIn('late'));
    expect(await t.read('nobody')).toMatchObject({ me: { id: 'late' } });
    expect(t.reads('nobody')).toBe(2);
  });

  test('everything is read again after a resync, a write by another process, or while the bus hears not all', async () => {
    const t = cacheUnderTest();
    t.stored.set('a', signedIn('alice'));
    await t.read('a');
    t.cache.onBusMessage({ type: 'resync' } satisfies BusMessage);
    await t.read('a');
    expect(t.reads('a')).toBe(2);

    t.writeElsewhere();
    await t.read('a');
    await t.read('a');
    expect(t.reads('a')).toBe(3);

    // PostgreSQL's LISTEN connection down: nothing is answered from memory or kept until it is back.
    t.setHearsAll(false);
    await t.read('a');
    await t.read('a');
    expect(t.reads('a')).toBe(5);
    t.setHearsAll(true);
    await t.read('a');
    await t.read('a');
    expect(t.reads('a')).toBe(6);
  });

  test('a read under way when its user’s access changes is not kept', async () => {
    let release = () => {};
    const cache = createSessionCache({ writesElsewhere: () => 0, busHearsAll: () => true });
    let reads = 0;
    const load = () => {
      reads++;
      return new Promise<SignedIn>((resolve) => (release = () => resolve(signedIn('alice'))));
    };
    const reading = cache.read('a', load);
    // The role changes after the read began: what it returns may be the old one.
    cache.hear(accessChanged(['alice']));
    release();
    await reading;
    const again = cache.read('a', load);
    release();
    await again;
    expect(reads).toBe(2);
  });

  test('a session is read again after the maximum age, and the oldest goes first when the cache is full', async () => {
    const t = cacheUnderTest({ maxAgeMs: 1000, maxSessions: 2 });
    for (const token of ['a', 'b', 'c']) t.stored.set(token, signedIn(token));
    await t.read('a');
    t.advance(999);
    await t.read('a');
    expect(t.reads('a')).toBe(1);
    t.advance(1);
    await t.read('a');
    expect(t.reads('a')).toBe(2);

    await t.read('b');
    await t.read('c');
    await t.read('b');
    await t.read('c');
    expect([t.reads('b'), t.reads('c')]).toEqual([1, 1]);
    // `a`, kept first, made room for `c`.
    await t.read('a');
    expect(t.reads('a')).toBe(3);
  });

  test('forgetting one session leaves the user’s others', async () => {
    const t = cacheUnderTest();
    t.stored.set('a1', signedIn('alice'));
    t.stored.set('a2', signedIn('alice'));
    await t.read('a1');
    await t.read('a2');
    t.cache.forgetSession('a1');
    await t.read('a1');
    await t.read('a2');
    expect([t.reads('a1'), t.reads('a2')]).toEqual([2, 1]);
  });
});

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** `npm run cli -- <args>` as its own process, on `target`'s data. */
const cli = (target: TestServer, args: string[]) => runCli(args, target.envVars);

const roleOf = async (client: TestClient) => ((await client.get('/api/me')).body as Me).role;

/** The store's copy of the user's sessions, emptied behind the server's back: no notice tells anyone. */
async function endSessionsSilently(userId: string) {
  await server.services.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

describe('a server keeps sessions, and drops them the moment they change', () => {
  test('a signed-in read is answered from memory: a session removed without a notice is still seen', async () => {
    const student = await createVerifiedUser(server);
    const client = await logIn(server, student);
    expect((await client.get('/api/me')).status).toBe(200);
    await endSessionsSilently(student.id);
    // Proof that the reads below are answered from memory, so that what they show is the notices' doing.
    expect((await client.get('/api/me')).status).toBe(200);
    server.services.deps.events.publish(accessChanged([student.id]));
    expectApiError(await client.get('/api/me'), 401, 'auth.unauthenticated');
  });

  test('a session is kept once, by its cookie: other cookies varied or padded beside it make no new entry', async () => {
    const student = await createVerifiedUser(server);
    const client = await logIn(server, student);
    expect((await client.get('/api/me')).status).toBe(200);
    await endSessionsSilently(student.id);
    // Each of these Cookie headers is new, and the store no longer has the session: what answers is the one copy
    // kept, which a flood of such headers would otherwise have pushed everyone else's out to make room for.
    for (const extra of ['a', 'b', crypto.randomUUID(), 'x'.repeat(1100)]) {
      const varied = withCookiesOf(client, server.url);
      varied.cookies.set('extra', extra);
      expect((await varied.get('/api/me')).status, extra.slice(0, 40)).toBe(200);
    }
    server.services.deps.events.publish(accessChanged([student.id]));
    expectApiError(await client.get('/api/me'), 401, 'auth.unauthenticated');
  });

  test('a session cookie with a wrong signature is a visitor, and is never kept', async () => {
    const student = await createVerifiedUser(server);
    const client = await logIn(server, student);
    const [name, value] = [...client.cookies].find(([cookie]) => cookie === sessionCookieName)!;
    const token = decodeURIComponent(value).split('.')[0]!;
    const forged = withCookiesOf(client, server.url);
    forged.cookies.set(name, encodeURIComponent(`${token}.${'A'.repeat(43)}=`));
    for (let i = 0; i < 2; i++) expectApiError(await forged.get('/api/me'), 401, 'auth.unauthenticated');
    expect((await client.get('/api/me')).status).toBe(200);
  });

  test('signing out, and a changed password, end the sessions at once', async () => {
    const student = await createVerifiedUser(server);
    const [laptop, phone, tablet] = await Promise.all([
      logIn(server, student),
      logIn(server, student),
      logIn(server, student),
    ]);
    for (const client of [laptop, phone, tablet]) expect((await client.get('/api/me')).status).toBe(200);

    const stale = withCookiesOf(tablet, server.url);
    expect((await tablet.post('/api/auth/sign-out', {})).status).toBe(200);
    expectApiError(await stale.get('/api/me'), 401, 'auth.unauthenticated');
    expect((await phone.get('/api/me')).status).toBe(200);

    const changed = await laptop.post('/api/auth/change-password', {
      currentPassword: student.password,
      newPassword: 'a changed passphrase',
    });
    expect(changed.status, changed.text).toBe(200);
    expectApiError(await phone.get('/api/me'), 401, 'auth.unauthenticated');
    expect((await laptop.get('/api/me')).status).toBe(200);
  });

  test('a role, tutor categories and a name count from the next request on', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    expect(await roleOf(tutor.client)).toBe('tutor');
    await makeStaff(server, tutor.email, 'tutor', ['Statistics']);
    expect((await tutor.client.get('/api/me')).body.categories).toEqual(['Statistics']);

    await removeStaff(server.services.deps, tutor.email);
    expect(await roleOf(tutor.client)).toBe('student');

    await makeStaff(server, tutor.email, 'admin');
    expect(await roleOf(tutor.client)).toBe('admin');

    expect((await tutor.client.put('/api/me/name', { name: 'Lerato Khumalo' })).status).toBe(200);
    expect((await tutor.client.get('/api/me')).body.name).toBe('Lerato Khumalo');
  });

  test('a deleted account is signed out everywhere at once', async () => {
    const student = await createVerifiedUser(server);
    const [laptop, phone] = await Promise.all([logIn(server, student), logIn(server, student)]);
    for (const client of [laptop, phone]) expect((await client.get('/api/me')).status).toBe(200);
    expect((await laptop.delete('/api/me')).status).toBe(200);
    expectApiError(await phone.get('/api/me'), 401, 'auth.unauthenticated');
  });
});

// eslint-disable-next-line no-restricted-properties -- a test setting, as in harness.ts
const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(postgresUrl)('on SQLite, a process without the bus (the CLI)', () => {
  test('`staff remove` in another process counts from the next request on: another connection wrote', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    expect(await roleOf(tutor.client)).toBe('tutor');
    const removed = await cli(server, ['staff', 'remove', tutor.email]);
    expect(removed.stdout.trim(), removed.stderr).toBe(`${tutor.email} is now a student.`);
    expect(await roleOf(tutor.client)).toBe('student');
  });
});

describe.runIf(postgresUrl)('two server processes on PostgreSQL', () => {
  let second: Awaited<ReturnType<typeof startProcessBeside>>;

  beforeAll(async () => {
    second = await startProcessBeside(server);
  });
  afterAll(async () => second?.stop());

  test('a tutor removed by the CLI loses access in every process at once', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const there = withCookiesOf(tutor.client, second.url);
    expect(await roleOf(there)).toBe('tutor');
    expect(await roleOf(there)).toBe('tutor');
    const removed = await cli(server, ['staff', 'remove', tutor.email]);
    expect(removed.stdout.trim(), removed.stderr).toBe(`${tutor.email} is now a student.`);
    // No wait: the CLI's notice reached both servers through LISTEN/NOTIFY before it exited.
    expect(await roleOf(there)).toBe('student');
    expect(await roleOf(tutor.client)).toBe('student');
  });

  test('a tutor removed in one server process loses access in the other at its next request', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const there = withCookiesOf(tutor.client, second.url);
    expect(await roleOf(there)).toBe('tutor');
    // No wait: removeStaff returns once every process acted on its notice.
    await removeStaff(server.services.deps, tutor.email);
    expect(await roleOf(there)).toBe('student');
  });

  test('while a process cannot hear every notice (its LISTEN connection cut), it reads every session afresh', async () => {
    const student = await createVerifiedUser(server);
    const client = await logIn(server, student);
    expect((await client.get('/api/me')).status).toBe(200);
    const admin = new pg.Client({ connectionString: server.envVars.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      const bus = server.services.bus;
      await waitFor(async () => bus.hearsAll?.() === false, 'the bus to notice the cut');
      // A notice sent now would be lost: a session ended meanwhile must not be answered from memory.
      await endSessionsSilently(student.id);
      expectApiError(await client.get('/api/me'), 401, 'auth.unauthenticated');
      await waitFor(async () => bus.hearsAll?.() === true, 'the bus to listen again', 15_000);
    } finally {
      await admin.end();
    }
  });
});

describe.runIf(postgresUrl)('on PostgreSQL, what ends a session or takes access away', () => {
  test('counts in every other process from the next request on: its answer waits until each has acted on it', async () => {
    // A fresh pair: each one's first notice goes out on a connection still to be opened, the slowest case.
    const here = await startTestServer({ smtpUrl: smtp.url });
    const there = await startProcessBeside(here);
    try {
      // Deleting the account there (withTransaction's notice), and reading at once here with the same cookie.
      const student = await createVerifiedUser(here);
      const client = await logIn({ url: there.url }, student);
      const elsewhere = withCookiesOf(client, here.url);
      expect((await elsewhere.get('/api/me')).status).toBe(200);
      expect((await client.delete('/api/me')).status).toBe(200);
      expectApiError(await elsewhere.get('/api/me'), 401, 'auth.unauthenticated');

      // Signing out here (better-auth's hook), over and over, and reading at once there.
      for (let i = 0; i < 10; i++) {
        const { client } = await signInAs(here, 'student');
        const stolen = withCookiesOf(client, there.url);
        expect((await stolen.get('/api/me')).status).toBe(200);
        expect((await client.post('/api/auth/sign-out', {})).status).toBe(200);
        expectApiError(await stolen.get('/api/me'), 401, 'auth.unauthenticated');
      }
    } finally {
      await there.stop();
      await here.close();
    }
  });
});
