import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../test/main-process.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isAppError } from '../../http/errors.ts';
import {
  createClient,
  firstLink,
  logIn,
  createVerifiedUser,
  startSmtpServer,
  startTestServer,
  uniqueEmail,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { storedEmails, storedRows } from '../../test/stored.ts';
import { addStaff, listStaffMembers, removeStaff, type AddStaffInput } from './staff.usecases.ts';

let smtp: TestSmtpServer;
let server: TestServer;
let deps: Parameters<typeof addStaff>[0];

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  deps = { ...server.services.deps, auth: server.services.auth };
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const me = async (account: { email: string; password: string }) =>
  (await (await logIn(server, account)).get('/api/me')).body;

/** Follows an invitation (or reset) link to the change-password page and sets the password there. */
async function setPasswordFromEmail(email: string, subject: string, newPassword: string) {
  const message = await smtp.waitForEmail({ to: email, subject });
  const link = firstLink(message.text);
  expect(link.startsWith(`${server.url}/api/auth/reset-password/`)).toBe(true);
  const browser = createClient(server.url);
  const opened = await browser.get(link);
  expect(opened.status).toBe(302);
  const location = new URL(opened.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/change-password`);
  // The page then says "Set your password", not "choose a new one".
  expect(location.searchParams.get('invited')).toBe(subject.includes('invited') ? '1' : null);
  const reset = await browser.post('/api/auth/reset-password', {
    token: location.searchParams.get('token'),
    newPassword,
  });
  expect(reset.status).toBe(200);
  return message;
}

async function expectRefused(input: AddStaffInput, message: string) {
  const error = await addStaff(deps, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAppError(error)).toBe(true);
  expect(error).toMatchObject({ code: 'staff.invalid', status: 400 });
  expect((error as Error).message).toContain(message);
}

describe('adding staff', () => {
  test('an existing student becomes a tutor of the given categories, and their session shows it', async () => {
    const account = await createVerifiedUser(server);
    const client = await logIn(server, account);
    expect((await client.get('/api/me')).body).toMatchObject({ role: 'student', categories: [] });

    // Addresses are matched however they are typed.
    const result = await addStaff(deps, {
      email: `  ${account.email.toUpperCase()} `,
      role: 'tutor',
      categories: ['Statistics', 'Mathematics', 'Statistics'],
    });
    expect(result).toEqual({ outcome: 'promoted', email: account.email });
    // The same session sees the new role at once.
    expect((await client.get('/api/me')).body).toMatchObject({
      email: account.email,
      role: 'tutor',
      categories: ['Mathematics', 'Statistics'],
    });

    // Adding again replaces the categories.
    await addStaff(deps, { email: account.email, role: 'tutor', categories: ['Computer Science'] });
    expect((await client.get('/api/me')).body.categories).toEqual(['Computer Science']);

    // Promoting sends no e-mail.
    expect(smtp.unclaimed({ to: account.email, subject: 'invited' })).toHaveLength(0);
  });

  test('a new address gets an invitation e-mail whose link lets them set a password and log in as staff', async () => {
    const email = uniqueEmail('admin');
    const result = await addStaff(deps, { email, role: 'admin', name: 'Lerato Khumalo' });
    expect(result).toEqual({ outcome: 'invited', email });

    // No password yet: nobody can log in to the account before following the invitation.
    const early = await createClient(server.url).post('/api/auth/sign-in/email', {
      email,
      password: 'any password at all',
    });
    expect(early.status).toBe(401);

    const invitation = await setPasswordFromEmail(
      email,
      'You have been invited to TutorBook',
      'lerato staff passphrase',
    );
    expect(invitation.text).toContain('Hi Lerato Khumalo,');
    expect(invitation.html).toContain('Set my password');

    expect(await me({ email, password: 'lerato staff passphrase' })).toMatchObject({
      email,
      name: 'Lerato Khumalo',
      role: 'admin',
      categories: [],
      emailVerified: true,
    });
    // An invited account gets the invitation only, no verification or welcome-as-a-student e-mail.
    const queued = await storedEmails(server.services, [email]);
    expect(queued.map((r) => r.kind)).toEqual(['invitation']);
  });

  test('an invited tutor without a name is named after their address and sees their category', async () => {
    const email = uniqueEmail('tutor');
    await addStaff(deps, { email, role: 'tutor', categories: ['Mathematics'] });
    await setPasswordFromEmail(email, 'You have been invited', 'tutor passphrase 1');
    expect(await me({ email, password: 'tutor passphrase 1' })).toMatchObject({
      name: email.split('@')[0],
      role: 'tutor',
      categories: ['Mathematics'],
    });
  });

  test('bad input is refused and changes nothing', async () => {
    const email = uniqueEmail('refused');
    await expectRefused({ email, role: 'tutor' }, 'A tutor needs at least one --category.');
    await expectRefused(
      { email, role: 'tutor', categories: ['Astrology' as never] },
      'Category must be one of: Computer Science, Mathematics, Statistics.',
    );
    await expectRefused({ email, role: 'admin', categories: ['Mathematics'] }, 'Categories are for tutors only.');
    await expectRefused({ email: 'not-an-address', role: 'admin' }, 'Give a valid e-mail address.');
    await expectRefused({ email, role: 'student' as never }, '');

    expect(await server.services.deps.repos.accounts.findByEmail(email)).toBeUndefined();
    expect(smtp.unclaimed({ to: email })).toHaveLength(0);
  });
});

describe('removing and listing staff', () => {
  test('a removed tutor is a student again and keeps their account', async () => {
    const account = await createVerifiedUser(server);
    await addStaff(deps, { email: account.email, role: 'tutor', categories: ['Statistics'] });
    const client = await logIn(server, account);
    const before = (await client.get('/api/me')).body;
    expect(before).toMatchObject({ role: 'tutor', categories: ['Statistics'] });

    await removeStaff(deps, account.email.toUpperCase());
    expect((await client.get('/api/me')).body).toMatchObject({ id: before.id, role: 'student', categories: [] });
    expect(await server.services.deps.repos.accounts.categoriesOf(before.id)).toEqual([]);
    // Still able to log in with the same password.
    await logIn(server, account);
  });

  test('removing someone who is already a student says so and changes nothing', async () => {
    const account = await createVerifiedUser(server);
    const stored = () => server.services.deps.repos.accounts.findByEmail(account.email);
    const before = await stored();
    expect(before).toBeDefined();
    expect(await removeStaff(deps, account.email)).toBe('already-student');
    expect(await stored()).toEqual(before);
  });

  test('the only admin cannot be removed nor made a tutor; with a second admin, they can', async () => {
    // A server of its own: the others' admins would count here.
    const alone = await startTestServer({ smtpUrl: smtp.url });
    const aloneDeps = { ...alone.services.deps, auth: alone.services.auth };
    const users = () => storedRows(alone.services, 'users');
    try {
      const admin = await createVerifiedUser(alone, { name: 'Only Admin' });
      await addStaff(aloneDeps, { email: admin.email, role: 'admin' });
      const before = await users();

      const refusal = { code: 'staff.last_admin', status: 409 };
      await expect(removeStaff(aloneDeps, admin.email)).rejects.toMatchObject(refusal);
      await expect(
        addStaff(aloneDeps, { email: admin.email, role: 'tutor', categories: ['Statistics'] }),
      ).rejects.toMatchObject(refusal);
      await expect(removeStaff(aloneDeps, admin.email)).rejects.toThrow(
        `${admin.email} is the only admin, so they stay admin. Make someone else admin first (staff add <email> --role admin).`,
      );
      expect(await users()).toEqual(before);
      expect((await alone.services.deps.repos.accounts.listStaff()).flatMap((s) => s.categories)).toEqual([]);

      // Two admins removing each other at once: one of them stays.
      const second = await createVerifiedUser(alone, { name: 'Second Admin' });
      await addStaff(aloneDeps, { email: second.email, role: 'admin' });
      const outcomes = await Promise.allSettled([
        removeStaff(aloneDeps, admin.email),
        removeStaff(aloneDeps, second.email),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((await users()).filter((u) => u.role === 'admin')).toHaveLength(1);
    } finally {
      await alone.close();
    }
  });

  test('removing an unknown address says so', async () => {
    await expect(removeStaff(deps, 'nobody-here@example.com')).rejects.toMatchObject({
      code: 'staff.not_found',
      status: 404,
    });
  });

  test('the staff list shows admins and tutors with their categories, and no students', async () => {
    const student = await createVerifiedUser(server);
    const tutor = await createVerifiedUser(server, { name: 'Ayanda Zulu' });
    const admin = await createVerifiedUser(server, { name: 'Pieter Botha' });
    await addStaff(deps, { email: tutor.email, role: 'tutor', categories: ['Statistics', 'Computer Science'] });
    await addStaff(deps, { email: admin.email, role: 'admin' });

    const members = await listStaffMembers(server.services.deps);
    expect(members).toContainEqual({
      email: tutor.email,
      name: 'Ayanda Zulu',
      role: 'tutor',
      categories: ['Computer Science', 'Statistics'],
    });
    expect(members).toContainEqual({ email: admin.email, name: 'Pieter Botha', role: 'admin', categories: [] });
    expect(members.some((m) => m.email === student.email)).toBe(false);
    expect(members.every((m) => m.role === 'admin' || m.role === 'tutor')).toBe(true);
    // Admins first, then tutors; each group by address.
    const roles = members.map((m) => m.role);
    expect(roles).toEqual([...roles].sort());
    expect(new Set(members.map((m) => m.email)).size).toBe(members.length);
  });
});

describe('the staff command line', () => {
  // Only the test server's variables: the CLI must find the same data, database and mail server.
  const cli = (args: string[]) => runCli(args, server.envVars);

  test("without the server's DATA_DIR, it says there is no database there and makes none", async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tutorbook-cli-'));
    try {
      const listed = await runCli(['staff', 'list'], { DATA_DIR: elsewhere });
      expect(listed.stdout).toBe('');
      expect(listed.stderr.trim()).toBe(
        `Error: there is no database at ${path.join(elsewhere, 'app.db')}. The command line works on the server's ` +
          "data: give it the server's DATA_DIR or DATABASE_URL (npm start and npm run cli both read them from .env).",
      );
      expect(listed.code).toBe(1);
      expect(existsSync(path.join(elsewhere, 'app.db'))).toBe(false);
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('`staff add --role admin` invites a new admin, who can then log in', async () => {
    const email = uniqueEmail('cli-admin');
    const added = await cli(['staff', 'add', email, '--role', 'admin', '--name', 'Nomsa Admin']);
    expect(added.stderr).toBe('');
    expect(added.stdout.trim()).toBe(`Invited ${email} as admin; an e-mail to set a password is on its way.`);
    expect(added.code).toBe(0);

    await setPasswordFromEmail(email, 'You have been invited to TutorBook', 'nomsa admin passphrase');
    expect(await me({ email, password: 'nomsa admin passphrase' })).toMatchObject({
      role: 'admin',
      name: 'Nomsa Admin',
    });

    const listed = await cli(['staff', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^admin\\s+${email.replace(/[.+]/g, '\\$&')}\\s+Nomsa Admin$`, 'm'));
  });

  test('`staff add` of an address someone else signed up with and never verified hands them nothing: the owner is invited', async () => {
    // Someone signs up with the future admin's address and a password of their own; the address stays unverified.
    const email = uniqueEmail('future-admin');
    const impostor = createClient(server.url);
    const impostorPassword = 'impostors passphrase';
    expect(
      (await impostor.post('/api/auth/sign-up/email', { name: 'Impostor', email, password: impostorPassword })).status,
    ).toBe(200);
    const verificationLink = firstLink((await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' })).text);

    const added = await cli(['staff', 'add', email, '--role', 'admin', '--name', 'Zodwa Admin']);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout.trim()).toBe(
      `${email} had signed up but never verified the address, so its password and sessions were removed. Invited as admin; an e-mail to set a password is on its way.`,
    );

    // The real owner clicks the verification link the sign-up sent. Even with that token, the impostor's
    // password opens nothing: it is gone.
    const token = new URL(
      (await createClient(server.url).get(verificationLink)).headers.get('location')!,
      server.url,
    ).searchParams.get('verify');
    for (const body of [
      { email, password: impostorPassword, verificationToken: token },
      { email, password: impostorPassword },
    ]) {
      const attempt = await impostor.post('/api/auth/sign-in/email', body);
      expect(attempt.status).toBe(401);
      expect(impostor.hasSessionCookie()).toBe(false);
    }
    expect((await impostor.get('/api/me')).status).toBe(401);

    // The owner sets a password from the invitation and is the admin, under the name given.
    await setPasswordFromEmail(email, 'You have been invited to TutorBook', 'zodwa admin passphrase');
    expect(await me({ email, password: 'zodwa admin passphrase' })).toMatchObject({
      email,
      name: 'Zodwa Admin',
      role: 'admin',
      emailVerified: true,
    });
    expect((await impostor.post('/api/auth/sign-in/email', { email, password: impostorPassword })).status).toBe(401);
  });

  test('`staff remove` says whether anything changed', async () => {
    const account = await createVerifiedUser(server);
    const student = await cli(['staff', 'remove', account.email]);
    expect(student).toMatchObject({ code: 0, stderr: '' });
    expect(student.stdout.trim()).toBe(`${account.email} is not staff: nothing changed.`);

    await addStaff(deps, { email: account.email, role: 'tutor', categories: ['Mathematics'] });
    const tutor = await cli(['staff', 'remove', account.email]);
    expect(tutor).toMatchObject({ code: 0, stderr: '' });
    expect(tutor.stdout.trim()).toBe(`${account.email} is now a student.`);
  });

  test('`staff add` of a tutor without a category fails with a clear message and exit code 1', async () => {
    const email = uniqueEmail('cli-tutor');
    const result = await cli(['staff', 'add', email, '--role', 'tutor']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('Error: A tutor needs at least one --category.');
    expect(await server.services.deps.repos.accounts.findByEmail(email)).toBeUndefined();
  });
});
