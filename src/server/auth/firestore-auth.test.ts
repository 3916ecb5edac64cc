import { betterAuth } from 'better-auth';
import { Timestamp, type Firestore } from 'firebase-admin/firestore';
import { FirebaseScrypt } from 'firebase-scrypt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Mail } from '../deps.ts';
import { loadEnv } from '../env.ts';
import type { ChangeNotice } from '../events/events.ts';
import type { NewEmail } from '../mail/mail.repository.ts';
import { emulatorFirestore } from '../test/firestore-client.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import { firstLink, testPassword, uniqueEmail } from '../test/harness.ts';
import { authOptions, clientIpHeader, type Auth } from './auth.ts';
import { encodeFirebaseHash, type FirebaseHashConfig } from './firebase-password.ts';
import { firestoreAdapter } from './firestore-adapter.ts';
import { firestoreAuthStore } from './firestore-auth-store.ts';
import { deadline } from '../test/deadline.ts';

/**
 * better-auth as the product configures it (auth.ts `authOptions`), storing through firestoreAdapter and
 * firestoreAuthStore on Google's emulator, driven through better-auth's own request handler as the /api/auth
 * front drives it. The records are read back from Firestore itself. The mail outbox on Firestore is the mail
 * module's, not yet there: here an outbox that keeps what is queued stands in for it.
 */

let emulator: FirestoreEmulator;
let firestore: { db: Firestore; close(): Promise<void> };
// The same type as the SQL engines' createAuth gives: the server can hold either.
let auth: Auth;
const queued: (NewEmail & { at: number })[] = [];
const notices: ChangeNotice[] = [];
const publicUrl = 'http://localhost:3999';

function createFirestoreAuth(db: Firestore) {
  const outbox: Mail = {
    async enqueue(email) {
      queued.push({ ...email, at: Date.now() });
    },
    bind: () => outbox,
    wake() {},
  };
  const verificationSentSince = async (to: string, since: Date) =>
    queued.some((e) => e.kind === 'verification' && e.to === to && e.at > since.getTime());
  return betterAuth(
    authOptions({
      database: firestoreAdapter(db),
      store: firestoreAuthStore(db, { verificationSentSince }),
      env: loadEnv({ PUBLIC_URL: publicUrl, RATE_LIMIT: 'on' }),
      secret: 'firestore-auth-test-secret-of-32-characters',
      outbox,
      events: { publish: (notice) => notices.push(notice) },
      logger: { warn: () => undefined },
    }),
  );
}

beforeAll(async () => {
  emulator = await startFirestoreEmulator();
  firestore = emulatorFirestore(emulator.host, `auth-${crypto.randomUUID().slice(0, 8)}`);
  auth = createFirestoreAuth(firestore.db);
}, deadline(90_000));

afterAll(async () => {
  await firestore?.close();
  await emulator?.stop();
});

// ---------------------------------------------------------------------------------------------------------
// Requests as the /api/auth front passes them on

let nextIp = 1;
/** A client of its own address, so that the rate limiter counts each test apart. */
const newIp = () => `203.0.113.${nextIp++}`;

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  cookie?: string;
}

async function call(ip: string, path: string, body?: unknown, cookie?: string): Promise<Answer> {
  const headers: Record<string, string> = { origin: publicUrl, [clientIpHeader]: ip };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  const response = await auth.handler(
    new Request(`${publicUrl}/api/auth${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  const session = response.headers.getSetCookie().find((c) => c.startsWith('__session='));
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    cookie: session?.split(';')[0],
  };
}

const lastEmail = (to: string, kind: string) => {
  const email = queued.findLast((e) => e.to === to && e.kind === kind);
  if (!email) throw new Error(`No ${kind} e-mail to ${to}`);
  return email;
};

type Doc = Record<string, unknown> & { id: string };
const docsWhere = async (collection: string, field: string, value: unknown): Promise<Doc[]> =>
  (await firestore.db.collection(collection).where(field, '==', value).get()).docs.map((d) => ({
    ...d.data(),
    id: d.id,
  }));

const resetToken = (email: string) =>
  new URL(firstLink(lastEmail(email, 'password-reset').text)).pathname.split('/').pop();

// ---------------------------------------------------------------------------------------------------------

describe('accounts on Firestore', () => {
  test('sign-up, a refused login before verification, verification, login with the role, a reset that ends the other sessions', async () => {
    const ip = newIp();
    const email = uniqueEmail();

    const signUp = await call(ip, '/sign-up/email', { name: 'Thandi Mokoena', email, password: testPassword });
    expect(signUp.status).toBe(200);
    expect(signUp.cookie).toBeUndefined();
    const [user] = await docsWhere('users', 'email', email);
    // Stored under our column names, dates as Firestore timestamps, the id as the document's.
    expect(user).toMatchObject({ name: 'Thandi Mokoena', email, email_verified: false, role: 'student' });
    expect(user?.created_at).toBeInstanceOf(Timestamp);
    expect(user).not.toHaveProperty('emailVerified');
    const userId = user!.id;
    const [account] = await docsWhere('accounts', 'user_id', userId);
    expect(account).toMatchObject({ provider_id: 'credential', account_id: userId });
    expect(String(account?.password)).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);

    // Not before the address is proven: no session is stored.
    const early = await call(ip, '/sign-in/email', { email, password: testPassword });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect(await docsWhere('sessions', 'user_id', userId)).toEqual([]);

    // The link in the verification e-mail proves it (then the welcome e-mail, once).
    const link = new URL(firstLink(lastEmail(email, 'verification').text));
    expect(queued.filter((e) => e.to === email && e.kind === 'welcome')).toHaveLength(1);
    const verified = await call(ip, `/verify-email?token=${link.searchParams.get('token')}`);
    expect(verified.status).toBe(200);
    expect((await firestore.db.doc(`users/${userId}`).get()).get('email_verified')).toBe(true);

    const first = await call(ip, '/sign-in/email', { email, password: testPassword });
    expect(first.status).toBe(200);
    const session = await call(ip, '/get-session', undefined, first.cookie);
    expect(session.body).toMatchObject({ user: { id: userId, email, role: 'student', emailVerified: true } });
    const [stored] = await docsWhere('sessions', 'user_id', userId);
    expect(stored).toMatchObject({ ip_address: ip });
    expect(stored?.expires_at).toBeInstanceOf(Timestamp);

    // A second device, then a reset from the latest of two e-mailed links: both sessions end, and neither
    // link works again.
    const second = await call(newIp(), '/sign-in/email', { email, password: testPassword });
    expect(second.status).toBe(200);
    expect(await docsWhere('sessions', 'user_id', userId)).toHaveLength(2);
    const redirectTo = `${publicUrl}/reset-password`;
    expect((await call(ip, '/request-password-reset', { email, redirectTo })).status).toBe(200);
    const earlier = resetToken(email);
    expect((await call(ip, '/request-password-reset', { email, redirectTo })).status).toBe(200);
    const token = resetToken(email);
    expect(token).not.toBe(earlier);
    const noticesBefore = notices.length;
    const newPassword = 'a-new-password-for-firestore';
    expect((await call(ip, '/reset-password', { token, newPassword })).status).toBe(200);
    expect(await docsWhere('sessions', 'user_id', userId)).toEqual([]);
    expect((await call(ip, '/get-session', undefined, first.cookie)).body).toBeNull();
    expect((await call(ip, '/get-session', undefined, second.cookie)).body).toBeNull();
    // Every stream of the user hears that its sessions ended (databaseHooks.session.delete).
    expect(notices.slice(noticesBefore).flatMap((n) => n.ids)).toContain(userId);
    const resetLinks = (await docsWhere('verifications', 'value', userId)).filter((v) =>
      String(v.identifier).startsWith('reset-password:'),
    );
    expect(resetLinks).toEqual([]);
    expect((await call(ip, '/reset-password', { token, newPassword: 'yet-another-password' })).status).toBe(400);
    expect((await call(ip, '/reset-password', { token: earlier, newPassword: 'yet-another-password' })).status).toBe(
      400,
    );

    expect((await call(newIp(), '/sign-in/email', { email, password: testPassword })).status).toBe(401);
    expect((await call(newIp(), '/sign-in/email', { email, password: newPassword })).status).toBe(200);
  });

  test('a sign-up with a taken address answers as if new, and tells the owner by e-mail', async () => {
    const ip = newIp();
    const email = uniqueEmail();
    const body = { name: 'First Owner', email, password: testPassword };
    expect((await call(ip, '/sign-up/email', body)).status).toBe(200);
    const again = await call(ip, '/sign-up/email', { ...body, name: 'Someone Else' });
    expect(again.status).toBe(200);
    expect(lastEmail(email, 'account-exists').toName).toBe('First Owner');
    const users = await docsWhere('users', 'email', email);
    expect(users.map((u) => u.name)).toEqual(['First Owner']);
  });

  test('a reset proves the address of an account never verified', async () => {
    const ip = newIp();
    const email = uniqueEmail();
    expect((await call(ip, '/sign-up/email', { name: 'Lerato Khumalo', email, password: testPassword })).status).toBe(
      200,
    );
    const redirectTo = `${publicUrl}/reset-password`;
    expect((await call(ip, '/request-password-reset', { email, redirectTo })).status).toBe(200);
    const newPassword = 'chosen-from-the-reset-link';
    expect((await call(ip, '/reset-password', { token: resetToken(email), newPassword })).status).toBe(200);
    const [user] = await docsWhere('users', 'email', email);
    expect(user).toMatchObject({ email_verified: true });
    expect((await call(ip, '/sign-in/email', { email, password: newPassword })).status).toBe(200);
  });

  test('the rate limiter keeps its records in rate_limits: a sixth login in a minute is refused', async () => {
    const ip = newIp();
    const email = uniqueEmail();
    for (let i = 0; i < 5; i++)
      expect((await call(ip, '/sign-in/email', { email, password: 'not-the-password' })).status).toBe(401);
    const refused = await call(ip, '/sign-in/email', { email, password: 'not-the-password' });
    expect(refused.status).toBe(429);

    const records = await docsWhere('rate_limits', 'key', `${ip}|/sign-in/email`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ count: 5 });
    expect(Math.abs(Number(records[0]?.last_request) - Date.now())).toBeLessThan(60_000);
  });

  test('an account imported from Firebase logs in with its old password once, and its hash is replaced', async () => {
    const config: FirebaseHashConfig = {
      signerKey: Buffer.from(crypto.getRandomValues(new Uint8Array(64))).toString('base64'),
      saltSeparator: 'Bw==',
      rounds: 8,
      memCost: 14,
    };
    const salt = Buffer.from('firestore-salt').toString('base64');
    const oldPassword = 'the-old-firebase-password';
    const hash = await new FirebaseScrypt(config).hash(oldPassword, salt);
    const email = uniqueEmail();
    const userId = crypto.randomUUID();
    const now = new Date();
    const at = { created_at: now, updated_at: now };
    await firestore.db
      .doc(`users/${userId}`)
      .create({ name: 'Sipho Dlamini', email, email_verified: true, image: null, role: 'student', ...at });
    await firestore.db.doc(`accounts/${crypto.randomUUID()}`).create({
      user_id: userId,
      account_id: userId,
      provider_id: 'credential',
      password: encodeFirebaseHash(config, salt, hash),
      ...at,
    });

    expect((await call(newIp(), '/sign-in/email', { email, password: oldPassword })).status).toBe(200);
    const [account] = await docsWhere('accounts', 'user_id', userId);
    expect(String(account?.password)).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);
    expect((await call(newIp(), '/sign-in/email', { email, password: oldPassword })).status).toBe(200);
  });
});

describe('what Firestore has no constraint for, the adapter keeps', () => {
  const adapter = () => auth.$context.then((context) => context.adapter);

  test('of ten sign-ups with one address at once, one account is made', async () => {
    const db = await adapter();
    const email = uniqueEmail();
    const now = new Date();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.create({
          model: 'user',
          data: { name: `Racer ${i}`, email, emailVerified: false, createdAt: now, updatedAt: now },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await docsWhere('users', 'email', email)).toHaveLength(1);
  });

  test('of ten requests consuming one token at once, one gets it', async () => {
    const db = await adapter();
    const identifier = `race:${crypto.randomUUID()}`;
    const expiresAt = new Date(Date.now() + 60_000);
    await db.create({ model: 'verification', data: { identifier, value: 'once', expiresAt } });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        db.consumeOne({ model: 'verification', where: [{ field: 'identifier', value: identifier }] }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await docsWhere('verifications', 'identifier', identifier)).toEqual([]);
  });

  test('ten updates of one record at once (a page’s requests refreshing one session) all succeed', async () => {
    const db = await adapter();
    const now = new Date();
    const user = await db.create<{ id: string }>({
      model: 'user',
      data: { name: 'Busy', email: uniqueEmail(), emailVerified: true, createdAt: now, updatedAt: now },
    });
    const names = Array.from({ length: 10 }, (_, i) => `Busy ${i}`);
    const updated = await Promise.all(
      names.map((name) => db.update({ model: 'user', where: [{ field: 'id', value: user.id }], update: { name } })),
    );
    expect(updated.filter((u) => u === null)).toEqual([]);
    expect(names).toContain((await firestore.db.doc(`users/${user.id}`).get()).get('name'));
  });

  test('a record keeps the fields it was not given, as a SQL row keeps its columns: sorting and `= null` find it', async () => {
    const db = await adapter();
    const now = new Date();
    const email = uniqueEmail();
    await db.create({
      model: 'user',
      data: { name: 'No Picture', email, emailVerified: false, createdAt: now, updatedAt: now },
    });
    const everyone = await db.count({ model: 'user' });
    const sorted = await db.findMany({ model: 'user', sortBy: { field: 'image', direction: 'asc' }, limit: 10_000 });
    expect(sorted).toHaveLength(everyone);
    const withoutImage = await db.findMany<{ email: string }>({
      model: 'user',
      where: [{ field: 'image', value: null }],
    });
    expect(withoutImage.map((u) => u.email)).toContain(email);
  });
});

describe('a burst of requests', () => {
  test('ten logins of one account at once, from ten devices: ten sessions', async () => {
    const email = uniqueEmail();
    const signUp = await call(newIp(), '/sign-up/email', { name: 'Many Devices', email, password: testPassword });
    expect(signUp.status).toBe(200);
    const link = new URL(firstLink(lastEmail(email, 'verification').text));
    expect((await call(newIp(), `/verify-email?token=${link.searchParams.get('token')}`)).status).toBe(200);
    const logins = await Promise.all(
      Array.from({ length: 10 }, async () => call(newIp(), '/sign-in/email', { email, password: testPassword })),
    );
    expect(logins.map((l) => l.status)).toEqual(Array(10).fill(200));
    const [user] = await docsWhere('users', 'email', email);
    expect(await docsWhere('sessions', 'user_id', user!.id)).toHaveLength(10);
  });

  test('twenty logins at once from one address: each is refused or limited, none fails', async () => {
    const ip = newIp();
    const email = uniqueEmail();
    const statuses = await Promise.all(
      Array.from(
        { length: 20 },
        async () => (await call(ip, '/sign-in/email', { email, password: 'wrong-password' })).status,
      ),
    );
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // The budget is five a minute (auth.ts): exactly five get as far as checking the password.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  });
});
