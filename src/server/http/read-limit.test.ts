import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  withCookiesOf,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
  sessionCookieName,
} from '../test/harness.ts';

// Issue 22, point 4: reads are limited, so a few clients cannot starve everyone. Issue 33: per signed-in user,
// and per visitor's address (its IPv6 /64), so that nobody is refused for someone else's traffic on their network.

let smtp: TestSmtpServer;
let direct: TestServer;
/** Behind one proxy (Cloud Run alone): TRUST_PROXY=on, as before it took a number. */
let proxied: TestServer;
/** Behind two (Firebase Hosting, then Cloud Run). */
let hosted: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const env = { READS_PER_MINUTE: '5' };
  [direct, proxied, hosted] = await Promise.all([
    startTestServer({ smtpUrl: smtp.url, rateLimit: true, env }),
    startTestServer({ smtpUrl: smtp.url, rateLimit: true, trustProxy: true, env }),
    startTestServer({ smtpUrl: smtp.url, rateLimit: true, env: { ...env, TRUST_PROXY: '2' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close(), hosted?.close()]);
  await smtp?.close();
});

/** A request as it reaches the server through the proxies, X-Forwarded-For as they left it. */
const from = (forwardedFor: string) => ({ headers: { 'x-forwarded-for': forwardedFor } });
/** A fresh IPv4 client address for each test, so that their counts never meet. */
let lastOctet = 0;
const freshAddress = () => `198.51.100.${++lastOctet}`;

function expectRateLimited(refused: TestResponse) {
  expect(expectApiError(refused, 429, 'request.rate_limited').message).toBe(
    'Too many requests. Please wait a moment and try again.',
  );
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('reads per visitor address', () => {
  test('past READS_PER_MINUTE a read gets 429 with Retry-After; writes, the health check and the catalogue go on', async () => {
    const student = await signInAs(proxied, 'student');
    const visitor = createClient(proxied.url);
    // Behind the trusted proxy, the address is the entry it added: a fresh one, which has made no reads yet.
    const address = freshAddress();
    const here = from(`203.0.113.9, ${address}`);
    for (let i = 0; i < 5; i++) expect((await visitor.get('/api/questions', here)).status).toBe(200);
    expectRateLimited(await visitor.get('/api/questions', here));
    // Another address has its own count.
    expect((await visitor.get('/api/questions', from(freshAddress()))).status).toBe(200);
    // The health check and the catalogue are not counted.
    expect((await visitor.get('/api/health', here)).status).toBe(200);
    expect((await visitor.get('/api/modules', here)).status).toBe(200);
    // Writes have limits of their own: a question is still taken.
    const posted = await student.client.post(
      '/api/questions',
      { id: crypto.randomUUID(), title: 'Still heard', text: 'Reads are limited; this is a write.' },
      here,
    );
    expect(posted.status, posted.text).toBe(201);
  });

  test('without a trusted proxy, a forged X-Forwarded-For does not escape the count', async () => {
    const visitor = createClient(direct.url);
    for (let i = 0; i < 5; i++) expect((await visitor.get('/api/questions')).status).toBe(200);
    expectApiError(await visitor.get('/api/questions'), 429, 'request.rate_limited');
    const forged = await visitor.get('/api/questions', from('198.51.100.23'));
    expectApiError(forged, 429, 'request.rate_limited');
  });

  test('every address of one IPv6 /64 is one visitor; an IPv4 address is the same visitor mapped into IPv6', async () => {
    const visitor = createClient(proxied.url);
    for (let i = 1; i <= 5; i++)
      expect((await visitor.get('/api/questions', from(`2001:db8:1:2::${i}`))).status).toBe(200);
    expectRateLimited(await visitor.get('/api/questions', from('2001:db8:1:2:ffff:ffff:ffff:ffff')));
    expectRateLimited(await visitor.get('/api/questions', from('2001:0DB8:0001:0002:a::b')));
    // The next /64 is another network.
    expect((await visitor.get('/api/questions', from('2001:db8:1:3::1'))).status).toBe(200);

    const address = freshAddress();
    for (let i = 0; i < 5; i++)
      expect((await visitor.get('/api/questions', from(`::ffff:${address}`))).status).toBe(200);
    expectRateLimited(await visitor.get('/api/questions', from(address)));
  });
});

describe('reads per signed-in user', () => {
  test("a student is counted on their own: a visitor's reads from the same address never refuse them", async () => {
    const [student, classmate] = await Promise.all([signInAs(proxied, 'student'), signInAs(proxied, 'student')]);
    const campus = from(freshAddress());
    const visitor = createClient(proxied.url);
    for (let i = 0; i < 5; i++) expect((await visitor.get('/api/questions', campus)).status).toBe(200);
    expectRateLimited(await visitor.get('/api/questions', campus));

    // The student read /api/me once as they signed in (signInAs): four more, from the visitor's address.
    for (const path of ['/api/me', '/api/questions', '/api/bookings', '/api/me']) {
      expect((await student.client.get(path, campus)).status, path).toBe(200);
    }
    // Past their own count, they wait: from any address.
    expectRateLimited(await student.client.get('/api/me', from(freshAddress())));
    // Their classmate on the same network has a count of their own.
    expect((await classmate.client.get('/api/me', campus)).status).toBe(200);

    // A cookie that names no session (made up, or signed out) is a visitor's, counted against the address.
    const forged = withCookiesOf(classmate.client);
    forged.cookies.set(sessionCookieName, 'made-up.token');
    expectRateLimited(await forged.get('/api/questions', campus));
  });
});

describe('the pages the server renders', () => {
  test("count as three reads each, against the signed-in user or the visitor's address", async () => {
    const visitor = createClient(proxied.url);
    const here = from(freshAddress());
    expect((await visitor.get('/qa', here)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await visitor.get('/api/questions', here)).status).toBe(200);
    expectRateLimited(await visitor.get('/api/questions', here));
    expectRateLimited(await visitor.get('/qa', here));

    // A question's page (without a build, the tests' server sends the app's shell for it).
    const there = from(freshAddress());
    expect((await visitor.get(`/qa/${crypto.randomUUID()}`, there)).status).toBe(200);
    expectRateLimited(await visitor.get(`/qa/${crypto.randomUUID()}`, there));

    // The student read /api/me once as they signed in: a page makes four, and a second would make seven.
    const student = await signInAs(proxied, 'student');
    const page = await student.client.get('/student-dashboard', from(freshAddress()));
    expect(page.status).toBe(200);
    expect(page.text).toContain(student.name);
    expectRateLimited(await student.client.get('/offers', from(freshAddress())));
  });
});

describe('behind Firebase Hosting and Cloud Run (TRUST_PROXY=2)', () => {
  test("the client is the entry before Hosting's: whatever a client writes on the left, it keeps its count", async () => {
    const visitor = createClient(hosted.url);
    const client = freshAddress();
    // Cloud Run appends the Hosting edge that passed the request on, which may differ from one request to the next.
    for (let i = 0; i < 5; i++) {
      const forwarded = from(`10.0.0.${i}, ${client}, 35.191.0.${i}`);
      expect((await visitor.get('/api/questions', forwarded)).status).toBe(200);
    }
    expectRateLimited(await visitor.get('/api/questions', from(`${freshAddress()}, ${client}, 35.191.0.9`)));
    expectRateLimited(await visitor.get('/api/questions', from(`${client}, 35.191.0.1`)));
    // Every other client has a count of their own, though Hosting's address is the same.
    expect((await visitor.get('/api/questions', from(`${freshAddress()}, 35.191.0.1`))).status).toBe(200);
  });
});
