import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  delay,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { timeFactor } from '../test/deadline.ts';
import { createHttpServer, defaultTimeouts } from './node-server.ts';

let smtp: TestSmtpServer;
let server: TestServer;
/**
 * The times below, stretched on a busy machine (test/deadline.ts): what is measured is the server's timeouts
 * against a client's pace, and both scale, so the margins between them grow with the machine's delays.
 */
const t = timeFactor();
const ms = (n: number) => Math.round(n * t);

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The real timeouts are seconds long; these are short so the tests need not wait for them.
  server = await startTestServer({
    smtpUrl: smtp.url,
    captureLogs: true,
    timeouts: { headersMs: ms(400), requestMs: ms(800), checkEveryMs: ms(50) },
  });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** Opens a raw connection, writes `parts` (one every `gapMs`), and resolves with what came back and when the server closed it. */
async function slowClient(parts: string[], gapMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  socket.on('error', () => {});
  for (const part of parts) {
    if (socket.destroyed) break;
    socket.write(part);
    await Promise.race([delay(gapMs), closed]);
  }
  const closedAfterMs = await Promise.race([closed, delay(ms(5_000)).then(() => Infinity)]);
  socket.destroy();
  return { answer, closedAfterMs };
}

describe('slow clients', () => {
  test('the server keeps to sensible timeouts: seconds, not Node’s minutes', () => {
    const http = createHttpServer(() => new Response(), { production: true });
    expect(http.headersTimeout).toBe(defaultTimeouts.headersMs);
    expect(http.requestTimeout).toBe(defaultTimeouts.requestMs);
    expect(defaultTimeouts.headersMs).toBeLessThanOrEqual(15_000);
    expect(defaultTimeouts.requestMs).toBeLessThanOrEqual(30_000);
  });

  test('a client that trickles its headers is answered 408 and cut off at the headers timeout', async () => {
    const trickle = [
      'GET /api/health HTTP/1.1\r\n',
      'Host: 127.0.0.1\r\n',
      ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`),
    ];
    const { answer, closedAfterMs } = await slowClient(trickle, ms(50));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(ms(400));
    expect(closedAfterMs).toBeLessThan(ms(1_500));
  });

  test('a client that trickles its body is answered 408 and cut off at the request timeout', async () => {
    const head = `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const { answer, closedAfterMs } = await slowClient([head, ...Array.from({ length: 40 }, () => ' ')], ms(50));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(ms(800));
    expect(closedAfterMs).toBeLessThan(ms(2_000));
  });

  test('a client that hangs up in the middle of its body is logged as that, not as an error with a stack', async () => {
    const before = server.logs.length;
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(
      `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
    );
    await delay(100);
    socket.destroy();
    const line = await waitFor(
      async () =>
        server.logs.slice(before).find((l) => l.msg === 'client closed the connection before the request was complete'),
      'the abort to be logged',
    );
    expect(line).toMatchObject({ level: 30, method: 'POST', path: '/api/auth/sign-in/email' });
    await delay(100);
    expect(server.logs.slice(before).filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});
