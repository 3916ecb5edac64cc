import { mkdir, writeFile } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import path from 'node:path';
import { hc, type InferRequestType } from 'hono/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { apiErrorBodySchema } from '../common/api-error.ts';
import type { Module } from '../common/catalogue.ts';
import { payFastMessages } from '../common/payfast.ts';
import type { EnrolInput } from '../common/profile.ts';
import type { ApiRoutes } from './app.ts';
import {
  createClient,
  expectApiError,
  createVerifiedUser,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  testPassword,
  uniqueEmail,
  type TestServer,
  type TestSmtpServer,
} from './test/harness.ts';

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

describe('health and headers', () => {
  test('the health check reports the database as reachable', async () => {
    const response = await createClient(server.url).get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok' });
  });

  test.each(['/', '/no-such-page'])('pages get the strict page policy: %s', async (pathname) => {
    const { headers } = await createClient(server.url).get(pathname);
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expectCommonSecurityHeaders(headers);
  });

  test.each(['/api/health', '/api/no-such-route', '/api/me', '/api/auth/get-session', '/api/auth/no-such-endpoint'])(
    'API answers may load and frame nothing: %s',
    async (pathname) => {
      const { headers } = await createClient(server.url).get(pathname);
      expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('strict-transport-security')).toBeNull();
    },
  );

  function expectCommonSecurityHeaders(headers: Headers) {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('x-frame-options')).toBe('DENY');
    // Plain http in tests: no HSTS outside production.
    expect(headers.get('strict-transport-security')).toBeNull();
  }

  test('the public pages are served as rendered at build time, compressed for browsers that accept it', async () => {
    const client = createClient(server.url);
    for (const [pathname, file] of Object.entries({
      '/': 'index.html',
      '/about': 'about.html',
      '/login': 'login.html',
      '/signup': 'signup.html',
      '/index.html': 'index.html',
    })) {
      const response = await client.get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.text, pathname).toContain(`<!-- ${file} -->`);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    for (const [encoding, decompress] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // node:http, since fetch would decompress the body itself.
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        get(`${server.url}/about`, { headers: { 'accept-encoding': encoding } }, resolve).on('error', reject),
      );
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decompress(Buffer.concat(await response.toArray())).toString()).toContain('<!-- about.html -->');
    }
  });

  test('the app shell is served for known pages and a 404 page for others', async () => {
    const client = createClient(server.url);
    for (const pathname of [
      '/',
      '/index.html',
      '/login',
      '/change-password',
      '/modules/introduction-to-programming-with-python',
      '/student-dashboard/',
    ]) {
      const response = await client.get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.text).toContain('<div id="root">');
    }
    for (const pathname of ['/home', '/change-password', '/offers', '/qa'])
      expect((await client.get(pathname)).text, pathname).toContain('<!-- shell.html -->');
    // A module page for a slug no module has is the app's 'Module Not Found' page, with status 404.
    for (const pathname of ['/no-such-page', '/modules/intro-to-python', '/modules/no-such-module/']) {
      const unknown = await client.get(pathname);
      expect(unknown.status, pathname).toBe(404);
      expect(unknown.text).toContain('<div id="root">');
    }
  });

  test('a signed-in page comes rendered for the user the session names, escaped; others get the shell', async () => {
    const name = `<img src=x onerror="alert(1)"> & 'Thandi'`;
    const student = await signInAs(server, 'student', { name });
    const offers = await student.client.get('/offers');
    expect(offers.status).toBe(200);
    expect(offers.text).toContain('<!-- offers.student.html -->');
    expect(offers.text).toContain('<h1>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Thandi&#39;</h1>');
    expect(offers.text).not.toContain('<img');
    // The user the app starts with (client/main.tsx), the same as /api/session says.
    const seed = /<meta name="tutorbook-user" content="([^"]*)">/.exec(offers.text)?.[1];
    const unescaped = seed?.replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!,
    );
    expect(JSON.parse(unescaped!)).toEqual((await student.client.get('/api/session')).body.user);
    expect(offers.headers.get('cache-control')).toBe('private, no-cache');
    expect(offers.headers.get('vary')).toBe('accept-encoding, cookie');

    // Not the staff's pages: the app says "Not allowed". Nor anyone's without a session.
    const shell = await student.client.get('/tutor-dashboard');
    expect(shell.text).toContain('<!-- shell.html -->');
    expect(shell.headers.get('vary')).toBe('accept-encoding, cookie');
    expect((await createClient(server.url).get('/student-dashboard')).text).toContain('<!-- shell.html -->');

    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics', 'Statistics'] });
    expect((await tutor.client.get('/tutor-dashboard')).text).toContain('<p>Mathematics, Statistics</p>');
  });

  test('a source map left in the served folder is not served; the code beside it is', async () => {
    const assets = path.join(server.envVars.DATA_DIR!, 'client', 'assets');
    await mkdir(assets, { recursive: true });
    await writeFile(path.join(assets, 'page-abc123.js'), 'export const page = 1;\n');
    await writeFile(path.join(assets, 'page-abc123.js.map'), '{"version":3,"sources":["/home/builder/src/page.tsx"]}');
    await writeFile(path.join(server.envVars.DATA_DIR!, 'client', 'sw.js.map'), '{"version":3}');
    const client = createClient(server.url);
    expect((await client.get('/assets/page-abc123.js')).status).toBe(200);
    for (const pathname of ['/assets/page-abc123.js.map', '/sw.js.map', '/assets/none.js.map']) {
      const response = await client.get(pathname);
      expect(response.status, pathname).toBe(404);
      expect(response.text).not.toContain('/home/builder');
    }
  });

  test('the worker is answered 304 while unchanged, and the Workbox runtime it imports is kept a year: a check for a new version costs headers only', async () => {
    const client = path.join(server.envVars.DATA_DIR!, 'client');
    await writeFile(path.join(client, 'sw.js'), 'importScripts("/workbox-0123abcd.js");\n');
    await writeFile(path.join(client, 'workbox-0123abcd.js'), 'self.workbox = {};\n');
    const browser = createClient(server.url);
    const first = await browser.get('/sw.js');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await browser.get('/sw.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    // A new version is sent whole, with a new ETag.
    await writeFile(path.join(client, 'sw.js'), 'importScripts("/workbox-4567cdef.js"); // v2\n');
    const changed = await browser.get('/sw.js', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('v2');
    expect(changed.headers.get('etag')).not.toBe(etag);

    const runtime = await browser.get('/workbox-0123abcd.js');
    expect(runtime.status).toBe(200);
    expect(runtime.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  test('an unknown API route is a 404 in the error shape, never the app shell, and never kept by a cache', async () => {
    const client = createClient(server.url);
    const get = await client.get('/api/x');
    expect(expectApiError(get, 404, 'request.not_found').message).toBe('There is no such API route.');
    // Firebase Hosting's CDN keeps an answer without Cache-Control, a 404 for 10 minutes (docs/decisions/0038).
    expect(get.headers.get('cache-control')).toBe('no-store');
    expectApiError(await client.post('/api/x', {}), 404, 'request.not_found');
    expectApiError(await client.get('/api/health/extra'), 404, 'request.not_found');
  });

  test('the client configuration says Google sign-in and paying online are off without their keys', async () => {
    const response = await createClient(server.url).get('/api/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      googleSignIn: false,
      bookingMinLeadHours: 48,
      bookingRescheduleMinHours: 24,
      payOnline: false,
    });
  });

  test('without PayFast configured, a checkout is a 404 that says to pay by EFT, and a notice changes nothing', async () => {
    const account = await createVerifiedUser(server);
    const student = await logIn(server, account);
    const checkout = await student.post('/api/payfast/checkout', { for: 'booking', id: crypto.randomUUID() });
    expect(expectApiError(checkout, 404, 'payfast.not_configured').message).toBe(payFastMessages.notConfigured);
    const notice = await createClient(server.url).request('/api/payfast/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://www.payfast.co.za' },
      body: 'm_payment_id=TB-ABC234&pf_payment_id=1&payment_status=COMPLETE&amount_gross=180.00&signature=0',
    });
    expectApiError(notice, 404, 'payfast.not_configured');
  });

  test('without a session, /api/me is 401', async () => {
    const error = expectApiError(await createClient(server.url).get('/api/me'), 401, 'auth.unauthenticated');
    expect(error.message).toBe('Please log in to continue.');
  });

  test('the session probe answers 200 either way: null signed out, the user with role signed in', async () => {
    const signedOut = await createClient(server.url).get('/api/session');
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toEqual({ user: null });

    const account = await createVerifiedUser(server);
    const signedIn = await (await logIn(server, account)).get('/api/session');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({
      email: account.email,
      name: account.name,
      role: 'student',
      categories: [],
    });
  });
});

describe('the typed API client', () => {
  test('a client typed from the server’s routes (hc<ApiRoutes>) reads the catalogue, and knows the enrol body', async () => {
    const api = hc<ApiRoutes>(server.url).api;
    const response = await api.modules.$get();
    const body = await response.json();
    expectTypeOf(body).toEqualTypeOf<{ modules: Module[] }>();
    expect(body.modules).toHaveLength(10);
    // Type-level only (checked by tsc): the body a route validates is the shared schema's input.
    expectTypeOf<InferRequestType<typeof api.me.enrolments.$post>['json']>().toEqualTypeOf<EnrolInput>();
  });
});

describe('bad input', () => {
  const valid = () => ({ name: 'Naledi Sithole', email: uniqueEmail(), password: testPassword });
  const signUp = (body: unknown) => createClient(server.url).post('/api/auth/sign-up/email', body);

  test.each([
    ['a malformed e-mail', { email: 'naledi@' }, 'email', 'Invalid email address. Please enter a valid email.'],
    [
      'an e-mail with spaces inside',
      { email: 'nal edi@example.com' },
      'email',
      'Invalid email address. Please enter a valid email.',
    ],
    ['an empty e-mail', { email: '' }, 'email', 'Please enter your email address.'],
    ['an empty name', { name: '' }, 'name', 'Please enter your name.'],
    ['a name of spaces only', { name: '   ' }, 'name', 'Please enter your name.'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name', 'Name must be at most 100 characters.'],
    ['a password of 7 characters', { password: 'x'.repeat(7) }, 'password', 'Password must be at least 8 characters.'],
    [
      'a password of 129 characters',
      { password: 'x'.repeat(129) },
      'password',
      'Password must be at most 128 characters.',
    ],
    ['a name that is not text', { name: 42 }, 'name', expect.any(String)],
  ])('sign-up with %s is refused with a message for that field', async (_, override, field, message) => {
    const body = { ...valid(), ...override };
    const error = expectApiError(await signUp(body), 400, 'request.invalid');
    expect(error.fields?.[field]).toEqual(message);
    expect(error.message).toEqual(message);
    const created = await server.services.deps.repos.accounts.findByEmail(String(body.email).trim().toLowerCase());
    expect(created).toBeUndefined();
  });

  test('the limits themselves are accepted: a name of 100 and a password of 128 characters', async () => {
    const body = { ...valid(), name: 'n'.repeat(100), password: 'p'.repeat(128) };
    expect((await signUp(body)).status).toBe(200);
    await smtp.waitForEmail({ to: body.email, subject: 'Verify your e-mail' });
    const login = await createClient(server.url).post('/api/auth/sign-in/email', {
      email: body.email,
      password: body.password,
    });
    // Refused only because the address is not verified yet: the 128-character password was accepted.
    expect(login.status).toBe(403);
  });

  test('an unknown JSON field is refused', async () => {
    const error = expectApiError(await signUp({ ...valid(), isAdmin: true }), 400, 'request.invalid');
    expect(error.fields).toEqual({ _form: 'Unknown field: isAdmin.' });
    expect(error.message).toBe('Unknown field: isAdmin.');
  });

  test('a body that is not JSON, or not declared as JSON, is refused', async () => {
    const client = createClient(server.url);
    const plain = await client.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(valid()),
    });
    expect(expectApiError(plain, 400, 'request.unsupported_content_type').message).toBe(
      'Send the form as JSON (Content-Type: application/json).',
    );

    const form = await client.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: new URLSearchParams({ email: 'a@example.com', password: 'x' }),
    });
    expectApiError(form, 400, 'request.unsupported_content_type');

    const malformed = await client.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "Naledi", ',
    });
    expect(expectApiError(malformed, 400, 'request.malformed_json').message).toBe(
      'The request body is not valid JSON.',
    );
  });

  test('an oversized body is refused with 413, with or without a Content-Length', async () => {
    const client = createClient(server.url);
    const huge = JSON.stringify({ ...valid(), name: 'n'.repeat(70 * 1024) });
    const withLength = await client.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge,
    });
    expect(expectApiError(withLength, 413, 'request.too_large').message).toBe('The request is too large.');

    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(10 * 1024)));
        controller.close();
      },
    });
    const chunked = await client.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expectApiError(chunked, 413, 'request.too_large');
  });

  test.each([
    ['/api/auth/sign-up/email', 'null'],
    ['/api/auth/sign-up/email', '[]'],
    ['/api/auth/sign-up/email', '"text"'],
    ['/api/auth/sign-up/email', '12'],
    ['/api/auth/sign-up/email', '{}'],
    ['/api/auth/sign-up/email', '{"name":{"$gt":""},"email":["a@example.com"],"password":true}'],
    ['/api/auth/sign-in/email', '{"email":"a@example.com"}'],
    ['/api/auth/sign-in/email', '{"email":"a@example.com","password":"x","rememberMe":"yes"}'],
    ['/api/auth/sign-in/email', `{"email":"a@example.com","password":"${'x'.repeat(129)}"}`],
    ['/api/auth/sign-in/email', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['/api/auth/request-password-reset', '{"email":"a@example.com","redirectTo":42}'],
    ['/api/auth/request-password-reset', '{"email":"not an address"}'],
    ['/api/auth/reset-password', '{"token":"","newPassword":"long enough password"}'],
    ['/api/auth/reset-password', '{"token":"t","newPassword":"short"}'],
    ['/api/auth/sign-in/email', '{"email":"a@example.com","password":"x","verificationToken":5}'],
    ['/api/auth/sign-in/email', `{"email":"a@example.com","password":"x","verificationToken":"${'t'.repeat(2001)}"}`],
    ['/api/auth/send-verification-email', '{"email":"a@example.com","callbackURL":"https://evil.example"}'],
    ['/api/auth/change-password', '{"currentPassword":null,"newPassword":"long enough password"}'],
    ['/api/auth/sign-out', '{"everywhere":true}'],
  ])('POST %s with %s is a 400, never a 500', async (pathname, body) => {
    const response = await createClient(server.url).request(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expectApiError(response, 400, 'request.invalid');
    expect(response.body.error.fields).toBeTypeOf('object');
  });

  test('other odd requests to the auth routes get a client error in the error shape, never a 500', async () => {
    const client = createClient(server.url);
    const responses = await Promise.all([
      client.get('/api/auth/verify-email?token=not-a-token'),
      client.get('/api/auth/verify-email'),
      client.get('/api/auth/reset-password/not-a-token'),
      client.post('/api/auth/no-such-endpoint', {}),
      client.post('/api/auth/sign-out', {}),
      client.request('/api/auth/sign-in/email', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      client.request('/api/auth/sign-in/email', { method: 'DELETE' }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([302, 302, 400, 404, 200, 404, 404]);
    // A verification link that is not one leads to the login page, which says so.
    expect(responses.slice(0, 2).map((r) => r.headers.get('location'))).toEqual([
      '/login?error=INVALID_TOKEN',
      '/login?error=INVALID_TOKEN',
    ]);
    for (const response of responses.filter((r) => r.status >= 400)) {
      expect(apiErrorBodySchema.safeParse(response.body).success, response.text).toBe(true);
    }
  });
});
