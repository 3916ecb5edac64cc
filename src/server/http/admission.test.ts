import { execFile } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, expect, test } from 'vitest';
import { timeFactor } from '../test/deadline.ts';
import { createHttpServer, defaultTimeouts } from './node-server.ts';

/**
 * The Node server at saturation (issue 33, decision 0042): requests past a turn's slice wait in a queue served one
 * a turn, so the loop keeps turning and letting in connections; one that would wait too long is refused at once,
 * 503 with `Retry-After`. And kept-alive connections outlive the proxies' in front.
 */
const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * The times below, stretched on a busy machine (test/deadline.ts): the work, the bounds and the waits scale
 * together, so what is measured (the order of events, the counts) holds while the machine's delays shrink beside them.
 */
const t = timeFactor();
const ms = (n: number) => Math.round(n * t);

/** Holds the event loop for `ms`, as a request that renders a big page does. */
const holdLoop = (duration: number) => {
  const until = performance.now() + duration;
  while (performance.now() < until);
};

async function listen(options: Parameters<typeof createHttpServer>[1], slowMs = ms(30)) {
  let refused = 0;
  const acceptedAt: number[] = [];
  const server = createHttpServer(
    async (request) => {
      if (new URL(request.url).pathname.endsWith('/slow')) holdLoop(slowMs);
      return Response.json({ ok: true });
    },
    {
      ...options,
      admission: options.admission && { ...options.admission, refused: () => (refused += 1) },
    },
  );
  server.on('connection', () => acceptedAt.push(Date.now()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, refused: () => refused, acceptedAt };
}

/**
 * Another process (this one's loop is the server's, held by its requests): opens `connections` connections, then
 * sends `path` on each at once, and `lateMs` later opens one more and sends `/api/fast` on it. Answers each request's
 * status, Retry-After, and when its answer came (epoch ms); the late one's last.
 */
async function crowd(port: number, connections: number, path: string, lateMs: number) {
  const script = `
    const net = require('node:net');
    const open = () => new Promise((resolve) => { const socket = net.connect(${port}, '127.0.0.1', () => resolve(socket)); });
    const ask = (socket, path) => new Promise((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\\r\\n\\r\\n')) {
          resolve({ status: Number(text.slice(9, 12)), retryAfter: /retry-after: (\\d+)/i.exec(text)?.[1] ?? null, at: Date.now() });
          socket.destroy();
        }
      });
      socket.on('error', () => resolve({ status: 0, retryAfter: null, at: Date.now() }));
      socket.write('GET ' + path + ' HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n');
    });
    (async () => {
      // Connected first, and let in by the idle server; then every request at once.
      const sockets = await Promise.all(Array.from({ length: ${connections} }, open));
      await new Promise((resolve) => setTimeout(resolve, ${ms(200)}));
      const asked = sockets.map((socket) => ask(socket, '${path}'));
      const late = new Promise((resolve) =>
        setTimeout(() => resolve({ sentAt: Date.now(), answer: open().then((socket) => ask(socket, '/api/fast')) }), ${lateMs}),
      );
      const answers = await Promise.all(asked);
      const { sentAt, answer } = await late;
      console.log(JSON.stringify({ answers, late: { sentAt, ...(await answer) } }));
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
  return JSON.parse(stdout) as {
    answers: { status: number; retryAfter: string | null; at: number }[];
    late: { sentAt: number; status: number; at: number };
  };
}

test('at saturation the loop keeps turning: a connection made meanwhile is let in while the crowd is served', async () => {
  // 20 requests of 30 ms each read together: 600 ms of work. The late connection comes 100 ms in.
  const server = await listen({ production: true, admission: { sliceMs: ms(10), maxWaitMs: ms(10_000) } });
  const { answers, late } = await crowd(server.port, 20, '/api/slow', ms(100));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  expect(late.status).toBe(200);
  const crowdDoneAt = Math.max(...answers.map((a) => a.at));
  // Let in while the crowd was still being served (it waits behind the queue for its answer, in its turn).
  const lateAcceptedAt = server.acceptedAt.at(-1)!;
  expect(lateAcceptedAt - late.sentAt).toBeLessThan(ms(200));
  expect(lateAcceptedAt).toBeLessThan(crowdDoneAt - ms(100));
});

test('without the queue (tests, the app benchmarked alone) the crowd holds the loop and the newcomer waits', async () => {
  const server = await listen({ production: true });
  const { answers, late } = await crowd(server.port, 20, '/api/slow', ms(100));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  expect(late.status).toBe(200);
  const crowdDoneAt = Math.max(...answers.map((a) => a.at));
  expect(server.acceptedAt.at(-1)!).toBeGreaterThanOrEqual(crowdDoneAt - ms(50));
});

test('a request that would wait past the bound is refused, 503 with Retry-After, and none waits much longer', async () => {
  // 30 requests of 50 ms each (1.5 s of work); none may wait more than 200 ms.
  const server = await listen({ production: true, admission: { sliceMs: ms(10), maxWaitMs: ms(200) } }, ms(50));
  const started = Date.now();
  const { answers, late } = await crowd(server.port, 30, '/api/slow', 0);
  const served = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 503);
  expect(served.length + refused.length).toBe(30);
  // The first at once, and those the 200 ms let through; the rest refused.
  expect(served.length).toBeGreaterThanOrEqual(2);
  expect(served.length).toBeLessThanOrEqual(8);
  expect(server.refused()).toBe(refused.length + (late.status === 503 ? 1 : 0));
  for (const answer of refused) expect(answer.retryAfter).toBe('2');
  // Every answer within the bound, a request's own time and the crowd's arrival (not the 1.5 s of all of them).
  expect(Math.max(...answers.map((a) => a.at)) - started).toBeLessThan(ms(1200));
});

test('an idle server serves each request at once, however long the ones before took', async () => {
  const server = await listen({ production: true, admission: { sliceMs: ms(10), maxWaitMs: ms(200) } }, ms(100));
  for (let i = 0; i < 3; i++) {
    expect((await fetch(`${server.url}/api/slow`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/fast`)).status).toBe(200);
  }
  expect(server.refused()).toBe(0);
});

test('a kept-alive connection outlives Google’s load balancers’ 600 s, and an idle one is reused past the headers timeout', async () => {
  expect(defaultTimeouts.keepAliveMs).toBeGreaterThan(600_000);
  expect(createHttpServer(() => new Response(), { production: true }).keepAliveTimeout).toBe(
    defaultTimeouts.keepAliveMs,
  );
  // Short here: idle for longer than the headers timeout, within the keep-alive one.
  const server = await listen({
    production: true,
    timeouts: { headersMs: ms(200), keepAliveMs: ms(1500), checkEveryMs: ms(50) },
  });
  const socket = net.connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, ms(600)));
  socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\n\r\n');
  const sentAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms(200)));
  expect(text.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  // And the server closes it once idle for the keep-alive time.
  const closedAt = await closed;
  expect(closedAt - sentAt).toBeGreaterThan(ms(1200));
  expect(closedAt - sentAt).toBeLessThan(ms(4000));
});
