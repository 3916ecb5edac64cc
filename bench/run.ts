import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { loadEnv } from '../src/server/env.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';
import { createServices } from '../src/server/server.ts';
import { runFanOutBench } from './fan-out.ts';

/**
 * `npm run bench`: throughput and p99 latency of our server against a bare `node:http` server measured in the
 * same run on the same machine, so the ratios mean something where absolute figures do not. A report, not a
 * test: it always exits 0. Targets: /api/health at ≥ 0.6 of the bare server's requests/s, GET /api/modules (the
 * whole catalogue, which every page load of the app asks for) at ≥ 0.5.
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
const roundSeconds = 4;
const roundCount = 3;
/** The least share of the bare server's requests/s each target should reach. */
const goals = [
  { name: 'GET /api/health', target: 0.6 },
  { name: 'GET /api/modules', target: 0.5 },
];


if (!existsSync(path.join(clientDir, 'index.html'))) {
  console.log('dist/client/index.html is missing: running npm run build first');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-'));
// Production mode (HSTS header, rate limiter on) is what users meet; none of it reads the outside environment.
const env = loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_SECRET: randomBytes(32).toString('hex') });
const services = await createServices(env, { clientDir });
const app = createHttpServer(services.app.fetch, { production: env.production }).listen(0, '127.0.0.1');

const bareBody = JSON.stringify({ status: 'ok' });
const bare = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bareBody) });
  res.end(bareBody);
});

await Promise.all([listening(app), new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))]);
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

const targets = [
  { name: 'bare node:http /', url: `${bareUrl}/` },
  { name: 'GET /api/health', url: `${appUrl}/api/health` },
  { name: 'GET /api/modules', url: `${appUrl}/api/modules` },
  { name: 'GET / (HTML shell)', url: `${appUrl}/` },
];

try {
  for (const t of targets) {
    const check = await fetch(t.url);
    await check.arrayBuffer();
    if (!check.ok) throw new Error(`${t.name}: ${check.status} before the run`);
    await autocannon({ url: t.url, connections, duration: warmupSeconds, workers: 1 });
  }
  // Rounds interleave the targets, so a burst of load from elsewhere on the machine falls on all of them
  // alike; each target's median round is reported.
  const rounds = new Map<string, AutocannonResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= roundCount; round++) {
    process.stdout.write(`round ${round}/${roundCount}:`);
    for (const t of targets) {
      const result = await autocannon({ url: t.url, connections, duration: roundSeconds, workers: 1 });
      rounds.get(t.name)!.push(result);
      process.stdout.write(` ${t.name} ${Math.round(result.requests.average)} req/s;`);
    }
    process.stdout.write('\n');
  }
  report(targets.map((t) => ({ name: t.name, result: median(rounds.get(t.name)!) })));
} finally {
  await stop();
}
await runFanOutBench();

function median(results: AutocannonResult[]): AutocannonResult {
  return [...results].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(results.length / 2)]!;
}

function report(results: { name: string; result: AutocannonResult }[]) {
  const reference = results[0]!.result;
  // autocannon records latency in whole milliseconds: a p99 under 1 ms reads 0, and a ratio to 0 means nothing.
  const ms = (v: number) => (v < 1 ? '<1' : v.toFixed(0));
  const rows = results.map(({ name, result: r }) => [
    name,
    Math.round(r.requests.average).toString(),
    (r.requests.average / reference.requests.average).toFixed(2),
    ms(r.latency.p99),
    reference.latency.p99 >= 1 ? (r.latency.p99 / reference.latency.p99).toFixed(2) : 'n/a',
    r.latency.average.toFixed(2),
    (r.non2xx + r.errors + r.timeouts).toString(),
  ]);
  const header = ['target', 'req/s', 'req/s ÷ bare', 'p99 ms', 'p99 ÷ bare', 'mean ms', 'errors'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s per target (median shown), Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));

  console.log('');
  for (const goal of goals) {
    const ratio = results.find((r) => r.name === goal.name)!.result.requests.average / reference.requests.average;
    console.log(`${goal.name} at ${ratio.toFixed(2)} of the bare server's requests/s (target ≥ ${goal.target}): ${ratio >= goal.target ? 'PASS' : 'FAIL'}`);
  }
  if (reference.latency.p99 < 1) console.log('(p99 ÷ bare is n/a when the bare server\'s p99 is under autocannon\'s 1 ms resolution.)');
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
  await Promise.all([closed(app as http.Server), closed(bare)]);
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
}
