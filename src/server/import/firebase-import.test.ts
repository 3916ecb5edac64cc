import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getFirestore, Timestamp, type CollectionReference, type Firestore } from 'firebase-admin/firestore';
import { FirebaseScrypt } from 'firebase-scrypt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FirebaseHashConfig } from '../auth/firebase-password.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import { runCli } from '../test/main-process.ts';
import {
  createClient,
  expectApiError,
  firstLink,
  logIn,
  logInWithLink,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import type { Storage } from '../storage/storage.ts';
import { parseAuthExport, parseHashConfig } from './firebase-auth-export.ts';
import { formatReport, importFirebase, importKinds } from './firebase-import.ts';
import { readFirestore } from './firestore-source.ts';
import { accessChanged } from '../events/events.ts';
import type { RenderApp } from '../http/rendered-pages.ts';
import { questionPath } from '../../common/routes.ts';
import { importedVotesMax } from './old-values.ts';
import { deadline } from '../test/deadline.ts';

/**
 * The import from the old Firebase site, against Google's Firestore emulator seeded with documents shaped as
 * spec §3 says (odd ones included) and an Authentication export whose password hashes are made with
 * Firebase's own scrypt (firebase-scrypt, with a hash config shaped as the console shows it).
 */

/** The run's target is Firestore (TEST_DATABASE_URL=firestore://…), where the import commits in batches. */
// eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
const onFirestore = process.env.TEST_DATABASE_URL?.startsWith('firestore://') === true;

/**
 * The app's own renderer, so the board's pages (`/qa`, `/qa/<id>`) are served as in production; compiled from
 * its source by vitest, as qa.pages.test.ts does (server code never imports the client's).
 */
const entryServer = path.resolve(import.meta.dirname, '../../client/entry-server.tsx');
const { renderPage } = (await import(entryServer)) as { renderPage: RenderApp };

let emulator: FirestoreEmulator;
let smtp: TestSmtpServer;
let server: TestServer;
let workDir: string;

// Emulator start-up on a busy machine: generous, though it is usually ready in about 3 s.
beforeAll(async () => {
  emulator = await startFirestoreEmulator();
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, renderApp: renderPage });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-import-'));
}, deadline(90_000));

afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await emulator?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// The old site, as Firebase holds it

/** A project's hash parameters as the console shows them (random signer key, Firebase's usual costs). */
const hashConfig: FirebaseHashConfig = {
  signerKey: randomBytes(64).toString('base64'),
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
};
const hashConfigBlock = `hash_config {
  algorithm: SCRYPT,
  base64_signer_key: ${hashConfig.signerKey},
  base64_salt_separator: ${hashConfig.saltSeparator},
  rounds: ${hashConfig.rounds},
  mem_cost: ${hashConfig.memCost},
}`;

/** A Firebase Authentication user with a password, hashed as Firebase hashes it. */
async function passwordUser(
  fields: { localId: string; email: string; displayName?: string; emailVerified: boolean },
  password: string,
) {
  const salt = randomBytes(16).toString('base64');
  const passwordHash = await new FirebaseScrypt(hashConfig).hash(password, salt);
  return {
    ...fields,
    passwordHash,
    salt,
    createdAt: String(Date.parse('2025-03-01T08:00:00Z')),
    lastSignedInAt: String(Date.parse('2025-07-01T08:00:00Z')),
    providerUserInfo: [{ providerId: 'password', rawId: fields.email, email: fields.email }],
    disabled: false,
  };
}

interface OldSite {
  projectId: string;
  /** Old uids, unique to this test. */
  uid: { thandi: string; sipho: string; lerato: string; ghost: string };
  email: { thandi: string; sipho: string; lerato: string };
  passwords: { thandi: string; sipho: string };
  googleId: string;
  authExport: string;
  hashConfigFile: string;
}

/** Seeds a fresh emulator project and writes the Authentication export and hash config next to it. */
async function seedOldSite(): Promise<OldSite> {
  const tag = crypto.randomUUID().slice(0, 8);
  const projectId = `old-site-${tag}`;
  const uid = { thandi: `thandi${tag}`, sipho: `sipho${tag}`, lerato: `lerato${tag}`, ghost: `ghost${tag}` };
  const email = {
    thandi: `thandi-${tag}@example.com`,
    sipho: `sipho-${tag}@example.com`,
    lerato: `lerato-${tag}@example.com`,
  };
  const passwords = { thandi: 'thandi old password', sipho: 'sipho old password' };
  const googleId = `10${Date.now()}${tag.replace(/\D/g, '')}`;

  const users = [
    await passwordUser(
      { localId: uid.thandi, email: email.thandi, displayName: 'Thandi Mokoena', emailVerified: true },
      passwords.thandi,
    ),
    // Signed up, never verified: must verify as usual.
    await passwordUser(
      { localId: uid.sipho, email: email.sipho, displayName: 'Sipho Dlamini', emailVerified: false },
      passwords.sipho,
    ),
    // Google only: no password.
    {
      localId: uid.lerato,
      email: email.lerato,
      emailVerified: true,
      displayName: 'Lerato Khumalo',
      photoUrl: 'https://lh3.googleusercontent.com/a/lerato',
      providerUserInfo: [
        { providerId: 'google.com', rawId: googleId, email: email.lerato, displayName: 'Lerato Khumalo' },
      ],
      createdAt: String(Date.parse('2025-04-01T08:00:00Z')),
    },
    // A phone sign-in: no address, which TutorBook needs.
    {
      localId: `phone${tag}`,
      phoneNumber: '+27820000000',
      providerUserInfo: [{ providerId: 'phone', rawId: '+27820000000' }],
    },
  ];
  const authExport = path.join(workDir, `users-${tag}.json`);
  await writeFile(authExport, JSON.stringify({ users }, null, 2));
  const hashConfigFile = path.join(workDir, `hash-${tag}.txt`);
  await writeFile(hashConfigFile, hashConfigBlock);

  const app = initializeApp({ projectId }, `seed-${tag}`);
  try {
    const db = getFirestore(app);
    db.settings({ host: emulator.host, ssl: false, universeDomain: 'googleapis.com' });
    const at = (iso: string) => Timestamp.fromDate(new Date(iso));
    const batch = db.batch();
    // Modules: one the catalogue has at another price, one new with its price as a string, one unusable.
    batch.set(db.doc(`modules/calc${tag}`), { name: 'Introduction To Calculus', category: 'Mathematics', price: 95 });
    batch.set(db.doc(`modules/disc${tag}`), { name: `Discrete Maths ${tag}`, category: 'Mathematics', price: '85' });
    batch.set(db.doc(`modules/phys${tag}`), { name: `Physics ${tag}`, category: 'Physics', price: 80 });
    // Questions: Thandi's with votes and two answers (one from an account deleted since); one whose author
    // deleted their account.
    batch.set(db.doc(`questions/q1${tag}`), {
      title: 'How do I reverse a linked list?',
      text: 'In Java, without a second list.',
      createdAt: at('2025-05-02T10:00:00Z'),
      asked_by: 'Thandi Mokoena',
      user_id: uid.thandi,
      upvotes: 3,
      downvotes: 1,
    });
    batch.set(db.doc(`questions/q1${tag}/answers/a1${tag}`), {
      text: 'Walk it once, turning each next pointer around.',
      createdAt: at('2025-05-02T11:00:00Z'),
      answered_by: 'Lerato Khumalo',
      user_id: uid.lerato,
    });
    batch.set(db.doc(`questions/q1${tag}/answers/a2${tag}`), {
      text: 'Recursion works too.',
      createdAt: at('2025-05-02T12:00:00Z'),
      answered_by: 'gone@example.com',
      user_id: uid.ghost,
    });
    batch.set(db.doc(`questions/q2${tag}`), {
      title: 'What is a p-value?',
      text: 'In plain words please.',
      createdAt: at('2025-05-01T09:00:00Z'),
      asked_by: 'gone@example.com',
      user_id: uid.ghost,
      upvotes: 0,
      downvotes: 0,
    });
    // Bookings: one without confirmed_timeslot, one confirmed, one with a status the spec does not have, one
    // by an account deleted since.
    const booking = {
      student_name: 'Thandi Mokoena',
      student_email: email.thandi,
      module_name: 'Introduction To Calculus',
      module_category: 'Mathematics',
      date: '2025-06-10',
      timeslot1: '14:00',
      timeslot2: '16:00',
      timeslot3: '09:30',
      hours: 2,
      concepts: 'Limits and the chain rule',
      status: 'Pending',
      createdAt: at('2025-06-01T08:00:00Z'),
      uid: uid.thandi,
    };
    batch.set(db.doc(`bookings/b1${tag}`), booking);
    batch.set(db.doc(`bookings/b2${tag}`), {
      ...booking,
      date: '2025-06-12',
      hours: '1',
      status: 'Confirmed',
      confirmed_timeslot: '16:00',
    });
    batch.set(db.doc(`bookings/b3${tag}`), { ...booking, status: 'Done' });
    batch.set(db.doc(`bookings/b4${tag}`), {
      ...booking,
      student_name: 'Gone Student',
      student_email: 'gone@example.com',
      module_name: 'Quantum Basket Weaving',
      module_category: 'Uncategorized',
      uid: uid.ghost,
    });
    // Enrolments: Thandi's, and the record of a deleted account.
    batch.set(db.doc(`enrolments/${uid.thandi}`), {
      uid: uid.thandi,
      name: 'Thandi Mokoena',
      email: email.thandi,
      modules: ['Introduction To Calculus', `Discrete Maths ${tag}`],
    });
    batch.set(db.doc(`enrolments/${uid.ghost}`), {
      uid: uid.ghost,
      email: 'gone@example.com',
      modules: ['FET Mathematics'],
    });
    await batch.commit();
  } finally {
    await deleteApp(app);
  }
  return { projectId, uid, email, passwords, googleId, authExport, hashConfigFile };
}

// ---------------------------------------------------------------------------------------------------------
// Running it

/** The CLI, given on standard input the password `--check-password` asks for (Thandi's, on every site). */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(
    ['import', 'firebase', ...args],
    { ...server.envVars, FIRESTORE_EMULATOR_HOST: emulator.host, ...env },
    60_000,
    'thandi old password\n',
  );

/** A test that starts the CLI (a Node process loading firebase-admin) waits longer on a busy machine. */
const cliTestTimeout = deadline(120_000);

const cliArgs = (site: OldSite) => [
  '--project',
  site.projectId,
  '--auth-export',
  site.authExport,
  '--hash-config',
  site.hashConfigFile,
  '--check-password',
  site.email.thandi,
];

/** The same import in this process (quicker than the CLI), from the same files. */
async function importInProcess(site: OldSite, dryRun = false) {
  const report = await importFirebase(
    server.services.deps.storage,
    {
      firestore: await readFirestore({ projectId: site.projectId, emulatorHost: emulator.host }),
      users: parseAuthExport(await readFile(site.authExport, 'utf8'), site.authExport),
      hashConfig: parseHashConfig(await readFile(site.hashConfigFile, 'utf8'), site.hashConfigFile),
    },
    { dryRun, now: new Date() },
  );
  // As the CLI does: the server reads the accounts the import changed again.
  if (!dryRun && report.handedOver.length > 0) server.services.deps.events.publish(accessChanged(report.handedOver));
  return report;
}

/** Every record the import may write, so "changes nothing" can be checked to the byte, on either engine. */
async function snapshot(): Promise<Record<string, unknown>> {
  const { firestore } = server.services;
  if (firestore) {
    // Every document of the target project, subcollections included, by path.
    const out: Record<string, unknown> = {};
    const walk = async (collections: CollectionReference[]) => {
      for (const collection of collections)
        for (const doc of (await collection.get()).docs) {
          out[doc.ref.path] = doc.data();
          await walk(await doc.ref.listCollections());
        }
    };
    await walk(await firestore.listCollections());
    return out;
  }
  const { db } = server.services;
  const tables = [
    'users',
    'accounts',
    'modules',
    'questions',
    'answers',
    'bookings',
    'booking_changes',
    'enrolments',
    'sync_counter',
  ] as const;
  const out: Record<string, unknown[]> = {};
  for (const table of tables)
    out[table] = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(table === 'sync_counter' ? 'name' : 'id')
      .execute();
  out.imported_records = await db.selectFrom('imported_records').selectAll().orderBy(['kind', 'old_id']).execute();
  return out;
}

const credentialOf = (userId: string) => server.services.deps.repos.accounts.passwordHashOf(userId);

/** The user's ways to log in as stored: provider, account id and password hash. */
async function loginsOf(userId: string) {
  const { firestore } = server.services;
  if (firestore) {
    const found = await firestore.collection('accounts').where('user_id', '==', userId).get();
    return found.docs.map((d) => ({
      provider_id: d.get('provider_id') as string,
      account_id: d.get('account_id') as string,
      password: d.get('password') as string | null,
    }));
  }
  return server.services.db
    .selectFrom('accounts')
    .select(['provider_id', 'account_id', 'password'])
    .where('user_id', '=', userId)
    .execute();
}

/** The ids `?since=` reports from the start, following `more` to the end. */
async function idsChangedSince(
  client: TestClient,
  path: string,
  key: 'bookings' | 'questions',
  from: number | string = '0',
) {
  const ids: string[] = [];
  let since = String(from);
  for (;;) {
    const page = await client.get(`${path}?since=${since}`);
    expect(page.status, page.text).toBe(200);
    ids.push(...(page.body[key] as { id: string }[]).map((r) => r.id));
    if (!page.body.more) return ids;
    since = String(page.body.version);
  }
}

// ---------------------------------------------------------------------------------------------------------

describe('import firebase', () => {
  test(
    'an old user logs in with the old password and finds their bookings, enrolments and the old board',
    async () => {
      const site = await seedOldSite();
      const run = await cli(cliArgs(site));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const tag = site.uid.thandi.slice('thandi'.length);
      expect(run.stdout).toContain(`Read from Firebase project ${site.projectId}:`);
      expect(run.stdout).toMatch(/users\s+4 read: 3 new, 0 already here, 0 updated, 1 skipped/);
      expect(run.stdout).toMatch(/modules\s+3 read: 1 new, 0 already here, 1 updated, 1 skipped/);
      expect(run.stdout).toMatch(/questions\s+2 read: 2 new, 0 already here, 0 updated, 0 skipped/);
      expect(run.stdout).toMatch(/answers\s+2 read: 2 new, 0 already here, 0 updated, 0 skipped/);
      expect(run.stdout).toMatch(/bookings\s+4 read: 3 new, 0 already here, 0 updated, 1 skipped/);
      expect(run.stdout).toMatch(/enrolments\s+3 read: 2 new, 0 already here, 0 updated, 1 skipped/);
      // Each skipped record named, with its reason.
      expect(run.stdout).toContain(`users/phone${tag}: no e-mail address`);
      expect(run.stdout).toContain(`modules/phys${tag}: category "Physics" is not one of`);
      expect(run.stdout).toContain(
        `bookings/b3${tag}: status "Done" is not one of Pending, Confirmed, Completed, Cancelled`,
      );
      expect(run.stdout).toContain(`enrolments/${site.uid.ghost}: no account for user ${site.uid.ghost}`);
      expect(run.stdout).toContain('Written: 13 new, 1 updated.');

      // A wrong old password is refused, and the Firebase hash stays until the right one is given.
      const wrong = await createClient(server.url).post('/api/auth/sign-in/email', {
        email: site.email.thandi,
        password: 'not the old password',
      });
      expectApiError(wrong, 401, 'auth.invalid_email_or_password');
      expect(await credentialOf(site.uid.thandi)).toMatch(/^\$firebase-scrypt\$/);

      const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
      expect((await thandi.get('/api/me')).body).toMatchObject({
        id: site.uid.thandi,
        name: 'Thandi Mokoena',
        role: 'student',
      });

      // Her bookings: every field kept, the confirmed time, a payment reference each; the skipped one absent.
      const bookings = (await thandi.get('/api/bookings')).body.bookings as Record<string, unknown>[];
      expect(bookings.map((b) => b.id).sort()).toEqual([`b1${tag}`, `b2${tag}`]);
      const pending = bookings.find((b) => b.id === `b1${tag}`)!;
      expect(pending).toMatchObject({
        student: { id: site.uid.thandi, name: 'Thandi Mokoena', email: site.email.thandi },
        moduleName: 'Introduction To Calculus',
        date: '2025-06-10',
        slots: ['14:00', '16:00', '09:30'],
        confirmedSlot: null,
        hours: 2,
        concepts: 'Limits and the chain rule',
        status: 'Pending',
        priceCentsPerHour: 9500,
        createdAt: '2025-06-01T08:00:00.000Z',
      });
      const confirmed = bookings.find((b) => b.id === `b2${tag}`)!;
      expect(confirmed).toMatchObject({ status: 'Confirmed', confirmedSlot: '16:00', hours: 1 });
      for (const b of bookings) expect(b.paymentReference).toMatch(/^TB-[A-Z2-9]{6}$/);
      expect(pending.paymentReference).not.toBe(confirmed.paymentReference);

      // Stamped as any change is: a client syncing from the start (`?since=0`) gets them.
      expect((await idsChangedSince(thandi, '/api/bookings', 'bookings')).sort()).toEqual([`b1${tag}`, `b2${tag}`]);
      const boardIds = await idsChangedSince(createClient(server.url), '/api/questions', 'questions');
      expect(boardIds).toEqual(expect.arrayContaining([`q1${tag}`, `q2${tag}`]));

      // Her enrolments, by the catalogue's modules (the new one included).
      const enrolments = (await thandi.get('/api/me/enrolments')).body;
      expect(JSON.stringify(enrolments)).toContain('Introduction To Calculus');
      expect(JSON.stringify(enrolments)).toContain(`Discrete Maths ${tag}`);

      // The board: the old questions and answers, authors by name, a deleted author as such, the old votes.
      const board = (await createClient(server.url).get('/api/questions')).body.questions as {
        id: string;
        author: { id: string | null; name: string };
        upvotes: number;
        downvotes: number;
        answers: { id: string; text: string; author: { id: string | null; name: string } }[];
      }[];
      const q1 = board.find((q) => q.id === `q1${tag}`)!;
      expect(q1).toMatchObject({
        title: 'How do I reverse a linked list?',
        createdAt: '2025-05-02T10:00:00.000Z',
        author: { id: site.uid.thandi, name: 'Thandi Mokoena' },
        upvotes: 3,
        downvotes: 1,
      });
      expect(q1.answers.map((a) => [a.id, a.author.id, a.author.name])).toEqual([
        [`a1${tag}`, site.uid.lerato, 'Lerato Khumalo'],
        [`a2${tag}`, null, 'Deleted user'],
      ]);
      expect(board.find((q) => q.id === `q2${tag}`)?.author).toMatchObject({ id: null, name: 'Deleted user' });

      // A vote adds to the old counts rather than replacing them; the asker can accept an old answer.
      const voted = await thandi.request(`/api/questions/q1${tag}/vote`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value: 1 }),
      });
      expect(voted.status, voted.text).toBe(200);
      expect(voted.body).toMatchObject({ upvotes: 4, downvotes: 1 });
      const accepted = await thandi.request(`/api/questions/q1${tag}/accepted-answer`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answerId: `a1${tag}` }),
      });
      expect(accepted.status, accepted.text).toBe(200);

      // After the first good login the stored hash is our own, the Firebase one gone; the password still works.
      const stored = (await credentialOf(site.uid.thandi)) ?? '';
      expect(stored).not.toContain('firebase');
      expect(stored).not.toContain(hashConfig.signerKey);
      const ctx = await server.services.auth.$context;
      expect(await ctx.password.verify({ hash: stored, password: site.passwords.thandi })).toBe(true);
      await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });

      // The Google-only user keeps the link "Continue with Google" signs in with, and has no password.
      expect(await loginsOf(site.uid.lerato)).toEqual([
        { provider_id: 'google', account_id: site.googleId, password: null },
      ]);
    },
    cliTestTimeout,
  );

  test('an imported user whose address was never verified must verify it, then logs in with the old password', async () => {
    const site = await seedOldSite();
    await importInProcess(site);
    const client = createClient(server.url);
    const refused = await client.post('/api/auth/sign-in/email', {
      email: site.email.sipho,
      password: site.passwords.sipho,
    });
    expectApiError(refused, 403, 'auth.email_not_verified');
    expect((await client.post('/api/auth/send-verification-email', { email: site.email.sipho })).status).toBe(200);
    const email = await smtp.waitForEmail({ to: site.email.sipho, subject: 'Verify your e-mail' });
    const login = await logInWithLink(client, firstLink(email.text), {
      email: site.email.sipho,
      password: site.passwords.sipho,
    });
    expect(login.status, login.text).toBe(200);
    expect((await client.get('/api/me')).body).toMatchObject({ id: site.uid.sipho, name: 'Sipho Dlamini' });
  });

  test('an address someone signed up with here and never verified goes to its old owner, with the old password', async () => {
    const site = await seedOldSite();
    const squatter = createClient(server.url);
    const signUp = await squatter.post('/api/auth/sign-up/email', {
      name: 'Not Thandi',
      email: site.email.thandi,
      password: 'squatter password',
    });
    expect(signUp.status, signUp.text).toBe(200);
    const report = await importInProcess(site);
    expect(report.counts.users).toMatchObject({ new: 2, updated: 1 });

    const refused = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: site.email.thandi,
      password: 'squatter password',
    });
    expectApiError(refused, 401, 'auth.invalid_email_or_password');
    const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
    const me = (await thandi.get('/api/me')).body;
    expect(me).toMatchObject({ name: 'Thandi Mokoena', email: site.email.thandi });
    const tag = site.uid.thandi.slice('thandi'.length);
    const bookings = (await thandi.get('/api/bookings')).body.bookings as { id: string }[];
    expect(bookings.map((b) => b.id).sort()).toEqual([`b1${tag}`, `b2${tag}`]);

    // Once it is theirs, a second run leaves it alone.
    const before = await snapshot();
    const again = await importInProcess(site);
    expect(again.counts.users).toMatchObject({ new: 0, updated: 0, unchanged: 3 });
    expect(await snapshot()).toEqual(before);
  });

  test(
    'running it again reports "0 new" and changes nothing',
    async () => {
      const site = await seedOldSite();
      const first = await importInProcess(site);
      expect(first.counts.bookings.new).toBe(3);
      const before = await snapshot();
      const again = await cli(cliArgs(site));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/users\s+4 read: 0 new, 3 already here, 0 updated, 1 skipped/);
      expect(again.stdout).toMatch(/bookings\s+4 read: 0 new, 3 already here, 0 updated, 1 skipped/);
      expect(again.stdout).toContain('Written: 0 new, 0 updated.');
      expect(await snapshot()).toEqual(before);
    },
    cliTestTimeout,
  );

  test(
    '--dry-run prints the report and writes nothing',
    async () => {
      const site = await seedOldSite();
      const before = await snapshot();
      const dry = await cli([...cliArgs(site), '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/bookings\s+4 read: 3 new, 0 already here, 0 updated, 1 skipped/);
      // The catalogue's module takes the old price once, in whichever test imports first.
      expect(dry.stdout).toMatch(/Dry run: nothing was written \(13 new, [01] updated had it run\)\./);
      expect(await snapshot()).toEqual(before);
      // And the same in process, where the report is the one a real run gives.
      const report = await importInProcess(site, true);
      expect(formatReport(report, site.projectId)).toContain('Dry run: nothing was written');
      expect(await snapshot()).toEqual(before);
    },
    cliTestTimeout,
  );

  /** The old site with one enrolment record that fails as it is read: the last collection, after the rest. */
  async function failingPartWay(site: OldSite) {
    const firestore = await readFirestore({ projectId: site.projectId, emulatorHost: emulator.host });
    firestore.enrolments.push({
      id: 'broken',
      createTime: new Date().toISOString(),
      get data(): Record<string, unknown> {
        throw new Error('the disk is full');
      },
    });
    return importFirebase(
      server.services.deps.storage,
      {
        firestore,
        users: parseAuthExport(await readFile(site.authExport, 'utf8'), site.authExport),
        hashConfig: parseHashConfig(await readFile(site.hashConfigFile, 'utf8'), site.hashConfigFile),
      },
      { dryRun: false, now: new Date() },
    );
  }

  test.skipIf(onFirestore)(
    'a failure part-way through writes nothing: on SQL the import is one transaction',
    async () => {
      const site = await seedOldSite();
      const before = await snapshot();
      // Stopped with a message naming the record, never a stack trace.
      await expect(failingPartWay(site)).rejects.toThrow(
        'The import stopped at enrolments/broken: the disk is full. Nothing was written (the import is one transaction).',
      );
      expect(await snapshot()).toEqual(before);
    },
  );

  test.runIf(onFirestore)(
    'on Firestore a failure part-way keeps the batches written; running it again finishes, then says "0 new"',
    async () => {
      const site = await seedOldSite();
      await expect(failingPartWay(site)).rejects.toThrow(
        'The import stopped at enrolments/broken: the disk is full. The batches before it were written; run it again to finish.',
      );
      // Users, modules, questions and bookings committed, each in its own transaction; the enrolments did not.
      const again = await importInProcess(site);
      expect(again.counts.users).toMatchObject({ new: 0, unchanged: 3 });
      expect(again.counts.bookings).toMatchObject({ new: 0, unchanged: 3 });
      expect(again.counts.enrolments).toMatchObject({ new: 2, skipped: 1 });
      const before = await snapshot();
      const third = await importInProcess(site);
      expect(importKinds.map((kind) => third.counts[kind].new + third.counts[kind].updated)).toEqual(
        importKinds.map(() => 0),
      );
      expect(await snapshot()).toEqual(before);
    },
    cliTestTimeout,
  );

  test.runIf(onFirestore)(
    'on Firestore a batch run again (contention) counts and writes once',
    async () => {
      const site = await seedOldSite();
      const storage = server.services.deps.storage;
      // Each transaction runs its work once and is rolled back, then runs it again, as Firestore does when
      // another transaction wrote what it read.
      const contended: Storage = {
        ...storage,
        async transaction(work) {
          await storage
            .transaction(async (repos) => {
              await work(repos);
              throw new Error('contention');
            })
            .catch(() => undefined);
          return storage.transaction(work);
        },
      };
      const report = await importFirebase(
        contended,
        {
          firestore: await readFirestore({ projectId: site.projectId, emulatorHost: emulator.host }),
          users: parseAuthExport(await readFile(site.authExport, 'utf8'), site.authExport),
          hashConfig: parseHashConfig(await readFile(site.hashConfigFile, 'utf8'), site.hashConfigFile),
        },
        { dryRun: false, now: new Date() },
      );
      expect(report.counts.users).toMatchObject({ read: 4, new: 3, skipped: 1 });
      expect(report.counts.modules).toMatchObject({ read: 3, new: 1, skipped: 1 });
      expect(report.counts.bookings).toMatchObject({ read: 4, new: 3, skipped: 1 });
      expect(report.counts.enrolments).toMatchObject({ read: 3, new: 2, skipped: 1 });
      expect(report.skipped).toHaveLength(4);
      const again = await importInProcess(site);
      expect(importKinds.map((kind) => again.counts[kind].new)).toEqual(importKinds.map(() => 0));
    },
    cliTestTimeout,
  );

  test(
    'a malformed Authentication export stops the import with a message naming the record',
    async () => {
      const site = await seedOldSite();
      const before = await snapshot();
      const broken = path.join(workDir, 'broken-users.json');
      const exported = JSON.parse(await readFile(site.authExport, 'utf8')) as { users: Record<string, unknown>[] };
      delete exported.users[1]!.salt;
      await writeFile(broken, JSON.stringify(exported));
      const run = await cli([
        '--project',
        site.projectId,
        '--auth-export',
        broken,
        '--hash-config',
        site.hashConfigFile,
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim()).toBe(
        `Error: ${broken}: users[1] (localId ${site.uid.sipho}, ${site.email.sipho}): a password hash needs both passwordHash and salt.`,
      );
      expect(await snapshot()).toEqual(before);

      // A hash config without mem_cost, and password hashes without any hash config, stop it too.
      const noCost = path.join(workDir, 'no-cost.txt');
      await writeFile(noCost, hashConfigBlock.replace(/mem_cost:.*\n/, ''));
      const costless = await cli([
        '--project',
        site.projectId,
        '--auth-export',
        site.authExport,
        '--hash-config',
        noCost,
      ]);
      expect(costless.code).toBe(1);
      expect(costless.stderr).toContain(`Error: ${noCost}: mem_cost is missing.`);
      const unhashed = await cli(['--project', site.projectId, '--auth-export', site.authExport]);
      expect(unhashed.code).toBe(1);
      expect(unhashed.stderr).toContain('give the project’s hash parameters with --hash-config');
      expect(await snapshot()).toEqual(before);
    },
    cliTestTimeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Running it again after the old site changed (decision 0037)

/** Changes the old site's Firestore as its users and admins would, between two runs. */
async function editOldSite(site: OldSite, edit: (db: Firestore) => Promise<unknown>) {
  const app = initializeApp({ projectId: site.projectId }, `edit-${crypto.randomUUID()}`);
  try {
    const db = getFirestore(app);
    db.settings({ host: emulator.host, ssl: false, universeDomain: 'googleapis.com' });
    await edit(db);
  } finally {
    await deleteApp(app);
  }
}

/** A new `firebase auth:export` of the old site, with its users changed by `edit`. */
async function editAuthExport(site: OldSite, edit: (users: Record<string, unknown>[]) => unknown) {
  const exported = JSON.parse(await readFile(site.authExport, 'utf8')) as { users: Record<string, unknown>[] };
  await edit(exported.users);
  await writeFile(site.authExport, JSON.stringify(exported));
}

const tagOf = (site: OldSite) => site.uid.thandi.slice('thandi'.length);
const userIn = (users: Record<string, unknown>[], localId: string) => users.find((u) => u.localId === localId)!;

interface ApiBooking {
  id: string;
  status: string;
  confirmedSlot: string | null;
  version: number;
  student: { id: string | null; name: string; email: string };
  concepts: string;
  history: { by: { id: string | null; name: string }; from: string | null; to: string; slot: string | null }[];
}

async function bookingsOf(client: TestClient): Promise<Map<string, ApiBooking>> {
  const page = await client.get('/api/bookings');
  expect(page.status, page.text).toBe(200);
  return new Map((page.body.bookings as ApiBooking[]).map((b) => [b.id, b]));
}

describe('import firebase, run again after the old site changed', () => {
  test(
    'a later run brings every change the old site made since, counts it as updated, and a third changes nothing',
    async () => {
      const site = await seedOldSite();
      const tag = tagOf(site);
      await importInProcess(site);
      const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
      const bookingsPosition = (await thandi.get('/api/bookings?since=0')).body.version as number | string;
      const boardPosition = (await createClient(server.url).get('/api/questions?since=0')).body.version as
        number | string;

      // The old site goes on: a booking confirmed there, votes from 3 to 33, a title and an answer edited, a
      // price raised, an enrolment changed, a user renamed and another who verified her address.
      await editOldSite(site, (db) =>
        Promise.all([
          db.doc(`bookings/b1${tag}`).update({ status: 'Confirmed', confirmed_timeslot: '14:00' }),
          db.doc(`questions/q1${tag}`).update({ upvotes: 33, title: 'How do I reverse a singly linked list?' }),
          db.doc(`questions/q1${tag}/answers/a1${tag}`).update({ text: 'Walk it once, turning each pointer.' }),
          db.doc(`modules/disc${tag}`).update({ price: 'R90' }),
          db.doc(`enrolments/${site.uid.thandi}`).update({ modules: ['Introduction To Calculus', 'FET Mathematics'] }),
        ]),
      );
      await editAuthExport(site, (users) => {
        userIn(users, site.uid.thandi).displayName = 'Thandi Mokoena-Dube';
        userIn(users, site.uid.sipho).emailVerified = true;
      });

      const run = await cli(cliArgs(site));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/users\s+4 read: 0 new, 1 already here, 2 updated, 1 skipped/);
      expect(run.stdout).toMatch(/modules\s+3 read: 0 new, 1 already here, 1 updated, 1 skipped/);
      expect(run.stdout).toMatch(/questions\s+2 read: 0 new, 1 already here, 1 updated, 0 skipped/);
      expect(run.stdout).toMatch(/answers\s+2 read: 0 new, 1 already here, 1 updated, 0 skipped/);
      expect(run.stdout).toMatch(/bookings\s+4 read: 0 new, 2 already here, 1 updated, 1 skipped/);
      // A module added there is new; the one removed there is removed here (counted updated).
      expect(run.stdout).toMatch(/enrolments\s+3 read: 1 new, 1 already here, 1 updated, 1 skipped/);
      expect(run.stdout).toContain('Written: 1 new, 7 updated.');
      expect(run.stdout).not.toContain('Changed on both sides');

      // The booking as the old site has it now, with "The old site" in its history.
      const b1 = (await bookingsOf(thandi)).get(`b1${tag}`)!;
      expect(b1).toMatchObject({ status: 'Confirmed', confirmedSlot: '14:00' });
      // Her new name there is hers here too, in the booking's history as everywhere (decision 0025).
      expect(b1.history.map((h) => [h.by.name, h.from, h.to, h.slot])).toEqual([
        ['Thandi Mokoena-Dube', null, 'Pending', null],
        ['The old site', 'Pending', 'Confirmed', '14:00'],
      ]);
      // The board: the old site's 33 (votes cast here would add to them), the new title and answer.
      const q1 = (await thandi.get(`/api/questions/q1${tag}`)).body as {
        title: string;
        upvotes: number;
        answers: { id: string; text: string }[];
      };
      expect(q1).toMatchObject({ title: 'How do I reverse a singly linked list?', upvotes: 33, downvotes: 1 });
      expect(q1.answers.find((a) => a.id === `a1${tag}`)?.text).toBe('Walk it once, turning each pointer.');
      // Clients that synced before hear of them (b2 too: it shows her new name).
      expect((await idsChangedSince(thandi, `/api/bookings`, 'bookings', bookingsPosition)).sort()).toEqual([
        `b1${tag}`,
        `b2${tag}`,
      ]);
      expect(await idsChangedSince(thandi, `/api/questions`, 'questions', boardPosition)).toEqual([`q1${tag}`]);
      // The account and its enrolments.
      expect((await thandi.get('/api/me')).body).toMatchObject({ name: 'Thandi Mokoena-Dube' });
      const enrolled = JSON.stringify((await thandi.get('/api/me/enrolments')).body);
      expect(enrolled).toContain('FET Mathematics');
      expect(enrolled).not.toContain(`Discrete Maths ${tag}`);
      const sipho = await logIn(server, { email: site.email.sipho, password: site.passwords.sipho });
      expect((await sipho.get('/api/me')).body).toMatchObject({ emailVerified: true });
      // The catalogue (which a running server reads at its start, decision 0006) has the new price.
      expect(await server.services.deps.repos.catalogue.findById(`disc${tag}`)).toMatchObject({ priceCents: 9000 });

      // Nothing changed since: nothing written, to the byte.
      const before = await snapshot();
      const third = await importInProcess(site);
      expect(importKinds.map((kind) => third.counts[kind].new + third.counts[kind].updated)).toEqual(
        importKinds.map(() => 0),
      );
      expect(await snapshot()).toEqual(before);
    },
    cliTestTimeout,
  );

  test('an account renamed there: every question she asked or answered is pulled again with her new name', async () => {
    const site = await seedOldSite();
    const tag = tagOf(site);
    await importInProcess(site);
    const visitor = createClient(server.url);
    const boardPosition = (await visitor.get('/api/questions?since=0')).body.version as number | string;

    // Lerato answered Thandi's q1; nothing on the board changed there.
    await editAuthExport(site, (users) => {
      userIn(users, site.uid.lerato).displayName = 'Lerato Khumalo-Nkosi';
    });
    const second = await importInProcess(site);
    expect(second.counts.users.updated).toBe(1);
    expect(second.counts.questions.updated + second.counts.answers.updated).toBe(0);

    // A device that pulled the board before asks for what changed since, and gets q1 with her new name.
    const changed = await visitor.get(`/api/questions?since=${boardPosition}`);
    const questions = changed.body.questions as { id: string; answers: { id: string; author: { name: string } }[] }[];
    expect(questions.map((q) => q.id)).toEqual([`q1${tag}`]);
    expect(questions[0]!.answers.find((a) => a.id === `a1${tag}`)?.author.name).toBe('Lerato Khumalo-Nkosi');
  });

  test('a record changed on both sides takes the old site’s values and is named; one changed here only stays', async () => {
    const site = await seedOldSite();
    const tag = tagOf(site);
    await importInProcess(site);
    const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
    const admin = await signInAs(server, 'admin', { name: 'Lerato Admin' });

    // Here: an admin cancels b1, Thandi renames herself and leaves one of her modules.
    const b1 = (await bookingsOf(thandi)).get(`b1${tag}`)!;
    const cancelled = await admin.client.request(`/api/bookings/b1${tag}/status`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Cancelled', version: b1.version }),
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const renamed = await thandi.request('/api/me/name', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Thandi Here' }),
    });
    expect(renamed.status, renamed.text).toBe(200);
    const mine = (await thandi.get('/api/me/enrolments')).body.enrolments as { id: string; moduleName: string }[];
    const discrete = mine.find((e) => e.moduleName === `Discrete Maths ${tag}`)!;
    expect((await thandi.request(`/api/me/enrolments/${discrete.id}`, { method: 'DELETE' })).status).toBe(200);

    // There: b1 confirmed, Thandi renamed.
    await editOldSite(site, (db) =>
      db.doc(`bookings/b1${tag}`).update({ status: 'Confirmed', confirmed_timeslot: '16:00' }),
    );
    await editAuthExport(site, (users) => {
      userIn(users, site.uid.thandi).displayName = 'Thandi There';
    });

    const report = await importInProcess(site);
    expect(report.changedOnBothSides).toEqual([
      { record: `users/${site.uid.thandi}`, reason: 'name' },
      { record: `bookings/b1${tag}`, reason: 'status (the change here stays in its history)' },
    ]);
    expect(formatReport(report, site.projectId)).toContain(
      'Changed on both sides since the last import (the old site’s values were taken):\n' +
        `  users/${site.uid.thandi}: name\n` +
        `  bookings/b1${tag}: status (the change here stays in its history)\n`,
    );
    // The old site wins; the cancellation made here stays in the booking's history.
    const after = (await bookingsOf(thandi)).get(`b1${tag}`)!;
    expect(after).toMatchObject({ status: 'Confirmed', confirmedSlot: '16:00' });
    expect(after.history.map((h) => [h.by.name, h.from, h.to])).toEqual([
      ['Thandi There', null, 'Pending'],
      ['Lerato Admin', 'Pending', 'Cancelled'],
      ['The old site', 'Cancelled', 'Confirmed'],
    ]);
    expect((await thandi.get('/api/me')).body).toMatchObject({ name: 'Thandi There' });
    // Changed here only: the module she left is not brought back.
    expect(JSON.stringify((await thandi.get('/api/me/enrolments')).body)).not.toContain(`Discrete Maths ${tag}`);
    expect(report.counts.enrolments).toMatchObject({ new: 0, unchanged: 2, updated: 0 });
  });

  test('a login refused for an unverified address, after it replaced the old hash, is no change: "already here"', async () => {
    const site = await seedOldSite();
    // Someone signed up here with Sipho's address and never verified it: the import hands it to Sipho.
    const squatter = await createClient(server.url).post('/api/auth/sign-up/email', {
      name: 'Not Sipho',
      email: site.email.sipho,
      password: 'squatter password',
    });
    expect(squatter.status, squatter.text).toBe(200);
    expect((await importInProcess(site)).counts.users).toMatchObject({ new: 2, updated: 1 });
    const account = (await server.services.deps.repos.accounts.findByEmail(site.email.sipho))!;
    expect(await credentialOf(account.id)).toContain('$firebase-scrypt$');

    // Sipho logs in with the old password: refused, the address being unverified, but the Firebase hash
    // matched first and was replaced by ours.
    const refused = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: site.email.sipho,
      password: site.passwords.sipho,
    });
    expectApiError(refused, 403, 'auth.email_not_verified');
    const ours = (await credentialOf(account.id))!;
    expect(ours).not.toContain('$firebase-scrypt$');

    // Nothing changed on the old site: the account is "already here", its password as it is.
    const again = await importInProcess(site);
    expect(again.counts.users).toMatchObject({ new: 0, updated: 0, unchanged: 3 });
    expect(again.handedOver).toEqual([]);
    expect(await credentialOf(account.id)).toBe(ours);
  });

  test('a disabled user: never imported, its records say so; disabled after an import, signed out here', async () => {
    const site = await seedOldSite();
    const tag = tagOf(site);
    const disabledUid = `disabled${tag}`;
    await editAuthExport(site, (users) =>
      users.push({
        localId: disabledUid,
        email: `disabled-${tag}@example.com`,
        emailVerified: true,
        displayName: 'Dis Abled',
        disabled: true,
      }),
    );
    await editOldSite(site, (db) =>
      Promise.all([
        db.doc(`enrolments/${disabledUid}`).set({ uid: disabledUid, modules: ['FET Mathematics'] }),
        // Lerato's, emptied: holds nothing, like the empty list an account's deletion leaves.
        db.doc(`enrolments/${site.uid.lerato}`).set({}),
      ]),
    );
    const report = await importInProcess(site);
    expect(report.skipped).toContainEqual({
      record: `users/${disabledUid}`,
      reason: 'disabled in Firebase Authentication',
    });
    expect(report.skipped).toContainEqual({
      record: `enrolments/${disabledUid}`,
      reason: `the account of user ${disabledUid} is disabled in Firebase Authentication, so it was not imported`,
    });
    expect(report.skipped.filter((s) => s.record.includes(site.uid.lerato))).toEqual([]);

    // Thandi is signed in here when the old site disables her: signed out, no way in that she had.
    const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
    await editAuthExport(site, (users) => {
      userIn(users, site.uid.thandi).disabled = true;
    });
    const disabling = await importInProcess(site);
    expect(disabling.counts.users).toMatchObject({ updated: 1 });
    expect(disabling.handedOver).toEqual([site.uid.thandi]);
    expect((await thandi.get('/api/me')).status).toBe(401);
    const refused = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: site.email.thandi,
      password: site.passwords.thandi,
    });
    expect(refused.status).toBe(401);
    // Her records stay hers; enabled again there, her old password lets her in again.
    await editAuthExport(site, (users) => {
      userIn(users, site.uid.thandi).disabled = false;
    });
    expect((await importInProcess(site)).counts.users).toMatchObject({ updated: 1 });
    const back = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
    expect([...(await bookingsOf(back)).keys()].sort()).toEqual([`b1${tag}`, `b2${tag}`]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Hostile and odd records (decision 0037): the same rules as user input

describe('import firebase, values that break the rules of user input', () => {
  test(
    'each is skipped with its reason or brought within its bound and reported; the board stays up',
    async () => {
      const site = await seedOldSite();
      const tag = tagOf(site);
      await editAuthExport(site, (users) =>
        users.push(
          { localId: `crlf${tag}`, email: 'crlf@example.test\r\nbcc: x@evil.test', emailVerified: true },
          { localId: `script${tag}`, email: 'not an address <script>', emailVerified: true },
          { localId: '__proto__', email: `proto-${tag}@example.com`, emailVerified: true },
          {
            localId: `long${tag}`,
            email: `long-${tag}@example.com`,
            emailVerified: true,
            displayName: 'N'.repeat(300),
          },
          {
            localId: `bidi${tag}`,
            email: `bidi-${tag}@example.com`,
            emailVerified: true,
            displayName: 'Admin\u202Egnp.exe',
          },
        ),
      );
      const huge = 9007199254740993;
      await editOldSite(site, (db) =>
        Promise.all([
          db
            .doc(`questions/huge${tag}`)
            .set({ title: 'Votes', text: 'Too many', user_id: site.uid.thandi, downvotes: huge }),
          db
            .doc(`questions/title${tag}`)
            .set({ title: 'T'.repeat(5022), text: 'Long title', user_id: site.uid.thandi }),
          db
            .doc(`questions/text${tag}`)
            .set({ title: 'Long text', text: 'x'.repeat(300_000), user_id: site.uid.thandi }),
          db.doc(`questions/text${tag}/answers/a${tag}`).set({ text: 'An answer', user_id: site.uid.thandi }),
          db.doc(`modules/evil${tag}`).set({ name: 'Evil\r\nBcc: x@evil.test', category: 'Mathematics', price: 90 }),
          db.doc(`bookings/inject${tag}`).set({
            student_name: 'Thandi Mokoena',
            student_email: 'victim@example.test, attacker@evil.test',
            module_name: 'Introduction To Calculus',
            date: '2027-03-10',
            timeslot1: '14:00',
            timeslot2: '16:00',
            timeslot3: '09:30',
            hours: 1,
            concepts: 'Limits',
            uid: site.uid.thandi,
          }),
          db.doc(`bookings/bcc${tag}`).set({
            student_name: 'Nobody',
            student_email: 'attacker@evil.test\r\nBcc: victim@example.test',
            module_name: 'Introduction To Calculus',
            date: '2027-03-10',
            timeslot1: '14:00',
            timeslot2: '16:00',
            timeslot3: '09:30',
            hours: 1,
            concepts: 'Limits',
            uid: site.uid.ghost,
          }),
          db.doc(`bookings/concepts${tag}`).set({
            student_name: 'Gone\nPayment reference: TB-FAKE00',
            student_email: 'gone@example.com',
            module_name: 'Introduction To Calculus',
            date: '2027-03-11',
            timeslot1: '14:00',
            timeslot2: '16:00',
            timeslot3: '09:30',
            hours: 1,
            concepts: 'c'.repeat(2500),
            uid: site.uid.ghost,
          }),
        ]),
      );

      // Through the CLI: it ends with its report, never a stack trace.
      const run = await cli(cliArgs(site));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const skipped = run.stdout.slice(run.stdout.indexOf('Skipped:'), run.stdout.indexOf('Adjusted to the rules:'));
      const adjusted = run.stdout.slice(run.stdout.indexOf('Adjusted to the rules:'));
      expect(skipped).toContain(
        `users/crlf${tag}: e-mail address "crlf@example.test\\r\\nbcc: x@evil.test" is not one sign-up accepts`,
      );
      expect(skipped).toContain(
        `users/script${tag}: e-mail address "not an address <script>" is not one sign-up accepts`,
      );
      expect(skipped).toContain('users/__proto__: id "__proto__" cannot be an id here');
      expect(skipped).toContain(
        `questions/title${tag}: title of 5022 characters: The title can be at most 200 characters.`,
      );
      expect(skipped).toContain(
        `questions/text${tag}: text of 300000 characters: The text can be at most 10\u00a0000 characters.`,
      );
      expect(skipped).toContain(`questions/text${tag}/answers/a${tag}: its question was skipped`);
      expect(skipped).toContain(`modules/evil${tag}: name "Evil\\r\\nBcc: x@evil.test": Use letters`);
      expect(skipped).toContain(
        `bookings/bcc${tag}: student_email "attacker@evil.test\\r\\nBcc: victim@example.test" is not one address, and no account has the booking`,
      );
      expect(adjusted).toContain(
        `questions/huge${tag}: downvotes 9007199254740992 is more than ${importedVotesMax}: kept as ${importedVotesMax}`,
      );
      expect(adjusted).toContain(`users/long${tag}: display name "NNNN`);
      expect(adjusted).toContain(`"long-${tag}" is used`);
      expect(adjusted).toContain(`users/bidi${tag}: display name "Admin\\u202egnp.exe": Use letters`);
      expect(adjusted).toContain(
        `bookings/inject${tag}: student_email "victim@example.test, attacker@evil.test" is not one address: the account's ${site.email.thandi} is used`,
      );
      expect(adjusted).toContain(
        `bookings/concepts${tag}: student_name "Gone\\nPayment reference: TB-FAKE00": Use letters, numbers and punctuation only, on one line. "gone" is used`,
      );
      expect(adjusted).toContain(`bookings/concepts${tag}: concepts of 2500 characters: cut at 2000`);

      // The board answers every visitor, with the count at its bound.
      const visitor = createClient(server.url);
      for (const path of [
        '/api/questions',
        '/api/questions?since=0',
        `/api/questions/huge${tag}`,
        '/qa',
        questionPath(`huge${tag}`),
      ]) {
        const page = await visitor.get(path);
        expect(page.status, `${path}: ${page.text.slice(0, 200)}`).toBe(200);
      }
      expect((await visitor.get(`/api/questions/huge${tag}`)).body).toMatchObject({ downvotes: importedVotesMax });

      // The booking's e-mails go to its student's one address only.
      const thandi = await logIn(server, { email: site.email.thandi, password: site.passwords.thandi });
      const mine = await bookingsOf(thandi);
      expect(mine.get(`inject${tag}`)?.student.email).toBe(site.email.thandi);
      const concepts = (await server.services.deps.repos.bookings.findById(`concepts${tag}`))!;
      expect(concepts.student).toEqual({ id: null, name: 'gone', email: 'gone@example.com' });
      expect(concepts.concepts).toHaveLength(2000);
      const admin = await signInAs(server, 'admin', { name: 'Lerato Admin' });
      const confirmed = await admin.client.post(`/api/bookings/inject${tag}/confirm`, {
        slot: '14:00',
        version: mine.get(`inject${tag}`)!.version,
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      const email = await smtp.waitForEmail({ to: site.email.thandi, subject: 'Session confirmed' });
      expect(email.to).toEqual([site.email.thandi]);
      expect(smtp.messages.filter((m) => m.to.some((to) => /evil|victim/.test(to)))).toEqual([]);
    },
    cliTestTimeout,
  );
});

describe('the hash parameters file', () => {
  test('reads the console block and the same keys as JSON', () => {
    expect(parseHashConfig(hashConfigBlock, 'hash.txt')).toEqual(hashConfig);
    const json = JSON.stringify({
      algorithm: 'SCRYPT',
      base64_signer_key: hashConfig.signerKey,
      base64_salt_separator: hashConfig.saltSeparator,
      rounds: 8,
      mem_cost: 14,
    });
    expect(parseHashConfig(json, 'hash.json')).toEqual(hashConfig);
    expect(() => parseHashConfig(hashConfigBlock.replace('SCRYPT', 'BCRYPT'), 'hash.txt')).toThrow(
      /algorithm must be SCRYPT/,
    );
  });
});
