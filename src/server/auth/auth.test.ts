import { serializeSignedCookie } from 'better-call';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authMessages } from '../../common/auth.schemas.ts';
import {
  createClient,
  firstLink,
  logIn,
  sessionCookieName,
  createVerifiedUser,
  expectApiError,
  logInWithLink,
  signInAs,
  signUpAndVerify,
  startSmtpServer,
  startTestServer,
  testPassword,
  uniqueEmail,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { backdateEmails, setSessionExpiry, storedAuthRecords, storedEmails } from '../test/stored.ts';
import { passwordResetAnswerMs } from './auth.routes.ts';

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

/** How many e-mails of `kind` were queued for `to`. */
async function queued(to: string, kind: string): Promise<number> {
  return (await storedEmails(server.services, [to])).filter((e) => e.kind === kind).length;
}

async function isVerified(email: string): Promise<boolean> {
  const account = await server.services.deps.repos.accounts.findByEmail(email);
  if (!account) throw new Error(`no account for ${email}`);
  return account.emailVerified;
}

describe('signing up', () => {
  test('a student signs up, confirms the address by logging in from the e-mailed link, sees their account and logs out', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);

    const signUp = await client.post('/api/auth/sign-up/email', {
      name: '  Thandi Mokoena ',
      email,
      password: testPassword,
    });
    expect(signUp.status).toBe(200);
    expect(signUp.body.user).toMatchObject({ email, name: 'Thandi Mokoena', emailVerified: false, role: 'student' });
    expect(signUp.body).not.toHaveProperty('token');
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

    // The link opens the login page with its token; by itself it verifies nothing.
    const opened = await client.get(link);
    expect(opened.status).toBe(302);
    const location = new URL(opened.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/login');
    const verificationToken = location.searchParams.get('verify');
    expect(verificationToken).toBeTruthy();
    expect(await isVerified(email)).toBe(false);

    const login = await client.post('/api/auth/sign-in/email', { email, password: testPassword, verificationToken });
    expect(login.status, login.text).toBe(200);
    expect(login.body).not.toHaveProperty('token');
    expect(login.body.user).toMatchObject({ email, emailVerified: true });
    expect(await isVerified(email)).toBe(true);
    expect(client.hasSessionCookie()).toBe(true);
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const me = await client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      name: 'Thandi Mokoena',
      email,
      emailVerified: true,
      role: 'student',
      categories: [],
    });
    expect(me.headers.get('cache-control')).toBe('no-store');

    const sessionCookie = client.cookies.get(sessionCookieName)!;
    const signOut = await client.post('/api/auth/sign-out');
    expect(signOut.status).toBe(200);
    expect(client.hasSessionCookie()).toBe(false);
    const after = await client.get('/api/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('auth.unauthenticated');

    // The session is gone on the server too, not only from this client's cookies.
    const replay = await createClient(server.url).get('/api/me', {
      headers: { cookie: `${sessionCookieName}=${sessionCookie}` },
    });
    expect(replay.status).toBe(401);
  });

  test('a name with markup is shown as text in the e-mail, never as HTML', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);
    const signUp = await client.post('/api/auth/sign-up/email', {
      name: 'Zanele <b>Dube</b> & Co',
      email,
      password: testPassword,
    });
    expect(signUp.status).toBe(200);
    const verification = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
    expect(verification.html).toContain('Hi Zanele &lt;b&gt;Dube&lt;/b&gt; &amp; Co,');
    expect(verification.html).not.toContain('<b>Dube</b>');
    expect(verification.text).toContain('Hi Zanele <b>Dube</b> & Co,');
  });

  test('signing up again with a taken address reveals nothing, changes nothing, and tells the owner by e-mail', async () => {
    const account = await signUpAndVerify(server, smtp);
    const outboxRows = () => storedEmails(server.services, [account.email]);
    const rowsBefore = (await outboxRows()).length;

    const again = await createClient(server.url).post('/api/auth/sign-up/email', {
      name: 'Someone Else',
      email: account.email,
      password: 'another password',
    });
    // better-auth answers as for a new account, so sign-up cannot be used to find out who has one.
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('token');
    const me = await (await logIn(server, account)).get('/api/me');
    expect(again.body.user.id).not.toBe(me.body.id);
    expect(me.body.name).toBe(account.name);

    const intruder = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: account.email,
      password: 'another password',
    });
    expect(intruder.status).toBe(401);
    expect((await outboxRows()).length).toBe(rowsBefore + 1);
    const notice = await smtp.waitForEmail({ to: account.email, subject: 'You already have a TutorBook account' });
    expect(notice.text).toContain(`${server.url}/login`);
    expect(notice.text).toContain(`${server.url}/change-password`);
  });

  test('a sign-up cannot make itself staff', async () => {
    const email = uniqueEmail();
    const response = await createClient(server.url).post('/api/auth/sign-up/email', {
      name: 'Sneaky',
      email,
      password: testPassword,
      role: 'admin',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ _form: 'Unknown field: role.' });
    expect(await server.services.deps.repos.accounts.findByEmail(email)).toBeUndefined();
  });
});

describe('logging in', () => {
  test('a login before verifying is refused with the spec message, sets no session and sends nothing; "send it again" sends one link a minute', async () => {
    const email = uniqueEmail();
    const client = createClient(server.url);
    expect(
      (await client.post('/api/auth/sign-up/email', { name: 'Sipho', email, password: testPassword })).status,
    ).toBe(200);
    const first = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });

    const login = await client.post('/api/auth/sign-in/email', { email, password: testPassword });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({
      error: {
        code: 'auth.email_not_verified',
        message: 'Please verify your email before logging in. Check your inbox or spam folder.',
      },
    });
    expect(login.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName}=`))).toBe(false);
    expect(client.hasSessionCookie()).toBe(false);
    expect((await client.get('/api/me')).status).toBe(401);
    // A refused login queues no e-mail: the app offers to send the link again, and says so when it does.
    expect(await queued(email, 'verification')).toBe(1);

    // Within a minute of the last one, asking again sends nothing (the answer is the same either way).
    const tooSoon = await client.post('/api/auth/send-verification-email', { email });
    expect(tooSoon.status).toBe(200);
    expect(await queued(email, 'verification')).toBe(1);

    // A minute later it does; the first link still works too, and only one welcome e-mail is ever sent.
    await backdateEmails(server.services, email, 61_000);
    expect((await client.post('/api/auth/send-verification-email', { email })).status).toBe(200);
    const second = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(await queued(email, 'welcome')).toBe(1);
    expect((await logInWithLink(client, firstLink(second.text), { email, password: testPassword })).status).toBe(200);
  });

  test('"send it again" answers the same for an unknown, a verified and an unverified address', async () => {
    const verified = await createVerifiedUser(server);
    const unknown = uniqueEmail('nobody');
    for (const email of [verified.email, unknown]) {
      const response = await createClient(server.url).post('/api/auth/send-verification-email', { email });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: true });
      expect(await queued(email, 'verification')).toBe(0);
    }
    const bad = await createClient(server.url).post('/api/auth/send-verification-email', { email: 'not an address' });
    expectApiError(bad, 400, 'request.invalid');
  });

  test('a wrong password and an unknown e-mail get the same answer', async () => {
    const account = await createVerifiedUser(server);
    const expected = {
      error: { code: 'auth.invalid_email_or_password', message: 'Incorrect email or password. Please try again.' },
    };

    const client = createClient(server.url);
    const wrong = await client.post('/api/auth/sign-in/email', { email: account.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(expected);
    expect(client.hasSessionCookie()).toBe(false);

    const unknown = await client.post('/api/auth/sign-in/email', {
      email: uniqueEmail('nobody'),
      password: 'not the password',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(expected);
  });

  test('the e-mail is matched regardless of case and surrounding spaces', async () => {
    const account = await createVerifiedUser(server);
    const client = createClient(server.url);
    const login = await client.post('/api/auth/sign-in/email', {
      email: `  ${account.email.toUpperCase()} `,
      password: account.password,
    });
    expect(login.status).toBe(200);
    expect((await client.get('/api/me')).body.email).toBe(account.email);
  });
});

describe('the session cookie', () => {
  test('is `__session`, the one cookie Firebase Hosting passes, and Secure over https', async () => {
    const site = 'https://tutorbook.example';
    const behindHttps = await startTestServer({ smtpUrl: smtp.url, env: { PUBLIC_URL: site } });
    try {
      const account = await createVerifiedUser(behindHttps);
      const client = createClient(behindHttps.url);
      const login = await client.post(
        '/api/auth/sign-in/email',
        { email: account.email, password: account.password },
        { headers: { origin: site } },
      );
      expect(login.status, login.text).toBe(200);
      const cookies = login.headers.getSetCookie();
      expect(cookies.map((c) => c.split('=')[0])).toEqual(['__session']);
      expect(cookies[0]).toMatch(/; Secure/i);
      expect(cookies[0]).toMatch(/; HttpOnly/i);
    } finally {
      await behindHttps.close();
    }
  });
});

describe('reading a session', () => {
  /** A client holding only this session cookie value (as a browser sends it, URL-encoded). */
  const withCookie = (value: string) =>
    createClient(server.url).get('/api/me', {
      headers: { cookie: `${sessionCookieName}=${encodeURIComponent(value)}` },
    });
  const idOf = async (email: string) => (await server.services.deps.repos.accounts.findByEmail(email))!.id;
  /** better-auth's expiry as the engine keeps it: an ISO string (SQLite), a Date (PostgreSQL), a Timestamp (Firestore). */
  const storedTime = (value: unknown) =>
    value instanceof Date
      ? value
      : typeof value === 'string'
        ? new Date(value)
        : (value as { toDate(): Date }).toDate();
  /**
   * The value signed by better-auth's own cookie library (better-call's public `serializeSignedCookie`, which
   * better-auth signs its cookies with): the server's check (auth.session.ts, node:crypto) must agree with it.
   */
  const sign = async (value: string) => {
    const { secret } = await server.services.auth.$context;
    const header = await serializeSignedCookie('signed', value, secret);
    return decodeURIComponent(header.slice('signed='.length).split(';')[0]!);
  };

  test("a cookie without the server's signature, or naming no session, is a visitor's", async () => {
    const account = await createVerifiedUser(server);
    const client = await logIn(server, account);
    const token = decodeURIComponent(client.cookies.get(sessionCookieName)!).split('.')[0]!;
    // Signed as better-auth signs it, the token is the session: the server reads the cookie as better-auth does.
    expect((await withCookie(await sign(token))).status).toBe(200);

    for (const forged of [
      token,
      `${token}.`,
      `${token}.${'A'.repeat(43)}=`,
      `${token}.${(await sign(token)).slice(-44, -2)}`,
    ]) {
      expectApiError(await withCookie(forged), 401, 'auth.unauthenticated');
    }
    expectApiError(await withCookie(await sign('no-session-has-this-token')), 401, 'auth.unauthenticated');
  });

  test('a session found expired is refused and removed; one due for its daily refresh is extended', async () => {
    const day = 24 * 60 * 60 * 1000;
    const expired = await createVerifiedUser(server);
    const expiredClient = await logIn(server, expired);
    const expiredId = await idOf(expired.email);
    await setSessionExpiry(server.services, expiredId, new Date(Date.now() - 60_000));
    expectApiError(await expiredClient.get('/api/me'), 401, 'auth.unauthenticated');
    expect(await storedAuthRecords(server.services, 'sessions', expiredId)).toEqual([]);

    // Sessions last 7 days and are extended once a day: this one was last extended a day and a minute ago.
    const returning = await createVerifiedUser(server);
    const returningClient = await logIn(server, returning);
    const lastExtended = new Date(Date.now() + 6 * day - 60_000);
    const returningId = await idOf(returning.email);
    await setSessionExpiry(server.services, returningId, lastExtended);
    expect((await returningClient.get('/api/me')).status).toBe(200);
    const [session] = await storedAuthRecords(server.services, 'sessions', returningId);
    expect(storedTime(session!.expires_at).getTime()).toBeGreaterThan(Date.now() + 7 * day - 60_000);
  });
});

describe('origin checks', () => {
  test('a POST carrying the session cookie from another site, or with no Origin, is refused', async () => {
    const account = await createVerifiedUser(server);
    const client = await logIn(server, account);

    const foreign = await client.post('/api/auth/sign-out', {}, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('auth.invalid_origin');

    const cookie = `${sessionCookieName}=${client.cookies.get(sessionCookieName)}`;
    const noOrigin = await fetch(`${server.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noOrigin.status).toBe(403);

    // Neither request signed the user out.
    expect((await client.get('/api/me')).status).toBe(200);
  });

  test('no redirect target can be chosen by the client (no open redirect)', async () => {
    const signUp = await createClient(server.url).post('/api/auth/sign-up/email', {
      name: 'Redirected',
      email: uniqueEmail(),
      password: testPassword,
      callbackURL: 'https://evil.example/phish',
    });
    expect(signUp.status).toBe(400);
    expect(signUp.body.error.fields).toEqual({ _form: 'Unknown field: callbackURL.' });

    const account = await createVerifiedUser(server);
    const reset = await createClient(server.url).post('/api/auth/request-password-reset', {
      email: account.email,
      redirectTo: 'https://evil.example/phish',
    });
    expect(reset.status).toBe(400);
    expect(smtp.unclaimed({ to: account.email })).toHaveLength(0);
  });
});

describe('password reset', () => {
  test('every address gets the same answer to a reset request, no sooner than the floor: nobody learns who has an account', async () => {
    const account = await createVerifiedUser(server);
    const unknown = uniqueEmail('nobody');
    const ask = async (email: string) => {
      const started = performance.now();
      const { status, body } = await createClient(server.url).post('/api/auth/request-password-reset', { email });
      return { status, body, ms: performance.now() - started };
    };
    const known = await ask(account.email);
    const nobody = await ask(unknown);
    for (const answer of [known, nobody]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        status: true,
        message: 'If this email exists in our system, check your email for the reset link',
      });
      // The floor sets the time, not the work (a known address stores a link and queues an e-mail).
      expect(answer.ms).toBeGreaterThanOrEqual(passwordResetAnswerMs);
    }
    await smtp.waitForEmail({ to: account.email, subject: 'Reset your TutorBook password' });
    expect(smtp.unclaimed({ to: unknown })).toHaveLength(0);
  });

  test('a student resets their password from the e-mailed link; the old password and other sessions stop working', async () => {
    const account = await createVerifiedUser(server);
    const phone = await logIn(server, account);
    const laptop = await logIn(server, account);
    expect((await phone.get('/api/me')).status).toBe(200);

    const request = await createClient(server.url).post('/api/auth/request-password-reset', { email: account.email });
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

    const old = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: account.email,
      password: account.password,
    });
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
    const response = await createClient(server.url).post('/api/auth/reset-password', {
      token: 'made-up-token',
      newPassword: 'whatever passphrase',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('auth.invalid_token');
  });

  // The link's token is looked up as given: on Firestore a value over 1,500 bytes cannot be (an error, a 500).
  test.each([
    ['3,000 bytes long', 'x'.repeat(3000)],
    ['of 500 emoji (2,000 bytes)', '%F0%9F%98%80'.repeat(500)],
    ['__proto__', '__proto__'],
  ])('a made-up reset link with a token %s leads where any made-up link leads', async (_, token) => {
    const callback = encodeURIComponent(`${server.url}/change-password`);
    const open = (t: string) => createClient(server.url).get(`/api/auth/reset-password/${t}?callbackURL=${callback}`);
    const [made, known] = [await open(token), await open('made-up-token')];
    expect(made.status, made.text).toBe(302);
    expect(made.headers.get('location')).toBe(known.headers.get('location'));
    expect(known.headers.get('location')).toContain('error=INVALID_TOKEN');
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

  const tooMany = {
    error: { code: 'auth.too_many_requests', message: 'Too many login attempts. Please wait and try again later.' },
  };

  test('repeated failed logins from one address are stopped, and a forged X-Forwarded-For does not escape the limit', async () => {
    const account = await createVerifiedUser(limited);
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
      client.post(
        '/api/auth/sign-in/email',
        { email: uniqueEmail('nobody'), password: 'wrong password' },
        { headers: { 'x-forwarded-for': forwardedFor } },
      );

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
    const off = await createClient(server.url).post('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/offers',
    });
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

  test('its state survives Firebase Hosting, which passes the __session cookie alone', async () => {
    const withGoogle = await startTestServer({
      smtpUrl: smtp.url,
      env: { GOOGLE_CLIENT_ID: 'test-client-id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'test-secret' },
    });
    try {
      const start = await createClient(withGoogle.url).post('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/offers?google=login',
      });
      const state = new URL(start.body.url).searchParams.get('state')!;
      // What the browser sends back through Hosting: the one cookie it passes (docs/decisions/0038).
      const passed = start.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .filter((pair) => pair.startsWith('__session='));
      expect(passed).toHaveLength(1);
      const callback = await fetch(
        `${withGoogle.url}/api/auth/callback/google?state=${encodeURIComponent(state)}&code=not-a-real-code`,
        { headers: { cookie: passed[0]! }, redirect: 'manual' },
      );
      // The state is found and proven; what fails is the exchange of a made-up code with Google, unreachable here.
      const to = new URL(callback.headers.get('location')!, withGoogle.url);
      expect(to.searchParams.get('error')).toBe('invalid_code');
    } finally {
      await withGoogle.close();
    }
  });
});

describe('confirming an address', () => {
  test("the verification link does not give a stranger's password a verified account; a reset by the owner does", async () => {
    // Someone signs up with an address that is not theirs, with a password of their choosing.
    const email = uniqueEmail('owner');
    const strangersPassword = 'strangers own passphrase';
    const stranger = createClient(server.url);
    expect(
      (await stranger.post('/api/auth/sign-up/email', { name: 'Not The Owner', email, password: strangersPassword }))
        .status,
    ).toBe(200);
    const link = firstLink((await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' })).text);

    // The owner clicks the link they were sent: it opens the login page and verifies nothing by itself.
    const owner = createClient(server.url);
    const opened = await owner.get(link);
    const verificationToken = new URL(opened.headers.get('location')!, server.url).searchParams.get('verify');
    expect(verificationToken).toBeTruthy();
    expect(await isVerified(email)).toBe(false);
    // Without the stranger's password, the token is worth nothing.
    expectApiError(
      await owner.post('/api/auth/sign-in/email', { email, password: 'owner guesses', verificationToken }),
      401,
      'auth.invalid_email_or_password',
    );
    expect(await isVerified(email)).toBe(false);
    // And the stranger, who has the password, has no token: their login stays refused.
    expectApiError(
      await stranger.post('/api/auth/sign-in/email', { email, password: strangersPassword }),
      403,
      'auth.email_not_verified',
    );

    // A token of another account, or a made-up one, does not verify this one either.
    const other = uniqueEmail('other');
    expect(
      (await stranger.post('/api/auth/sign-up/email', { name: 'Other', email: other, password: strangersPassword }))
        .status,
    ).toBe(200);
    const otherLink = firstLink((await smtp.waitForEmail({ to: other, subject: 'Verify your e-mail' })).text);
    const otherToken = new URL((await stranger.get(otherLink)).headers.get('location')!, server.url).searchParams.get(
      'verify',
    );
    for (const token of [otherToken, 'made.up.token', `${verificationToken!.slice(0, -4)}AAAA`]) {
      const refused = await stranger.post('/api/auth/sign-in/email', {
        email,
        password: strangersPassword,
        verificationToken: token,
      });
      expect(expectApiError(refused, 400, 'auth.invalid_verification_link').message).toBe(
        'This verification link is invalid or has expired. Ask for a new one below.',
      );
      expect(stranger.hasSessionCookie()).toBe(false);
    }
    expect(await isVerified(email)).toBe(false);
    expect(await isVerified(other)).toBe(false);

    // The owner takes the account over with "Forgot Password?": the reset proves the address and replaces the password.
    expect((await owner.post('/api/auth/request-password-reset', { email })).status).toBe(200);
    const resetLink = firstLink(
      (await smtp.waitForEmail({ to: email, subject: 'Reset your TutorBook password' })).text,
    );
    const token = new URL((await owner.get(resetLink)).headers.get('location')!).searchParams.get('token');
    expect((await owner.post('/api/auth/reset-password', { token, newPassword: 'the owners passphrase' })).status).toBe(
      200,
    );
    expect(await isVerified(email)).toBe(true);
    expectApiError(
      await stranger.post('/api/auth/sign-in/email', { email, password: strangersPassword }),
      401,
      'auth.invalid_email_or_password',
    );
    await logIn(server, { email, password: 'the owners passphrase' });
  });

  test('a link opened with no token, or a token that is not one, leads to the login page saying so', async () => {
    for (const query of ['', '?token=', '?token=garbage']) {
      const opened = await createClient(server.url).get(`/api/auth/verify-email${query}`);
      expect(opened.status).toBe(302);
      expect(opened.headers.get('location')).toBe('/login?error=INVALID_TOKEN');
    }
  });
});

describe('only the auth endpoints the app uses', () => {
  // better-auth's other endpoints (1.7.7), with a made-up one: none is reachable, signed in or not.
  const hidden = [
    '/get-session',
    '/list-sessions',
    '/update-session',
    '/revoke-session',
    '/revoke-sessions',
    '/revoke-other-sessions',
    '/delete-user',
    '/delete-user/callback',
    '/change-email',
    '/link-social',
    '/unlink-account',
    '/list-accounts',
    '/get-access-token',
    '/refresh-token',
    '/account-info',
    '/verify-password',
    '/set-password',
    '/error',
    '/ok',
    '/sign-in/social',
    '/callback/google',
    '/callback/github',
    '/sign-up/social',
    '/no-such-endpoint',
  ];

  test('every other path answers 404 in the error shape, for GET and POST, signed in or not', async () => {
    const { client } = await signInAs(server, 'student');
    for (const who of [client, createClient(server.url)]) {
      for (const path of hidden) {
        expectApiError(await who.get(`/api/auth${path}`), 404, 'request.not_found');
        expectApiError(await who.post(`/api/auth${path}`, {}), 404, 'request.not_found');
      }
    }
    // The session is untouched by all of that (revoke-*, delete-user).
    expect((await client.get('/api/me')).status).toBe(200);
  });

  test('no answer carries a session token in its body, and every answer is private and no-store', async () => {
    const account = await createVerifiedUser(server);
    const client = createClient(server.url);
    // Each session token the cookie has held (the cookie value is `<token>.<signature>`).
    const tokens = new Set<string>();
    const send = async (request: Promise<TestResponse>) => {
      const response = await request;
      const cookie = client.cookies.get(sessionCookieName);
      if (cookie) tokens.add(decodeURIComponent(cookie).split('.')[0]!);
      return response;
    };
    const answers = [
      await send(client.post('/api/auth/sign-in/email', { email: account.email, password: 'wrong password' })),
      await send(client.post('/api/auth/sign-in/email', { email: account.email, password: account.password })),
      await send(
        client.post('/api/auth/change-password', {
          currentPassword: account.password,
          newPassword: 'another passphrase',
        }),
      ),
      await send(
        client.post('/api/auth/sign-up/email', { name: 'Someone', email: uniqueEmail(), password: testPassword }),
      ),
      await send(client.get('/api/auth/get-session')),
      await send(client.post('/api/auth/sign-in/email', { email: 'x' })),
      await send(client.post('/api/auth/sign-out')),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 200, 200, 200, 404, 400, 200]);
    // The sign-in's session, and the new one the password change started.
    expect(tokens.size).toBe(2);
    for (const answer of answers) {
      // Private, or Firebase Hosting would drop its Set-Cookie (docs/decisions/0038).
      expect(answer.headers.get('cache-control'), answer.text).toBe('private, no-store');
      expect(answer.text).not.toMatch(/"token"/);
      for (const token of tokens) expect(answer.text).not.toContain(token);
    }
  });
});

describe('changing a password', () => {
  test('an older reset link dies when a newer one is used', async () => {
    const account = await createVerifiedUser(server);
    const links: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect(
        (await createClient(server.url).post('/api/auth/request-password-reset', { email: account.email })).status,
      ).toBe(200);
      links.push(
        firstLink((await smtp.waitForEmail({ to: account.email, subject: 'Reset your TutorBook password' })).text),
      );
    }
    const tokenOf = async (link: string) =>
      new URL((await createClient(server.url).get(link)).headers.get('location')!).searchParams.get('token');
    const [first, second] = [await tokenOf(links[0]!), await tokenOf(links[1]!)];
    expect(first).toBeTruthy();
    expect(
      (
        await createClient(server.url).post('/api/auth/reset-password', {
          token: second,
          newPassword: 'second link passphrase',
        })
      ).status,
    ).toBe(200);

    const replay = await createClient(server.url).post('/api/auth/reset-password', {
      token: first,
      newPassword: 'first link passphrase',
    });
    expectApiError(replay, 400, 'auth.invalid_token');
    // Opening it now leads to the page that says it has expired.
    expect(
      new URL((await createClient(server.url).get(links[0]!)).headers.get('location')!).searchParams.get('error'),
    ).toBe('INVALID_TOKEN');
    await logIn(server, { email: account.email, password: 'second link passphrase' });
  });

  test('a signed-in user changes their password with the current one; other sessions and reset links stop working, this one goes on', async () => {
    const account = await createVerifiedUser(server);
    const laptop = await logIn(server, account);
    const phone = await logIn(server, account);
    expect(
      (await createClient(server.url).post('/api/auth/request-password-reset', { email: account.email })).status,
    ).toBe(200);
    const resetLink = firstLink(
      (await smtp.waitForEmail({ to: account.email, subject: 'Reset your TutorBook password' })).text,
    );
    const resetToken = new URL(
      (await createClient(server.url).get(resetLink)).headers.get('location')!,
    ).searchParams.get('token');

    const wrong = await laptop.post('/api/auth/change-password', {
      currentPassword: 'not my password',
      newPassword: 'a changed passphrase',
    });
    expect(expectApiError(wrong, 400, 'auth.invalid_password').fields).toEqual({
      currentPassword: 'That is not your current password.',
    });
    const short = await laptop.post('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'short',
    });
    expect(expectApiError(short, 400, 'request.invalid').fields).toEqual({
      newPassword: 'Password must be at least 8 characters.',
    });
    // Asking to keep the other sessions is not the client's choice.
    const keep = await laptop.post('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'a changed passphrase',
      revokeOtherSessions: false,
    });
    expectApiError(keep, 400, 'request.invalid');
    expect((await phone.get('/api/me')).status).toBe(200);

    const changed = await laptop.post('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'a changed passphrase',
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await laptop.get('/api/me')).status).toBe(200);
    expectApiError(await phone.get('/api/me'), 401, 'auth.unauthenticated');
    expectApiError(
      await createClient(server.url).post('/api/auth/reset-password', {
        token: resetToken,
        newPassword: 'reset passphrase',
      }),
      400,
      'auth.invalid_token',
    );
    expectApiError(
      await createClient(server.url).post('/api/auth/sign-in/email', {
        email: account.email,
        password: account.password,
      }),
      401,
      'auth.invalid_email_or_password',
    );
    await logIn(server, { email: account.email, password: 'a changed passphrase' });

    expectApiError(
      await createClient(server.url).post('/api/auth/change-password', {
        currentPassword: 'a changed passphrase',
        newPassword: 'x'.repeat(20),
      }),
      401,
      'auth.unauthorized',
    );
  });
});
