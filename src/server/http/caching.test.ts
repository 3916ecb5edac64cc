import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, captureLogs: true });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** A raw GET: fetch would ask for and undo compression by itself, hiding what the server sent. */
function rawGet(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.get(new URL(path, server.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

async function ask(client: TestClient, title: string) {
  const response = await client.post('/api/questions', {
    id: crypto.randomUUID(),
    title,
    text: 'Some words about it.',
  });
  expect(response.status, response.text).toBe(201);
}

describe('a phone asking again for a list it holds', () => {
  test('gets the catalogue as a 304 while it is unchanged, for anyone', async () => {
    const first = await rawGet('/api/modules');
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    const again = await rawGet('/api/modules', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await rawGet('/api/modules', { 'if-none-match': 'W/"something-else"' })).status).toBe(200);
  });

  test('gets the board as a 304 until a question is posted, then the new board with a new ETag', async () => {
    const { client } = await signInAs(server, 'student');
    await ask(client, 'What is a closure?');
    for (const path of ['/api/questions', '/api/questions?since=0']) {
      const first = await client.get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect((await client.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);

      await ask(client, `Why does ${path} change?`);
      const changed = await client.get(path, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
    }
  });

  test('gets per-reader lists never stored by the browser, with an ETag of their own that a client may send back', async () => {
    const a = await signInAs(server, 'student');
    const b = await signInAs(server, 'student');
    await a.client.post('/api/me/enrolments', { moduleId: (await a.client.get('/api/modules')).body.modules[0].id });
    for (const path of [
      '/api/me/enrolments',
      '/api/bookings',
      '/api/bookings?since=0',
      '/api/questions/my-votes',
      '/api/questions',
    ]) {
      const fromA = await a.client.get(path);
      expect(fromA.status, `${path}: ${fromA.text}`).toBe(200);
      expect(fromA.headers.get('cache-control'), path).toBe('private, no-store');
      const etag = fromA.headers.get('etag')!;
      expect(etag, path).toMatch(/^W\//);
      expect((await a.client.get(path, { headers: { 'if-none-match': etag } })).status, path).toBe(304);
    }
    // A has an enrolment, B none: B sending A's ETag still gets their own list.
    const enrolmentsOfB = await b.client.get('/api/me/enrolments', {
      headers: { 'if-none-match': (await a.client.get('/api/me/enrolments')).headers.get('etag')! },
    });
    expect(enrolmentsOfB.status).toBe(200);
    expect(enrolmentsOfB.body.enrolments).toEqual([]);
  });

  test('is refused a 304 when not signed in, as before', async () => {
    expect((await rawGet('/api/bookings', { 'if-none-match': '*' })).status).toBe(401);
  });
});

describe('compression', () => {
  test('a large JSON answer is compressed when the client accepts it, and not when it does not', async () => {
    const { client } = await signInAs(server, 'student');
    for (let i = 0; i < 8; i++) await ask(client, `A question long enough to fill the board, number ${i}`);
    const plain = await rawGet('/api/questions');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThan(1024);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const gzipped = await rawGet('/api/questions', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(plain.body.toString());
    expect(gzipped.body.byteLength).toBeLessThan(plain.body.byteLength / 2);

    expect((await rawGet('/api/questions', { 'accept-encoding': 'gzip, br' })).headers['content-encoding']).toBe('br');
    expect((await rawGet('/api/questions', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );
    const catalogue = await rawGet('/api/modules', { 'accept-encoding': 'gzip' });
    expect(catalogue.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(catalogue.body).toString()).modules.length).toBeGreaterThan(0);
  });

  test('a small JSON answer is sent as it is', async () => {
    const { client } = await signInAs(server, 'student');
    const votes = await rawGet('/api/questions/my-votes', {
      'accept-encoding': 'gzip',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    });
    expect(votes.status).toBe(200);
    expect(votes.body.byteLength).toBeLessThan(1024);
    expect(votes.headers['content-encoding']).toBeUndefined();
  });

  test('the live event stream is never compressed', async () => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(new URL('/api/events', server.url), { headers: { 'accept-encoding': 'gzip, br' } }, resolve)
        .on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.headers['content-encoding']).toBeUndefined();
    const firstChunk = await new Promise<string>((resolve) =>
      response.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(firstChunk.length).toBeGreaterThan(0);
    response.destroy();
  });
});

describe('the request log', () => {
  test('has one line per request with method, path without its query, status and duration, and nothing else', async () => {
    const before = server.logs.length;
    await rawGet('/api/questions?q=my+private+search');
    await rawGet('/api/auth/reset-password/secret-token?callbackURL=x');
    const lines = server.logs.slice(before).filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(2);
    expect(Object.keys(lines[0]!).sort()).toEqual(['level', 'method', 'ms', 'msg', 'path', 'status', 'time']);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/api/questions', status: 200 });
    expect(typeof lines[0]!.ms).toBe('number');
    expect(lines[1]!.path).toBe('/api/auth/reset-password/…');
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|private search/);
  });
});
