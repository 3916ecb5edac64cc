import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authMessages } from '../../common/auth.schemas.ts';
import {
  createClient,
  firstLink,
  logIn,
  sessionCookieName,
  signUpAndVerify,
  startSmtpServer,
  startTestServer,
  testPassword,
  uniqueEmail,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';

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

/** The `href` of the first link in an HTML body, with entities decoded. */
function firstHref(html: string): string {
  const href = html.match(/href="([^"]+)"/)?.[1];
  if (!href) throw new Error(`No link in:\n${html}`);
  return href.replaceAll('&amp;', '&');
}

describe('signing up', () => {
  test('a student signs up, verifies the e-mail, logs in, sees their account and logs out', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);

    const signUp = await client.post('/api/auth/sign-up/email', {
      name: '  Thandi Mokoena ',
      email,
      password: testPassword,
      callbackURL: '/login?verified=1',
    });
    expect(signUp.status).toBe(200);
    expect(signUp.body.user).toMatchObject({ email, name: 'Thandi Mokoena', emailVerified: false, role: 'student' });
    // No session until the address is verified.
    expect(client.hasSessionCookie()).toBe(false);

    const verification = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail for TutorBook' });
    const link = firstLink(verification.text);
    expect(link.startsWith(`${server.url}/api/auth/verify-email?token=`)).toBe(true);
    expect(verification.text).toContain('Hi Thandi Mokoena,');
    expect(verification.html).toContain('<a href=');
    expect(firstHref(verification.html)).toBe(link);

    const welcome = await smtp.waitForEmail({ to: email, subject: 'Welcome to TutorBook!' });
    expect(welcome.seq).toBeGreaterThan(verification.seq);
    expect(welcome.text).toContain(`${server.url}/offers`);
    expect(welcome.html).toContain('Welcome, Thandi Mokoena!');

    const verified = await client.get(link);
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/login?verified=1');

    const login = await client.post('/api/auth/sign-in/email', { email, password: testPassword });
    expect(login.status).toBe(200);
    expect(client.hasSessionCookie()).toBe(true);
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const me = await client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: expect.any(String), name: 'Thandi Mokoena', email, emailVerified: true, role: 'student', categories: [] });
    expect(me.headers.get('cache-control')).toBe('no-store');

    const sessionCookie = client.cookies.get(sessionCookieName)!;
    const signOut = await client.post('/api/auth/sign-out');
    expect(signOut.status).toBe(200);
    expect(client.hasSessionCookie()).toBe(false);
    const after = await client.get('/api/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('auth.unauthenticated');

    // The session is gone on the server too, not only from this client's cookies.
    const replay = await createClient(server.url).get('/api/me', { headers: { cookie: `${sessionCookieName}=${sessionCookie}` } });
    expect(replay.status).toBe(401);
  });

  test('a name with markup is shown as text in the e-mail, never as HTML', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);
    const signUp = await client.post('/api/auth/sign-up/email', { name: 'Zanele <b>Dube</b> & Co', email, password: testPassword });
    expect(signUp.status).toBe(200);
    const verification = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
    expect(verification.html).toContain('Hi Zanele &lt;b&gt;Dube&lt;/b&gt; &amp; Co,');
    expect(verification.html).not.toContain('<b>Dube</b>');
    expect(verification.text).toContain('Hi Zanele <b>Dube</b> & Co,');
  });

  test('signing up again with a taken address reveals nothing, changes nothing, and tells the owner by e-mail', async () => {
    const account = await signUpAndVerify(server, smtp);
    const outboxRows = () => server.services.db.selectFrom('email_outbox').select('id').where('to_address', '=', account.email).execute();
    const rowsBefore = (await outboxRows()).length;

    const again = await createClient(server.url).post('/api/auth/sign-up/email', { name: 'Someone Else', email: account.email, password: 'another password' });
    // better-auth answers as for a new account, so sign-up cannot be used to find out who has one.
    expect(again.status).toBe(200);
    expect(again.body.token).toBeNull();
    const me = await (await logIn(server, account)).get('/api/me');
    expect(again.body.user.id).not.toBe(me.body.id);
    expect(me.body.name).toBe(account.name);

    const intruder = await createClient(server.url).post('/api/auth/sign-in/email', { email: account.email, password: 'another password' });
    expect(intruder.status).toBe(401);
    expect((await outboxRows()).length).toBe(rowsBefore + 1);
    const notice = await smtp.waitForEmail({ to: account.email, subject: 'You already have a TutorBook account' });
    expect(notice.text).toContain(`${server.url}/login`);
    expect(notice.text).toContain(`${server.url}/change-password`);
  });

  test('a sign-up cannot make itself staff', async () => {
    const email = uniqueEmail();
    const response = await createClient(server.url).post('/api/auth/sign-up/email', { name: 'Sneaky', email, password: testPassword, role: 'admin' });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ _form: 'Unknown field: role.' });
    const row = await server.services.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('logging in', () => {
  test('a login before verifying is refused with the spec message, sets no session, and sends a fresh link', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);
    expect((await client.post('/api/auth/sign-up/email', { name: 'Sipho', email, password: testPassword })).status).toBe(200);
    await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });

    const login = await client.post('/api/auth/sign-in/email', { email, password: testPassword });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ error: { code: 'auth.email_not_verified', message: 'Please verify your email before logging in. Check your inbox or spam folder.' } });
    expect(login.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName}=`))).toBe(false);
    expect(client.hasSessionCookie()).toBe(false);
    expect((await client.get('/api/me')).status).toBe(401);

    // A second verification link, and still only one welcome e-mail queued for the account.
    const second = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
    expect(firstLink(second.text).startsWith(`${server.url}/api/auth/verify-email?token=`)).toBe(true);
    const welcomes = await server.services.db
      .selectFrom('email_outbox')
      .select('id')
      .where('to_address', '=', email)
      .where('kind', '=', 'welcome')
      .execute();
    expect(welcomes).toHaveLength(1);

    // The fresh link works.
    expect((await client.get(firstLink(second.text))).status).toBe(302);
    await logIn(server, { email, password: testPassword });
  });

  test('a wrong password and an unknown e-mail get the same answer', async () => {
    const account = await signUpAndVerify(server, smtp);
    const expected = { error: { code: 'auth.invalid_email_or_password', message: 'Incorrect email or password. Please try again.' } };

    const client = createClient(server.url);
    const wrong = await client.post('/api/auth/sign-in/email', { email: account.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(expected);
    expect(client.hasSessionCookie()).toBe(false);

    const unknown = await client.post('/api/auth/sign-in/email', { email: uniqueEmail('nobody'), password: 'not the password' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(expected);
  });

  test('the e-mail is matched regardless of case and surrounding spaces', async () => {
    const account = await signUpAndVerify(server, smtp);
    const client = createClient(server.url);
    const login = await client.post('/api/auth/sign-in/email', { email: `  ${account.email.toUpperCase()} `, password: account.password });
    expect(login.status).toBe(200);
    expect((await client.get('/api/me')).body.email).toBe(account.email);
  });
});

describe('origin checks', () => {
  test('a POST carrying the session cookie from another site, or with no Origin, is refused', async () => {
    const account = await signUpAndVerify(server, smtp);
    const client = await logIn(server, account);

    const foreign = await client.post('/api/auth/sign-out', {}, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('auth.invalid_origin');

    const cookie = `${sessionCookieName}=${client.cookies.get(sessionCookieName)}`;
    const noOrigin = await fetch(`${server.url}/api/auth/sign-out`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(noOrigin.status).toBe(403);

    // Neither request signed the user out.
    expect((await client.get('/api/me')).status).toBe(200);
  });

  test('sign-up refuses a callback URL on another site (no open redirect)', async () => {
    const response = await createClient(server.url).post('/api/auth/sign-up/email', {
      name: 'Redirected',
      email: uniqueEmail(),
      password: testPassword,
      callbackURL: 'https://evil.example/phish',
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.invalid_callback_url');
  });
});

describe('password reset', () => {
  test('asking for a reset of an unknown e-mail says so', async () => {
    const response = await createClient(server.url).post('/api/auth/request-password-reset', { email: uniqueEmail('nobody'), redirectTo: `${server.url}/change-password` });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'auth.user_not_found', message: 'No user found with that email address.' } });
  });

  test('a student resets their password from the e-mailed link; the old password and other sessions stop working', async () => {
    const account = await signUpAndVerify(server, smtp);
    const phone = await logIn(server, account);
    const laptop = await logIn(server, account);
    expect((await phone.get('/api/me')).status).toBe(200);

    const request = await createClient(server.url).post('/api/auth/request-password-reset', { email: account.email, redirectTo: `${server.url}/change-password` });
    expect(request.status).toBe(200);

    const resetEmail = await smtp.waitForEmail({ to: account.email, subject: 'Reset your TutorBook password' });
    const link = firstLink(resetEmail.text);
    expect(link.startsWith(`${server.url}/api/auth/reset-password/`)).toBe(true);
    expect(firstHref(resetEmail.html)).toBe(link);

    const browser = createClient(server.url);
    const opened = await browser.get(link);
    expect(opened.status).toBe(302);
    const location = new URL(opened.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/change-password`);
    const token = location.searchParams.get('token');
    expect(token).toBeTruthy();

    const newPassword = 'a brand new passphrase';
    const reset = await browser.post('/api/auth/reset-password', { token, newPassword });
    expect(reset.status).toBe(200);

    const old = await createClient(server.url).post('/api/auth/sign-in/email', { email: account.email, password: account.password });
    expect(old.status).toBe(401);
    expect(old.body.error.message).toBe(authMessages.incorrectCredentials);
    await logIn(server, { email: account.email, password: newPassword });

    expect((await phone.get('/api/me')).status).toBe(401);
    expect((await laptop.get('/api/me')).status).toBe(401);

    // The link is used up.
    const again = await browser.post('/api/auth/reset-password', { token, newPassword: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('This link is invalid or has expired. Please ask for a new one.');
  });

  test('a made-up reset token is refused', async () => {
    const response = await createClient(server.url).post('/api/auth/reset-password', { token: 'made-up-token', newPassword: 'whatever passphrase' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('auth.invalid_token');
  });
});

describe('rate limiting', () => {
  let limited: TestServer;
  let behindProxy: TestServer;

  beforeAll(async () => {
    limited = await startTestServer({ smtpUrl: smtp.url, rateLimit: true });
    behindProxy = await startTestServer({ smtpUrl: smtp.url, rateLimit: true, trustProxy: true });
  });

  afterAll(async () => {
    await limited?.close();
    await behindProxy?.close();
  });

  const tooMany = { error: { code: 'auth.too_many_requests', message: 'Too many login attempts. Please wait and try again later.' } };

  test('repeated failed logins from one address are stopped, and a forged X-Forwarded-For does not escape the limit', async () => {
    const account = await signUpAndVerify(limited, smtp);
    const client = createClient(limited.url);
    const attempt = (password: string, headers: Record<string, string> = {}) =>
      client.post('/api/auth/sign-in/email', { email: account.email, password }, { headers });

    for (let i = 0; i < 5; i++) expect((await attempt('wrong password')).status).toBe(401);

    const limitedResponse = await attempt('wrong password');
    expect(limitedResponse.status).toBe(429);
    expect(limitedResponse.body).toEqual(tooMany);

    // Even the right password waits now: the limit is on the address, not the guess.
    expect((await attempt(account.password)).status).toBe(429);
    const forged = await attempt(account.password, { 'x-forwarded-for': '198.51.100.23' });
    expect(forged.status).toBe(429);
    expect(forged.body).toEqual(tooMany);
    expect(client.hasSessionCookie()).toBe(false);
  });

  test('behind a trusted proxy each forwarded client has its own limit, taken from the entry the proxy added', async () => {
    const client = createClient(behindProxy.url);
    const attempt = (forwardedFor: string) =>
      client.post('/api/auth/sign-in/email', { email: uniqueEmail('nobody'), password: 'wrong password' }, { headers: { 'x-forwarded-for': forwardedFor } });

    for (let i = 0; i < 5; i++) expect((await attempt('203.0.113.7')).status).toBe(401);
    expect((await attempt('203.0.113.7')).status).toBe(429);
    // A client cannot choose its address by sending its own header: the proxy appends the real one last.
    expect((await attempt('203.0.113.99, 203.0.113.7')).status).toBe(429);
    // Another client is not affected.
    expect((await attempt('203.0.113.8')).status).toBe(401);
  });
});

describe('Google sign-in', () => {
  test('is off without keys, and with keys sends the user to Google with our client id and callback', async () => {
    expect((await createClient(server.url).get('/api/config')).body.googleSignIn).toBe(false);
    const off = await createClient(server.url).post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/offers' });
    expect(off.status).toBeGreaterThanOrEqual(400);
    expect(off.status).toBeLessThan(500);

    const withGoogle = await startTestServer({
      smtpUrl: smtp.url,
      env: { GOOGLE_CLIENT_ID: 'test-client-id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'test-secret' },
    });
    try {
      const client = createClient(withGoogle.url);
      expect((await client.get('/api/config')).body.googleSignIn).toBe(true);
      const start = await client.post('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/offers?google=login',
        newUserCallbackURL: '/offers?google=signup',
      });
      expect(start.status).toBe(200);
      const url = new URL(start.body.url);
      expect(url.origin).toBe('https://accounts.google.com');
      expect(url.searchParams.get('client_id')).toBe('test-client-id.apps.googleusercontent.com');
      expect(url.searchParams.get('redirect_uri')).toBe(`${withGoogle.url}/api/auth/callback/google`);
      expect(url.searchParams.get('state')).toBeTruthy();
    } finally {
      await withGoogle.close();
    }
  });
});
