import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadEnv } from '../src/server/env.ts';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { createServices } from '../src/server/server.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';
import { recordResults, type Measurement } from './results.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * `node bench/mixed.ts [users] [seconds] [writes]`: a mixed load in production's configuration (a request line per
 * request to a file, rate limits on but raised: every user here is this machine's one address). Each of 500
 * signed-in students holds a live-event stream and, one connection each, reads in turn the catalogue, the
 * board, their bookings and themself. Issue 22, point 5: 0 errors and p99 under 200 ms, on SQLite and on
 * PostgreSQL with two server processes. Three runs of `seconds` (60):
 * 1. SQLite, one process, each user sending a request a second (500 requests/s; a student reading the site
 *    asks for a page's data every few seconds, so this is several times a real crowd of 500). The server is
 *    `main.ts` in a process of its own, as in production: the users' 500 streams and requests are not on its
 *    thread. Each run reports its event loop's delay (bench/event-loop-probe.ts).
 * 2. The same server saturated: each user sends the next request as soon as the last is answered. Its p99 is
 *    the queue of 500 waiting on one process, for the record: what the goal is about is run 1.
 * 3. PostgreSQL (with TEST_DATABASE_URL, an admin's URL: a fresh database, dropped after), two `main.ts`
 *    processes, each with half of the users and their streams, live events between them through the
 *    database; the paced load of run 1. Skipped, and said so, without TEST_DATABASE_URL.
 * 4. Issue 33: SQLite in the default configuration (no NODE_ENV: no rate limits, request lines to the log),
 *    saturated by the same users, one request in ten a vote and one an answer on 20 questions. Goal: every
 *    request answered within a few seconds (the slowest under 5 s) or refused at once with 503, none left
 *    unanswered for 30 s (autocannon's timeout here).
 * `writes` runs 4 alone. Runs 1–3 leave writes out: the board's and the bookings' own limits (per user, per hour) would refuse most of
 * them over three minutes; run 4's 60 s stay within the board's (20 posts in 10 minutes each).
 * Each run follows 5 s of the same load, unmeasured (see `warmUpSeconds`). A report, not a test: it always exits 0.
 */
const userCount = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 60);
const writesOnly = process.argv[4] === 'writes';
// Where the PostgreSQL server is, as for the test suite (harness.ts).
const adminUrl = process.env.TEST_DATABASE_URL?.startsWith('postgres') ? process.env.TEST_DATABASE_URL : undefined;

const secret = randomBytes(32).toString('hex');
// One pair for both processes, as for the secret: production does not start without it (web push).
const vapidKeys = newVapidKeysEnv();
const productionEnv = (dataDir: string) => ({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  AUTH_SECRET: secret,
  ...vapidKeys,
  PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
  READS_PER_MINUTE: String(1e9),
  EVENT_STREAMS_PER_ADDRESS: String(userCount * 2),
});

/**
 * Each run follows the same load for a few seconds, unmeasured: the first second of 500 connections opening at
 * once on a server just started (its code not yet compiled, its first collections of garbage) held the event
 * loop for 150–250 ms, which is the bench starting, not the server serving.
 */
const warmUpSeconds = 5;

const targets = ['/api/modules', '/api/questions', '/api/bookings', '/api/me'];

/**
 * Opens one live-event stream per cookie on `url`, held until `signal` aborts: how many opened, how many refused.
 * What the streams carry is thrown away unread (`resume`): this process also sends the users' requests on two
 * cores, and parsing every notice of 500 streams (each vote and answer of run 4 is 500 of them) took a core of
 * its own, which made the server look slower than it was.
 */
async function holdStreams(url: string, cookies: string[], signal: AbortSignal) {
  let open = 0;
  let refused = 0;
  await Promise.all(
    cookies.map(
      (cookie) =>
        new Promise<void>((resolve) => {
          const request = http.get(`${url}/api/events`, { headers: { cookie }, signal }, (response) => {
            if (response.statusCode === 200) open += 1;
            else refused += 1;
            response.resume();
            resolve();
          });
          request.on('error', () => resolve());
        }),
    ),
  );
  return { open, refused };
}

/**
 * The users' reads on `url`, one connection each, as fast as answered; or `perSecond` each. autocannon sends a
 * paced connection's requests at the start of each second, all connections at once: 500 users would arrive
 * together, once a second, which no crowd does. So paced users are run in 10 groups started 100 ms apart. And
 * their latencies are taken as measured (`ignoreCoordinatedOmission`): autocannon would otherwise add made-up
 * samples for every millisecond a request took past 1 / rate.
 */
async function load(
  url: string,
  cookies: string[],
  perSecond: number | undefined,
  { duration = seconds, inThisThread = false } = {},
): Promise<AutocannonResult[]> {
  const run = (users: string[]) =>
    autocannon({
      url,
      connections: users.length,
      duration,
      // In a worker thread, or in this one: 20 worker threads starting at once held both cores for a second.
      ...(!inThisThread && { workers: 1 }),
      ...(perSecond && { connectionRate: perSecond, ignoreCoordinatedOmission: true }),
      requests: targets.map((target) => ({
        method: 'GET',
        path: target,
        setupRequest: path.join(import.meta.dirname, 'as-next-user.cjs'),
        cookies: users,
      })),
    });
  if (!perSecond) return [await run(cookies)];
  const groups = Math.min(10, cookies.length);
  return Promise.all(
    Array.from({ length: groups }, async (_, g) => {
      await new Promise((resolve) => setTimeout(resolve, (g * 1000) / groups));
      return run(cookies.filter((_, n) => n % groups === g));
    }),
  );
}

function report(name: string, results: AutocannonResult[], streams: { open: number; refused: number }) {
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  const timeouts = results.reduce((n, r) => n + r.timeouts, 0);
  const p99 = Math.max(...results.map((r) => r.latency.p99));
  const p50 = Math.max(...results.map((r) => r.latency.p50));
  const slowest = Math.max(...results.map((r) => r.latency.max));
  const perSecond = results.reduce((n, r) => n + r.requests.average, 0);
  console.log(`\n${name}`);
  console.log(`streams held: ${streams.open} (refused ${streams.refused})`);
  // autocannon counts a timeout among its errors too. With several runs at once, the slowest one's percentiles.
  console.log(
    `reads: ${Math.round(perSecond)} req/s, p50 ${p50} ms, p99 ${p99} ms, slowest ${slowest} ms, errors ${errors} of ${total} (timeouts ${timeouts})`,
  );
  return { p99, errors, p50, slowest, perSecond, total, timeouts, streams };
}

/** What docs/bench-results.md shows, recorded at the end. */
const measurements: Measurement[] = [];
const mixedGoal = 'Mixed load: 0 errors, p99 < 200 ms';

/** A run of the users' reads as docs/bench-results.md shows it; with `goal`, run 1 or 3. */
function readsMeasurement(
  measured: string,
  figures: ReturnType<typeof report>,
  delay: { p99: number; max: number },
  goal: boolean,
): Measurement {
  const { p99, errors, p50, slowest, perSecond, total, timeouts, streams } = figures;
  return {
    ...(goal && { goal: mixedGoal }),
    measured: `${measured}, p99`,
    figure: { value: p99, unit: 'ms' },
    also:
      `${Math.round(perSecond)} req/s, p50 ${p50} ms, slowest ${slowest} ms; errors ${errors} of ${total.toLocaleString('en-US')} ` +
      `(timeouts ${timeouts}); streams held ${streams.open} (refused ${streams.refused}); the server's event loop ` +
      `delay p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms`,
    ...(goal && { target: '0 errors, p99 < 200 ms', met: errors === 0 && p99 < 200 }),
  };
}

const verdict = (p99: number, errors: number) =>
  `(goal: 0 errors, p99 < 200 ms): ${errors === 0 && p99 < 200 ? 'PASS' : 'FAIL'}`;

// ---------------------------------------------------------------------------------------------------------
// 1 and 2: SQLite, one process.

async function onSqlite() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-mixed-'));
  const env = productionEnv(dataDir);
  try {
    const cookies = await signIn(env, dataDir);
    const server = await startProcess(env, await freePort(), path.join(dataDir, 'app.log'));
    const streams = new AbortController();
    try {
      const held = await holdStreams(server.url, cookies, streams.signal);
      for (const [name, perSecond] of [
        [`1. SQLite, one process, each user a request a second`, 1],
        [`2. SQLite, one process, saturated (each user's next request as soon as answered)`, undefined],
      ] as const) {
        // Paced, the ten groups of users share this thread; saturated, one worker thread sends (load()).
        const options = { inThisThread: perSecond !== undefined };
        await load(server.url, cookies, perSecond, { ...options, duration: warmUpSeconds });
        const delay = await loopDelay([server.child], () => load(server.url, cookies, perSecond, options));
        const figures = report(name, delay.result, held);
        reportDelay(delay);
        if (perSecond) console.log(`mixed load on SQLite ${verdict(figures.p99, figures.errors)}`);
        measurements.push(
          readsMeasurement(
            perSecond
              ? `SQLite, one \`main.ts\` process, ${userCount} users a request a second each`
              : `SQLite, one \`main.ts\` process, saturated by ${userCount} users (for the record)`,
            figures,
            delay,
            perSecond !== undefined,
          ),
        );
      }
    } finally {
      streams.abort();
      server.child.kill('SIGKILL');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The users and their sessions, written through the app's own services, then closed: the server processes
 * share the database and the secret that signs the cookies.
 */
async function signIn(env: Record<string, string>, dataDir: string) {
  const setup = await createServices(loadEnv(env), { clientDir: dataDir });
  try {
    return (await signedInUsers(setup, userCount, 'mixed')).map((u) => u.cookie);
  } finally {
    await setup.close();
  }
}

/**
 * `work`'s result, and the server processes' event-loop delay while it ran (bench/event-loop-probe.ts): the
 * highest p99 and maximum of any of them.
 */
async function loopDelay<T>(children: ChildProcess[], work: () => Promise<T>) {
  for (const child of children) child.send('start');
  const result = await work();
  const answers = children.map(
    (child) => new Promise<{ p99: number; max: number }>((resolve) => child.once('message', resolve as never)),
  );
  for (const child of children) child.send('stop');
  const delays = await Promise.all(answers);
  return { result, p99: Math.max(...delays.map((d) => d.p99)), max: Math.max(...delays.map((d) => d.max)) };
}

const reportDelay = (delay: { p99: number; max: number }) =>
  console.log(`the server's event loop delay: p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms`);

// ---------------------------------------------------------------------------------------------------------
// 4: SQLite, the default configuration, saturated, with writes.

async function saturatedWithWrites() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-mixed-writes-'));
  const port = await freePort();
  // The default configuration, as `npm start` runs: a secret generated into DATA_DIR, which the server shares.
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: String(port) };
  const origin = `http://localhost:${port}`;
  try {
    const cookies = await signIn(env, dataDir);
    const server = await startProcess(env, port, path.join(dataDir, 'app.log'));
    const streams = new AbortController();
    try {
      const questions: string[] = [];
      for (const [i, cookie] of cookies.slice(0, 20).entries()) {
        const id = crypto.randomUUID();
        const asked = await fetch(`${server.url}/api/questions`, {
          method: 'POST',
          headers: { cookie, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ id, title: `Recursion, question ${i}`, text: 'How does a recursive call end?' }),
        });
        if (!asked.ok) throw new Error(`asking a question: ${asked.status} ${await asked.text()}`);
        questions.push(id);
      }
      const held = await holdStreams(server.url, cookies, streams.signal);
      const setupRequest = path.join(import.meta.dirname, 'as-next-user-mixed.cjs');
      const write = (kind: 'vote' | 'answer') => ({
        method: kind === 'vote' ? 'PUT' : 'POST',
        headers: { origin, 'content-type': 'application/json' },
        write: kind,
        questions,
        setupRequest,
        cookies,
      });
      const requests = [
        ...targets.map((target) => ({ method: 'GET', path: target, setupRequest, cookies })),
        write('vote'),
        ...targets.map((target) => ({ method: 'GET', path: target, setupRequest, cookies })),
        write('answer'),
      ];
      const run = (duration: number) =>
        autocannon({ url: server.url, connections: cookies.length, duration, workers: 1, timeout: 30, requests });
      await run(warmUpSeconds);
      const delay = await loopDelay([server.child], async () => [await run(seconds)]);
      const [result] = delay.result;
      const refused = result!.statusCodeStats['503']?.count ?? 0;
      const otherErrors = result!.errors - result!.timeouts + result!.non2xx - refused;
      console.log(`\n4. SQLite, the default configuration, saturated, a vote and an answer in every ten requests`);
      console.log(`streams held: ${held.open} (refused ${held.refused})`);
      console.log(
        `${Math.round(result!.requests.average)} req/s (${Math.round((result!.requests.total - refused) / seconds)} served), ` +
          `p50 ${result!.latency.p50} ms, p99 ${result!.latency.p99} ms, ` +
          `slowest ${result!.latency.max} ms; ${result!.requests.total} answered, ${refused} of them refused with ` +
          `503; no answer within 30 s: ${result!.timeouts}; other errors: ${otherErrors}`,
      );
      reportDelay(delay);
      const met = result!.latency.max < 5000 && result!.timeouts === 0 && otherErrors === 0;
      console.log(
        `saturated with writes (goal: the slowest under 5 s, the rest refused at once): ${met ? 'PASS' : 'FAIL'}`,
      );
      measurements.push({
        goal: 'Saturated with writes: every request answered within 5 s or refused at once',
        measured: `SQLite in the default configuration, saturated by ${userCount} users, a vote and an answer in every ten requests: the slowest answer`,
        figure: { value: result!.latency.max, unit: 'ms' },
        also:
          `p99 ${result!.latency.p99} ms; ${result!.requests.total.toLocaleString('en-US')} answered, ${refused.toLocaleString('en-US')} of them refused with 503; ` +
          `${Math.round((result!.requests.total - refused) / seconds)} served a second; no answer within 30 s: ` +
          `${result!.timeouts}; other errors: ${otherErrors}; the server's event loop delay p99 ` +
          `${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms`,
        target: 'the slowest under 5 s, none unanswered, no other errors',
        met,
      });
    } finally {
      streams.abort();
      server.child.kill('SIGKILL');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// 3: PostgreSQL, two processes.

async function withDatabase(admin: string, work: (url: string) => Promise<void>) {
  const name = `bench_${crypto.randomUUID().replaceAll('-', '')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    await work(url.toString());
  } finally {
    await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** `src/server/main.ts` on `port`, its log to a file; resolves once it listens. */
async function startProcess(env: Record<string, string>, port: number, logFile: string) {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', './bench/event-loop-probe.ts', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log, 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`main.ts on port ${port} exited (${child.exitCode}): see ${logFile}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`main.ts on port ${port} did not answer: see ${logFile}`);
}

async function freePort() {
  const server = createHttpServer(() => new Response(), { production: true }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function onPostgres(admin: string) {
  await withDatabase(admin, async (databaseUrl) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-mixed-pg-'));
    const env = { ...productionEnv(dataDir), DATABASE_URL: databaseUrl };
    const cookies = await signIn(env, dataDir);
    const children: ChildProcess[] = [];
    const streams = new AbortController();
    try {
      const processes: { url: string; cookies: string[] }[] = [];
      for (const i of [1, 2]) {
        const started = await startProcess(env, await freePort(), path.join(dataDir, `app-${i}.log`));
        children.push(started.child);
        processes.push({ url: started.url, cookies: cookies.filter((_, n) => n % 2 === i - 1) });
      }
      const held = (await Promise.all(processes.map((p) => holdStreams(p.url, p.cookies, streams.signal)))).reduce(
        (sum, h) => ({ open: sum.open + h.open, refused: sum.refused + h.refused }),
      );
      const paced = (p: { url: string; cookies: string[] }, duration?: number) =>
        load(p.url, p.cookies, 1, { duration, inThisThread: true });
      await Promise.all(processes.map((p) => paced(p, warmUpSeconds)));
      const delay = await loopDelay(children, async () => (await Promise.all(processes.map((p) => paced(p)))).flat());
      const figures = report('3. PostgreSQL, two processes, each user a request a second', delay.result, held);
      reportDelay(delay);
      console.log(`mixed load on PostgreSQL, two processes ${verdict(figures.p99, figures.errors)}`);
      measurements.push(
        readsMeasurement(
          `PostgreSQL, two \`main.ts\` processes, ${userCount} users a request a second each`,
          figures,
          delay,
          true,
        ),
      );
    } finally {
      streams.abort();
      for (const child of children) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

console.log(
  `Mixed load: ${userCount} signed-in users, ${seconds} s a run, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
if (!writesOnly) await onSqlite();
await saturatedWithWrites();
if (writesOnly) console.log('\n(runs 1–3 skipped: `writes` given)');
else if (adminUrl) await onPostgres(adminUrl);
else console.log('\n3. PostgreSQL, two processes: skipped (set TEST_DATABASE_URL to a PostgreSQL admin URL)');
await recordResults(import.meta.filename, measurements, {
  conditions:
    `${userCount} signed-in users, each holding a live-event stream, ${seconds} s a run after ${warmUpSeconds} s ` +
    `unmeasured; the server in a process of its own. ${
      writesOnly
        ? 'Only the run saturated with writes (`writes` given).'
        : adminUrl
          ? ''
          : 'PostgreSQL not run: `TEST_DATABASE_URL` was not set.'
    }`.trim(),
});
