import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';

// Issue 22, point 4: reads are limited per client address, so a few clients cannot starve everyone.

let smtp: TestSmtpServer;
let direct: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const env = { READS_PER_MINUTE: '5' };
  [direct, proxied] = await Promise.all([
    startTestServer({ smtpUrl: smtp.url, rateLimit: true, env }),
    startTestServer({ smtpUrl: smtp.url, rateLimit: true, trustProxy: true, env }),
  ]);
});

afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close()]);
  await smtp?.close();
});

describe('reads per client address', () => {
  test('past READS_PER_MINUTE a read gets 429 with Retry-After, signed in or not; writes, the health check and the catalogue go on', async () => {
    const student = await signInAs(proxied, 'student');
    const visitor = createClient(proxied.url);
    // Behind the trusted proxy, the address is the entry it added: a fresh one, which has made no reads yet.
    const from = (address: string) => ({ headers: { 'x-forwarded-for': `203.0.113.9, ${address}` } });
    const here = from('198.51.100.1');
    for (const path of ['/api/questions', '/api/bookings', '/api/me']) {
      expect((await student.client.get(path, here)).status).toBe(200);
    }
    for (let i = 0; i < 2; i++) expect((await visitor.get('/api/questions', here)).status).toBe(200);

    for (const read of [() => student.client.get('/api/bookings', here), () => visitor.get('/api/questions', here)]) {
      const refused = await read();
      expect(expectApiError(refused, 429, 'request.rate_limited').message).toBe(
        'Too many requests. Please wait a moment and try again.',
      );
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another address has its own count.
    expect((await visitor.get('/api/questions', from('198.51.100.2'))).status).toBe(200);
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
    const forged = await visitor.get('/api/questions', { headers: { 'x-forwarded-for': '198.51.100.23' } });
    expectApiError(forged, 429, 'request.rate_limited');
  });
});
