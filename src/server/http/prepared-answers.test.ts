import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpServer, startTestServer, type TestServer, type TestSmtpServer } from '../test/harness.ts';

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

/** A raw request: fetch would ask for and undo compression by itself, hiding what the server sent. */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(new URL(path, server.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject).end();
  });
}

/** The headers but `date`, which may tick between two answers. */
function withoutDate(headers: http.IncomingHttpHeaders) {
  const copy = { ...headers };
  delete copy.date;
  return copy;
}

// The exact paths are answered from prepared answers before the app; with a query the app answers them.
describe('the health check and the catalogue, the busiest routes', () => {
  test('answer the same with or without a query, in every variant a client may ask for', async () => {
    const etag = (await raw('/api/modules')).headers.etag!;
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'identity' },
      { 'if-none-match': etag },
    ];
    for (const path of ['/api/health', '/api/modules']) {
      for (const headers of variants) {
        const prepared = await raw(path, headers);
        const fromApp = await raw(`${path}?from=app`, headers);
        const what = `${path} ${JSON.stringify(headers)}`;
        expect(prepared.status, what).toBe(fromApp.status);
        expect(withoutDate(prepared.headers), what).toEqual(withoutDate(fromApp.headers));
        expect(prepared.body.equals(fromApp.body), what).toBe(true);
      }
    }
    expect((await raw('/api/modules', { 'if-none-match': etag })).status).toBe(304);
    expect((await raw('/api/modules', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
  });

  test('carry the API security headers and one request line each, like every other answer', async () => {
    const before = server.logs.length;
    for (const path of ['/api/health', '/api/modules']) {
      const { headers } = await raw(path);
      expect(headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['x-frame-options'], path).toBe('DENY');
    }
    const lines = server.logs.slice(before).filter((l) => l.msg === 'request');
    expect(lines.map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/api/health', 200],
      ['GET', '/api/modules', 200],
    ]);
    expect(Object.keys(lines[1]!).sort()).toEqual(['level', 'method', 'ms', 'msg', 'path', 'status', 'time']);
  });

  test('answer HEAD with the headers of GET and no body', async () => {
    const get = await raw('/api/modules');
    const head = await raw('/api/modules', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });
});
