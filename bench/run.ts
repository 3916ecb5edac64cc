import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { loadEnv } from '../src/server/env.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { createServices } from '../src/server/server.ts';
import { createLogDestination } from '../src/server/log.ts';
import { runFanOutBench } from './fan-out.ts';
import { recordResults, type Measurement } from './results.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * `npm run bench`: throughput and p99 latency of our server against a bare `node:http` server measured in the
 * same run on the same machine, so the ratios mean something where absolute figures do not. A report, not a
 * test: it always exits 0. Targets, in the default configuration (LOG_LEVEL=info, a line per request): /api/health
 * and GET /api/modules (the whole catalogue, which every page load of the app asks for) at ≥ 0.7 of the bare
 * server sending the same bytes (requests/s). The same routes at LOG_LEVEL=warn show what the request lines cost.
 *
 * The servers run on this thread; autocannon runs in a worker thread (`workers: 1`) so the load generator
 * does not compete with them for the same event loop. Figures move with whatever else the machine is doing
 * (the load average is printed): compare ratios from one run, not absolute figures across runs. Then the
 * live-event fan-out (bench/fan-out.ts).
 */

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
const connections = 10;
const warmupSeconds = 1;
const roundSeconds = 3;
const roundCount = 5;
const publicReads = 'Public reads ≥ 0.7× bare';
const signedIn = 'Signed-in reads ≥ 0.25× bare';
/** The least share of the bare server's requests/s each target should reach; `goal`: docs/benchmarks.md's name. */
const goals = [
  { name: 'GET /api/health', target: 0.7, goal: publicReads },
  { name: 'GET /api/modules', target: 0.7, goal: publicReads },
  // Through the session middleware and the routes, as every signed-in page's reads go.
  { name: 'GET /api/me, signed in', target: 0.25, goal: signedIn },
  { name: 'GET /api/bookings, signed in', target: 0.25, goal: signedIn },
  { name: 'GET /api/questions, signed in', target: 0.25, goal: signedIn },
];

if (!existsSync(path.join(clientDir, 'index.html'))) {
  console.log('dist/client/index.html is missing: running npm run build first');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-'));
/**
 * The app as it runs by default (LOG_LEVEL=info: one line per request, to the production destination, here a
 * file instead of stdout so the figures do not depend on a terminal) and with request lines off (warn).
 */
async function startApp(logLevel: 'info' | 'warn') {
  const dir = path.join(dataDir, logLevel);
  mkdirSync(dir);
  const logFile = path.join(dir, 'app.log');
  // Production mode (HSTS header, rate limiter on) is what users meet; none of it reads the outside environment.
  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dir,
    LOG_LEVEL: logLevel,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    // Production does not start without the server's VAPID keys (web push).
    ...newVapidKeysEnv(),
    // Production does not start without the bank details students pay into.
    PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
    // Every client of the bench is this machine's one address: reads are counted, as in production, never refused.
    READS_PER_MINUTE: String(1e9),
  });
  const services = await createServices(env, { clientDir, logDestination: createLogDestination(logFile) });
  const server = createHttpServer(services.app.fetch, {
    production: env.production,
    prepared: services.prepared,
  }).listen(0, '127.0.0.1');
  await listening(server);
  return { services, server, logFile, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
const app = await startApp('info');
const quiet = await startApp('warn');

const appUrl = app.url;
/** A student with no bookings on an empty board, signed in as a browser would be: their session cookie. */
const studentCookie = (await signedInUsers(app.services, 1, 'bench-student'))[0]!.cookie;
/** The signed-in reads: each path as the app answers it, and the path the bare server sends its bytes at. */
const signedInReads = [
  { name: 'GET /api/me, signed in', path: '/api/me', barePath: '/signed-in/me', cookie: studentCookie },
  {
    name: 'GET /api/bookings, signed in',
    path: '/api/bookings',
    barePath: '/signed-in/bookings',
    cookie: studentCookie,
  },
  {
    name: 'GET /api/questions, signed in',
    path: '/api/questions',
    barePath: '/signed-in/questions',
    cookie: studentCookie,
  },
  // Refused (401): counted under errors, which for this row are its answers.
  { name: 'GET /api/me, visitor (401)', path: '/api/me', barePath: '/visitor/me', cookie: undefined },
];
/**
 * The reference sends the same bytes as the app for each path (uncompressed, as autocannon asks for them), so
 * that each ratio measures the app's own work and not the size of its answer.
 */
const sameBytes = new Map<string, { type: string; body: Buffer }>();
for (const pathname of ['/api/health', '/api/modules', '/']) {
  const answer = await fetch(`${appUrl}${pathname}`, { headers: { 'accept-encoding': 'identity' } });
  sameBytes.set(pathname, { type: answer.headers.get('content-type')!, body: Buffer.from(await answer.arrayBuffer()) });
}
for (const read of signedInReads) {
  const answer = await fetch(`${appUrl}${read.path}`, {
    headers: { 'accept-encoding': 'identity', ...(read.cookie && { cookie: read.cookie }) },
  });
  if (answer.status !== (read.cookie ? 200 : 401)) throw new Error(`${read.name}: ${answer.status} before the run`);
  const body = Buffer.from(await answer.arrayBuffer());
  sameBytes.set(read.barePath, { type: answer.headers.get('content-type')!, body });
}
const bare = http.createServer((req, res) => {
  const { type, body } = sameBytes.get(req.url!) ?? sameBytes.get('/api/health')!;
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
});

await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

/** `reference`: the bare server sending the same bytes, which the target's ratios are taken against. */
const targets: { name: string; url: string; reference?: string; headers?: Record<string, string> }[] = [
  { name: 'bare node:http, health bytes', url: `${bareUrl}/api/health` },
  { name: 'bare node:http, catalogue bytes', url: `${bareUrl}/api/modules` },
  { name: 'bare node:http, home page bytes', url: `${bareUrl}/` },
  { name: 'GET /api/health', url: `${appUrl}/api/health`, reference: 'bare node:http, health bytes' },
  { name: 'GET /api/modules', url: `${appUrl}/api/modules`, reference: 'bare node:http, catalogue bytes' },
  { name: 'GET / (prerendered home)', url: `${appUrl}/`, reference: 'bare node:http, home page bytes' },
  ...signedInReads.flatMap((read) => [
    { name: `bare node:http, ${read.barePath} bytes`, url: `${bareUrl}${read.barePath}` },
    {
      name: read.name,
      url: `${appUrl}${read.path}`,
      reference: `bare node:http, ${read.barePath} bytes`,
      headers: read.cookie ? { cookie: read.cookie } : undefined,
    },
  ]),
  {
    name: 'GET /api/health, LOG_LEVEL=warn',
    url: `${quiet.url}/api/health`,
    reference: 'bare node:http, health bytes',
  },
  {
    name: 'GET /api/modules, LOG_LEVEL=warn',
    url: `${quiet.url}/api/modules`,
    reference: 'bare node:http, catalogue bytes',
  },
];

const loadAtStart = os.loadavg()[0]!.toFixed(1);
let results: Result[] = [];
try {
  for (const t of targets) {
    const check = await fetch(t.url, { headers: t.headers });
    await check.arrayBuffer();
    if (!check.ok && check.status !== 401) throw new Error(`${t.name}: ${check.status} before the run`);
    await autocannon({ url: t.url, headers: t.headers, connections, duration: warmupSeconds, workers: 1 });
  }
  // Rounds interleave the targets, so a burst of load from elsewhere on the machine falls on all of them
  // alike; each target's median round is reported, and its ratio to the bare server is the median of the
  // ratios within each round (the bare server's round was measured seconds before).
  const rounds = new Map<string, AutocannonResult[]>(targets.map((t) => [t.name, []]));
  // The servers' CPU time per request on this thread: unlike requests/s, it hardly moves when other processes
  // take the cores (it leaves out libuv's thread pool, where file writes run).
  const cpuPerRequest = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= roundCount; round++) {
    process.stdout.write(`round ${round}/${roundCount}:`);
    for (const t of targets) {
      const cpuBefore = process.threadCpuUsage();
      const result = await autocannon({
        url: t.url,
        headers: t.headers,
        connections,
        duration: roundSeconds,
        workers: 1,
      });
      const cpu = process.threadCpuUsage(cpuBefore);
      rounds.get(t.name)!.push(result);
      cpuPerRequest.get(t.name)!.push((cpu.user + cpu.system) / result.requests.total);
      process.stdout.write(` ${t.name} ${Math.round(result.requests.average)} req/s;`);
    }
    process.stdout.write('\n');
  }
  const middle = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
  results = targets.map((t) => {
    const own = rounds.get(t.name)!;
    const bareRounds = rounds.get(t.reference ?? t.name)!;
    return {
      name: t.name,
      reference: t.reference,
      result: median(own),
      referenceResult: median(bareRounds),
      ratio: middle(own.map((r, i) => r.requests.average / bareRounds[i]!.requests.average)),
      cpuUs: middle(cpuPerRequest.get(t.name)!),
      referenceCpuUs: middle(cpuPerRequest.get(t.reference ?? t.name)!),
    };
  });
  report(results);
  await new Promise<void>((resolve) => app.services.logger.flush(() => resolve()));
  const requestLines = readFileSync(app.logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"msg":"request"')).length;
  console.log(`request lines logged at LOG_LEVEL=info: ${requestLines}`);
} finally {
  await stop();
}
const fanOut = await runFanOutBench();
await recordResults(import.meta.filename, [...measurements(results), fanOut.measurement], {
  conditions:
    `${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s per target: each figure is the ` +
    "target's median round, each ratio the median of the rounds' ratios; `LOG_LEVEL=info` (the default) unless " +
    `said; load average ${loadAtStart} at the start. ${fanOut.conditions}`,
});

interface Result {
  name: string;
  reference: string | undefined;
  result: AutocannonResult;
  referenceResult: AutocannonResult;
  ratio: number;
  cpuUs: number;
  referenceCpuUs: number;
}

/** The goals' figures and those beside them (not the bare server's own rows), for docs/bench-results.md. */
function measurements(all: Result[]): Measurement[] {
  const p99 = (r: AutocannonResult) => (r.latency.p99 < 1 ? '<1' : r.latency.p99.toFixed(0));
  const fromGoals = all
    .filter((r) => r.reference)
    .map((r) => ({ r, goal: goals.find((g) => g.name === r.name) }))
    .sort((a, b) => Number(!a.goal) - Number(!b.goal));
  return fromGoals.map(({ r, goal }) => ({
    ...(goal && { goal: goal.goal }),
    measured: r.name.replace(/^GET [^\s,]+/, '`$&`').replace(/LOG_LEVEL=\w+/, '`$&`'),
    figure: { value: Math.round(r.result.requests.average), unit: 'req/s' },
    reference: {
      what: 'bare `node:http` sending the same bytes',
      figure: { value: Math.round(r.referenceResult.requests.average), unit: 'req/s' },
    },
    ratio: r.ratio,
    also:
      `p99 ${p99(r.result)} ms (bare ${p99(r.referenceResult)}); CPU ${r.cpuUs.toFixed(1)} µs/request ` +
      `(bare ${r.referenceCpuUs.toFixed(1)})` +
      // A visitor's 401s are that row's answers, which autocannon counts among errors.
      (r.name.includes('(401)') ? '' : `; errors ${r.result.non2xx + r.result.errors + r.result.timeouts}`),
    ...(goal && { target: `≥ ${goal.target}`, met: r.ratio >= goal.target }),
  }));
}

function median(results: AutocannonResult[]): AutocannonResult {
  return [...results].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(results.length / 2)]!;
}

function report(results: Result[]) {
  // autocannon records latency in whole milliseconds: a p99 under 1 ms reads 0, and a ratio to 0 means nothing.
  const ms = (v: number) => (v < 1 ? '<1' : v.toFixed(0));
  const rows = results.map(({ name, result: r, referenceResult: reference, ratio, cpuUs }) => [
    name,
    Math.round(r.requests.average).toString(),
    ratio.toFixed(2),
    ms(r.latency.p99),
    reference.latency.p99 >= 1 ? (r.latency.p99 / reference.latency.p99).toFixed(2) : 'n/a',
    r.latency.average.toFixed(2),
    cpuUs.toFixed(1),
    (r.non2xx + r.errors + r.timeouts).toString(),
  ]);
  const header = [
    'target',
    'req/s',
    'req/s ÷ bare (same bytes)',
    'p99 ms',
    'p99 ÷ bare',
    'mean ms',
    'CPU µs/req',
    'errors',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(
    `\nLOG_LEVEL=info (the default) unless the target says otherwise; ${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s per target (median shown), Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));

  console.log('');
  for (const goal of goals) {
    const ratio = results.find((r) => r.name === goal.name)!.ratio;
    console.log(
      `${goal.name} at ${ratio.toFixed(2)} of the bare server's requests/s (target ≥ ${goal.target}): ${ratio >= goal.target ? 'PASS' : 'FAIL'}`,
    );
  }
  if (results.some((r) => r.referenceResult.latency.p99 < 1))
    console.log("(p99 ÷ bare is n/a when the bare server's p99 is under autocannon's 1 ms resolution.)");
}

function listening(server: Server) {
  return new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
}

async function stop() {
  const closed = (server: { close(cb: () => void): unknown; closeAllConnections?: () => void }) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  await Promise.all([closed(app.server), closed(quiet.server), closed(bare)]);
  await Promise.all([app.services.close(), quiet.services.close()]);
  rmSync(dataDir, { recursive: true, force: true });
}
