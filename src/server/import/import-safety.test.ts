import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emulatorFirestore } from '../test/firestore-client.ts';
import { firestoreTestsRun, startFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  firstLink,
  logIn,
  makeStaff,
  startSmtpServer,
  startTestServer,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { runCli } from '../test/main-process.ts';
import { seedOldSite, snapshotDatabase, type OldSite } from '../test/old-site.ts';
import { parseAuthExport, parseHashConfig } from './firebase-auth-export.ts';
import { importFirebase } from './firebase-import.ts';
import { readFirestore } from './firestore-source.ts';
import { nodeChildEnv } from '../test/child-env.ts';
import { deadline } from '../test/deadline.ts';

/**
 * What surrounds the import from the old Firebase site (issue 33): it never writes where it reads, it proves
 * the hash parameters on a known password before writing, a refused old password is logged, the admin sees
 * how many imported accounts have not logged in yet, and a Google-only account can set a password. The old
 * site lives in the `(default)` database of a project on Google's emulator; the target is the run's engine
 * (SQLite, PostgreSQL, or Firestore with TEST_DATABASE_URL) unless a test names another.
 */
let emulator: FirestoreEmulator;
let smtp: TestSmtpServer;
let server: TestServer;
let workDir: string;

beforeAll(async () => {
  emulator = await startFirestoreEmulator();
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, captureLogs: true });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-import-safety-'));
}, deadline(90_000));

afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await emulator?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** A test that starts the CLI (a Node process loading firebase-admin) waits longer on a busy machine. */
const cliTimeout = deadline(120_000);

const importCli = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  runCli(
    ['import', 'firebase', ...args],
    { ...server.envVars, FIRESTORE_EMULATOR_HOST: emulator.host, LOG_LEVEL: 'silent', ...options.env },
    60_000,
    options.input ?? '',
  );

const filesOf = (site: OldSite, hashConfigFile = site.hashConfigFile) => [
  '--project',
  site.projectId,
  '--auth-export',
  site.authExport,
  '--hash-config',
  hashConfigFile,
];

/** Whether any of the site's accounts is on the target: the import wrote something. */
async function anyImported(site: OldSite): Promise<boolean> {
  const { accounts } = server.services.deps.repos;
  const found = await Promise.all([site.known.uid, site.other.uid, site.google.uid].map((id) => accounts.findById(id)));
  return found.some(Boolean);
}

/** The hash file with one character of the signer key changed: as a copy-paste slip would leave it. */
async function hashFileWithOneWrongCharacter(site: OldSite): Promise<string> {
  const key = site.hashConfig.signerKey;
  const at = 10;
  const wrong = `${key.slice(0, at)}${key[at] === 'A' ? 'B' : 'A'}${key.slice(at + 1)}`;
  const file = path.join(workDir, `hash-wrong-${site.tag}.txt`);
  await writeFile(file, (await readFile(site.hashConfigFile, 'utf8')).replace(key, wrong));
  return file;
}

/** The same import in this process, with whichever hash file (no check: that is the CLI's). */
async function importInProcess(site: OldSite, hashConfigFile = site.hashConfigFile) {
  return importFirebase(
    server.services.deps.storage,
    {
      firestore: await readFirestore({ projectId: site.projectId, emulatorHost: emulator.host }),
      users: parseAuthExport(await readFile(site.authExport, 'utf8'), site.authExport),
      hashConfig: parseHashConfig(await readFile(hashConfigFile, 'utf8'), hashConfigFile),
    },
    { dryRun: false, now: new Date() },
  );
}

describe.skipIf(!firestoreTestsRun)('the import’s target is never its source', () => {
  test(
    'DATABASE_URL naming the old site’s (default) database is refused before anything is read or written',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      const before = await snapshotDatabase(emulator.host, site.projectId);
      const runs = [
        { url: `firestore://${site.projectId}`, extra: ['--dry-run'] },
        { url: `firestore://${site.projectId}/(default)`, extra: [] },
      ];
      for (const { url, extra } of runs) {
        const run = await importCli([...filesOf(site), '--check-password', site.known.email, ...extra], {
          env: { DATABASE_URL: url },
          input: `${site.known.password}\n`,
        });
        expect(run.code, url).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(
          `Error: DATABASE_URL names the old site's own data: the (default) database of Firestore project ${site.projectId} on the emulator at ${emulator.host}, which the import reads.`,
        );
        expect(run.stderr).toContain(`DATABASE_URL=firestore://${site.projectId}/tutorbook`);
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
      expect(await snapshotDatabase(emulator.host, site.projectId)).toEqual(before);
    },
    cliTimeout,
  );

  test(
    'into a named database of the same project it imports, and the old site’s data stays as it was',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      const before = await snapshotDatabase(emulator.host, site.projectId);
      const run = await importCli([...filesOf(site), '--check-password', site.known.email], {
        env: { DATABASE_URL: `firestore://${site.projectId}/tutorbook` },
        input: `${site.known.password}\n`,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/users\s+3 read: 3 new/);
      expect(await snapshotDatabase(emulator.host, site.projectId)).toEqual(before);
      const own = emulatorFirestore(emulator.host, site.projectId, 'tutorbook');
      try {
        expect((await own.db.doc(`users/${site.known.uid}`).get()).get('email')).toBe(site.known.email);
        expect((await own.db.doc(`bookings/b1${site.tag}`).get()).get('studentEmail')).toBe(site.other.email);
      } finally {
        await own.close();
      }
    },
    cliTimeout,
  );
});

describe('the hash parameters are proven on a known password before anything is written', () => {
  test(
    'a signer key with one wrong character is refused, with a message, and nothing is written',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      const wrongFile = await hashFileWithOneWrongCharacter(site);
      const run = await importCli([...filesOf(site, wrongFile), '--check-password', site.known.email], {
        input: `${site.known.password}\n`,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim()).toBe(
        `Error: The hash parameters in ${wrongFile} do not verify the password given for ${site.known.email}: with them every imported password would be refused at login. Nothing was written. Copy base64_signer_key, base64_salt_separator, rounds and mem_cost again from the Firebase console (Authentication → Users → ⋮ → Password hash parameters) of the project the export came from, and check the password.`,
      );
      // The password is in no output.
      expect(run.stderr + run.stdout).not.toContain(site.known.password);
      // A wrong password for the right parameters is refused the same way.
      const mistyped = await importCli([...filesOf(site), '--check-password', site.known.email], {
        input: 'not the password\n',
      });
      expect(mistyped.code).toBe(1);
      expect(mistyped.stderr).toContain('do not verify the password given for');
      expect(await anyImported(site)).toBe(false);
    },
    cliTimeout,
  );

  test(
    'the right parameters pass and the import follows; the password is a line of standard input',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      // From a pipe, as `printf '%s\n' "$PASSWORD" | npm run cli -- …` gives it, with a Windows line end.
      const run = await importCli([...filesOf(site), '--check-password', site.known.email.toUpperCase(), '--dry-run'], {
        input: `${site.known.password}\r\nnext line ignored\n`,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`The hash parameters verify the password of ${site.known.email}.`);
      expect(run.stdout).toMatch(/users\s+3 read: 3 new/);
    },
    cliTimeout,
  );

  test(
    'an export with hashes needs the check, or --no-password-check, which warns',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      const unchecked = await importCli(filesOf(site));
      expect(unchecked.code).toBe(1);
      expect(unchecked.stderr).toContain(
        `Error: ${site.authExport} holds password hashes: name one account whose password you know with --check-password <email>`,
      );
      for (const [email, message] of [
        [site.google.email, `--check-password: ${site.google.email} has no password in ${site.authExport}`],
        ['nobody@example.com', `--check-password: nobody@example.com is not an account of ${site.authExport}.`],
      ] as const) {
        const run = await importCli([...filesOf(site), '--check-password', email], { input: 'x\n' });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(message);
      }
      const withoutParameters = await importCli(
        ['--project', site.projectId, '--auth-export', site.authExport, '--check-password', site.known.email],
        { input: `${site.known.password}\n` },
      );
      expect(withoutParameters.code).toBe(1);
      expect(withoutParameters.stderr).toContain('Error: --check-password goes with --auth-export and --hash-config.');
      const empty = await importCli([...filesOf(site), '--check-password', site.known.email]);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('no password was given on standard input');
      expect(await anyImported(site)).toBe(false);

      const escaped = await importCli([...filesOf(site), '--no-password-check']);
      expect(escaped.code, escaped.stderr).toBe(0);
      expect(escaped.stderr).toContain('Warning: the hash parameters were not checked (--no-password-check).');
      expect(escaped.stdout).toMatch(/users\s+3 read: 3 new/);
    },
    cliTimeout * 2,
  );

  test(
    'typed at a terminal, the password is not echoed',
    async () => {
      const site = await seedOldSite(emulator.host, workDir);
      // util-linux `script` gives the CLI a terminal of its own; what it prints, the terminal's echo included,
      // comes back on script's stdout.
      const command = [
        process.execPath,
        path.resolve('src/server/cli.ts'),
        'import',
        'firebase',
        ...filesOf(site),
        '--check-password',
        site.known.email,
        '--dry-run',
      ]
        .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
        .join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: { ...nodeChildEnv(), ...server.envVars, FIRESTORE_EMULATOR_HOST: emulator.host, LOG_LEVEL: 'silent' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const until = Date.now() + deadline(30_000);
      while (!output.includes('(not shown): ') && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toContain(`Password of ${site.known.email} on the old site (not shown): `);
      child.stdin.write(`${site.known.password}\r`);
      expect(await exited).toBe(0);
      expect(output).toContain(`The hash parameters verify the password of ${site.known.email}.`);
      expect(output).not.toContain(site.known.password);
    },
    cliTimeout,
  );
});

describe('after the import', () => {
  test('an imported hash that fails at login is logged with the account, never the password', async () => {
    const site = await seedOldSite(emulator.host, workDir);
    // Imported with a signer key one character off, as an unchecked import could.
    await importInProcess(site, await hashFileWithOneWrongCharacter(site));
    const refused = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: site.known.email,
      password: site.known.password,
    });
    expectApiError(refused, 401, 'auth.invalid_email_or_password');
    const logged = server.logs.filter(
      (line) => line.msg === 'login refused: the password does not match the account’s imported Firebase hash',
    );
    expect(logged.at(-1)).toMatchObject({ level: 40, userId: site.known.uid });
    expect(JSON.stringify(server.logs)).not.toContain(site.known.password);
  });

  test('the admin sees how many imported accounts have not logged in yet; nobody else may', async () => {
    const admin = await createVerifiedUser(server);
    await makeStaff(server, admin.email, 'admin');
    const adminClient = await logIn(server, admin);
    const waiting = async () => {
      const answer = await adminClient.get('/api/staff/imported-accounts');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      return (answer.body as { waitingForFirstLogin: number }).waitingForFirstLogin;
    };
    const before = await waiting();
    const site = await seedOldSite(emulator.host, workDir);
    await importInProcess(site);
    // Two with a password; the Google-only account is not counted.
    expect(await waiting()).toBe(before + 2);
    await logIn(server, site.other);
    expect(await waiting()).toBe(before + 1);

    expectApiError(await createClient(server.url).get('/api/staff/imported-accounts'), 401, 'auth.unauthenticated');
    const student = await createVerifiedUser(server);
    expectApiError(await (await logIn(server, student)).get('/api/staff/imported-accounts'), 403, 'auth.forbidden');
    const tutor = await createVerifiedUser(server);
    await makeStaff(server, tutor.email, 'tutor', ['Mathematics']);
    expectApiError(await (await logIn(server, tutor)).get('/api/staff/imported-accounts'), 403, 'auth.forbidden');
  });

  test('a Google-only account that asks for a new password is sent a "set a password" e-mail, not an invitation', async () => {
    const site = await seedOldSite(emulator.host, workDir);
    await importInProcess(site);
    const asked = await createClient(server.url).post('/api/auth/request-password-reset', { email: site.google.email });
    expect(asked.status, asked.text).toBe(200);
    const email = await smtp.waitForEmail({ to: site.google.email, subject: 'Set a password for TutorBook' });
    expect(email.text).toContain('You log in with Google and have no password yet');
    expect(smtp.unclaimed({ to: site.google.email, subject: 'You have been invited to TutorBook' })).toEqual([]);

    const browser = createClient(server.url);
    const opened = await browser.get(firstLink(email.text));
    expect(opened.status).toBe(302);
    const location = new URL(opened.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/change-password`);
    expect(location.searchParams.get('set')).toBe('1');
    const password = 'a first password of her own';
    const reset = await browser.post('/api/auth/reset-password', {
      token: location.searchParams.get('token'),
      newPassword: password,
    });
    expect(reset.status, reset.text).toBe(200);
    await logIn(server, { email: site.google.email, password });
    const methods = await server.services.deps.repos.accounts.loginMethods(site.google.uid);
    expect(methods.map((m) => m.providerId).sort()).toEqual(['credential', 'google']);
  });
});
