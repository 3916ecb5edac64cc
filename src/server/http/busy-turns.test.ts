import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createHttpServer, defaultTimeouts } from './node-server.ts';

/**
 * The Node server's bound on waiting (issue 33, decision 0042): a request read after the current turn of the
 * event loop has run `busy.afterMs` is refused at once with 503 and `Retry-After`; and kept-alive connections
 * outlive the proxies' in front.
 */
const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Holds the event loop for `ms`, as a request that renders a big page does. */
const holdLoop = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

async function listen(options: Parameters<typeof createHttpServer>[1]) {
  let refused = 0;
  const server = createHttpServer(
    async (request) => {
      if (new URL(request.url).pathname.endsWith('/slow')) holdLoop(150);
      return Response.json({ ok: true });
    },
    { ...options, busy: options.busy && { ...options.busy, refused: () => (refused += 1) } },
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const accepted = () =>
    new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
  return { url: `http://127.0.0.1:${port}`, port, refused: () => refused, accepted };
}

/**
 * Writes one request on each of `paths`' own connection, all at once, so that the server reads them in one turn;
 * resolves with each answer's status line and headers.
 */
async function together({ port, accepted }: Awaited<ReturnType<typeof listen>>, paths: string[]) {
  const sockets = await Promise.all(
    paths.map(
      () =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
          if (text.includes('\r\n\r\n')) resolve(text);
        });
      }),
  );
  // The server reads a connection's first bytes a turn after it accepted it: all are accepted first.
  while ((await accepted()) < sockets.length) await new Promise((resolve) => setTimeout(resolve, 10));
  // One write each, in one turn of this process: they arrive together.
  for (const [i, socket] of sockets.entries()) socket.write(`GET ${paths[i]} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const texts = await Promise.all(answers);
  for (const socket of sockets) socket.destroy();
  return texts;
}

test('a request read after the turn has run past the bound is refused at once: 503 with Retry-After', async () => {
  const server = await listen({ production: true, busy: { afterMs: 50 } });
  // Whichever is read first holds the loop for 150 ms; the others, read in the same turn, wait behind it.
  const answers = await together(server, ['/api/slow', '/api/slow', '/api/slow', '/qa/slow']);
  const statuses = answers.map((text) => Number(text.slice(9, 12)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 503)).toHaveLength(3);
  expect(server.refused()).toBe(3);
  const api = answers.find((text) => text.includes('503') && text.includes('application/json'))!;
  expect(api).toMatch(/retry-after: 2\r\n/i);
  expect(api).toMatch(/cache-control: no-store\r\n/i);
  expect(api).toMatch(/x-content-type-options: nosniff\r\n/i);
  // A page's refusal is a page, for a browser that navigated there.
  expect(answers.some((text) => text.includes('503') && text.includes('text/html'))).toBe(true);

  // The next turn starts anew: a request on its own is answered.
  expect((await fetch(`${server.url}/api/me`)).status).toBe(200);
});

test('an idle or lightly loaded server never refuses, however long the requests before took', async () => {
  const server = await listen({ production: true, busy: { afterMs: 50 } });
  for (let i = 0; i < 3; i++) {
    expect((await fetch(`${server.url}/api/slow`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/me`)).status).toBe(200);
  }
  expect(server.refused()).toBe(0);
});

test('without the bound (tests, benchmarks of the app alone) every request waits its turn', async () => {
  const server = await listen({ production: true });
  const answers = await together(server, ['/api/slow', '/api/slow', '/api/slow']);
  expect(answers.map((text) => Number(text.slice(9, 12)))).toEqual([200, 200, 200]);
});

test('a kept-alive connection outlives Google’s load balancers’ 600 s, and an idle one is reused past the headers timeout', async () => {
  expect(defaultTimeouts.keepAliveMs).toBeGreaterThan(600_000);
  expect(createHttpServer(() => new Response(), { production: true }).keepAliveTimeout).toBe(
    defaultTimeouts.keepAliveMs,
  );
  // Short here: idle for longer than the headers timeout, within the keep-alive one.
  const server = await listen({ production: true, timeouts: { headersMs: 200, keepAliveMs: 1500, checkEveryMs: 50 } });
  const socket = net.connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 600));
  socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n');
  const sentAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(text.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  // And the server closes it once idle for the keep-alive time.
  const closedAt = await closed;
  expect(closedAt - sentAt).toBeGreaterThan(1200);
  expect(closedAt - sentAt).toBeLessThan(4000);
});
