import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnv } from '../../env.ts';
import { createServices } from '../../server.ts';
import { emulatorFirestore } from '../../test/firestore-client.ts';
import { firestoreTestsRun, startFirestoreEmulator, type FirestoreEmulator } from '../../test/firestore-emulator.ts';
import { createClient, createVerifiedUser, logIn, startTestServer } from '../../test/harness.ts';
import { runCli } from '../../test/main-process.ts';
import { seedOldSite, snapshotDatabase } from '../../test/old-site.ts';
import { tutorBookMarker } from './setup.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * Where the new site's data lives on Firestore: a named database of the old site's project
 * (`firestore://<project>/<database>`), never the old site's `(default)`, whose collection names TutorBook's
 * layout shares. Against Google's emulator, which keeps a project's databases apart (checked here too).
 * Firestore alone: in the SQLite and Firestore runs, not again in the PostgreSQL one.
 */
let emulator: FirestoreEmulator;
let workDir: string;

beforeAll(async () => {
  emulator = await startFirestoreEmulator();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-own-database-'));
}, deadline(90_000));

afterAll(async () => {
  await emulator?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const envOf = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  FIRESTORE_EMULATOR_HOST: emulator.host,
});

describe.skipIf(!firestoreTestsRun)('the new site’s own Firestore database', () => {
  test('on firestore://<project>/tutorbook every part (accounts, board, mail, bus) writes that database; (default) is untouched', async () => {
    const site = await seedOldSite(emulator.host, workDir);
    const before = await snapshotDatabase(emulator.host, site.projectId);
    const server = await startTestServer({ env: envOf(`firestore://${site.projectId}/tutorbook`) });
    try {
      // better-auth's adapter (users, accounts, sessions), the board's repository with its stamps, the bus.
      const signUp = await createClient(server.url).post('/api/auth/sign-up/email', {
        name: 'New Student',
        email: `new-${site.tag}@example.com`,
        password: 'a long enough password',
      });
      expect(signUp.status, signUp.text).toBe(200);
      const user = await createVerifiedUser(server);
      const client = await logIn(server, user);
      const asked = await client.post('/api/questions', {
        id: crypto.randomUUID(),
        title: 'Where does this question go?',
        text: 'Into the named database.',
      });
      expect(asked.status, asked.text).toBe(201);
      await server.services.worker.runOnce();

      expect(await snapshotDatabase(emulator.host, site.projectId)).toEqual(before);
      const own = await snapshotDatabase(emulator.host, site.projectId, 'tutorbook');
      const collections = new Set(Object.keys(own).map((p) => p.split('/')[0]));
      for (const name of [
        'setup',
        'users',
        'accounts',
        'sessions',
        'questions',
        'modules',
        'emailOutbox',
        'busNotices',
      ])
        expect(collections, name).toContain(name);
      expect(own[tutorBookMarker]).toMatchObject({ setUpAt: expect.any(String) });
      // The old site's records are not there: the two databases share names, not documents.
      expect(Object.keys(own).some((p) => p.includes(site.tag))).toBe(false);
      expect(server.services.firestore?.databaseId).toBe('tutorbook');
    } finally {
      await server.close();
    }
  });

  test('a start on the old site’s (default) database, with its records and no marker, is refused before any write', async () => {
    const site = await seedOldSite(emulator.host, workDir);
    const before = await snapshotDatabase(emulator.host, site.projectId);
    for (const url of [`firestore://${site.projectId}`, `firestore://${site.projectId}/(default)`]) {
      const env = loadEnv({ ...envOf(url), NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: workDir });
      const refused = createServices(env);
      await expect(refused).rejects.toThrow(
        `The Firestore database "(default)" of project "${site.projectId}" on the emulator at ${emulator.host} holds another site's records (`,
      );
      await expect(refused).rejects.toThrow(
        `Give TutorBook a database of its own, e.g. DATABASE_URL=firestore://${site.projectId}/tutorbook`,
      );
    }
    expect(await snapshotDatabase(emulator.host, site.projectId)).toEqual(before);
  });

  test(
    'the staff commands are refused there too, with the message and no stack',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      const before = await snapshotDatabase(emulator.host, site.projectId);
      const run = await runCli(
        ['staff', 'add', `boss-${site.tag}@example.com`, '--role', 'admin'],
        { ...envOf(`firestore://${site.projectId}`), DATA_DIR: workDir, LOG_LEVEL: 'silent' },
        60_000,
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^Error: The Firestore database "\(default\)" of project "old-site-/);
      expect(run.stderr).toContain(
        `(questions/q1${site.tag}, bookings/b1${site.tag}, enrolments/${site.other.uid}, modules/calc${site.tag})`,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(await snapshotDatabase(emulator.host, site.projectId)).toEqual(before);
    },
    deadline(90_000),
  );

  test('a database TutorBook set up before the marker existed is recognised and marked; an empty one is marked first', async () => {
    const projectId = `demo-own-${crypto.randomUUID().slice(0, 8)}`;
    // Set up by an earlier version: the catalogue's marker, and a question in TutorBook's own layout.
    const earlier = emulatorFirestore(emulator.host, projectId, 'tutorbook');
    try {
      await earlier.db.doc('setup/catalogue').set({ seededAt: '2026-01-01T00:00:00.000Z' });
      await earlier.db.doc('questions/q1').set({ userId: 'u1', title: 'Ours', text: 'From before', version: 1 });
    } finally {
      await earlier.close();
    }
    for (const database of ['tutorbook', 'empty-one']) {
      const env = loadEnv({
        ...envOf(`firestore://${projectId}/${database}`),
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: workDir,
      });
      const services = await createServices(env);
      await services.close();
      const stored = await snapshotDatabase(emulator.host, projectId, database);
      expect(stored[tutorBookMarker], database).toMatchObject({ setUpAt: expect.any(String) });
    }
    // And starts again, marked.
    const env = loadEnv({ ...envOf(`firestore://${projectId}/tutorbook`), LOG_LEVEL: 'silent', DATA_DIR: workDir });
    await (await createServices(env)).close();
  });
});

describe.skipIf(!firestoreTestsRun)('the emulator’s named databases (gcloud firestore emulator 1.19.9)', () => {
  test('keep a project’s databases apart and take any name, which env.ts therefore checks', async () => {
    const projectId = `demo-named-${crypto.randomUUID().slice(0, 8)}`;
    const one = emulatorFirestore(emulator.host, projectId, 'tutorbook');
    const loose = emulatorFirestore(emulator.host, projectId, 'Not_A_Valid_Id');
    try {
      await one.db.doc('things/a').set({ in: 'tutorbook' });
      await loose.db.doc('things/a').set({ in: 'loose' });
      expect(await snapshotDatabase(emulator.host, projectId)).toEqual({});
      expect(await snapshotDatabase(emulator.host, projectId, 'tutorbook')).toEqual({
        'things/a': { in: 'tutorbook' },
      });
      expect((await loose.db.doc('things/a').get()).data()).toEqual({ in: 'loose' });
    } finally {
      await one.close();
      await loose.close();
    }
  });
});
