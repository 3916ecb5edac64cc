import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadEnv } from '../src/server/env.ts';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { createLogDestination } from '../src/server/log.ts';
import { createServices } from '../src/server/server.ts';
import { autocannon } from './autocannon.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * `node bench/mixed.ts [users] [seconds]`: a mixed load on one server in production's configuration (SQLite,
 * a request line per request to a file, rate limits on but raised: every user here is this machine's one
 * address). Each of 500 signed-in students holds a live-event stream and, one connection each, reads in turn
 * the catalogue, the board, their bookings and themself for 60 s. Prints requests/s, p99, errors and the
 * server's event-loop delay (the longest any request held it). Issue 22, point 5: 0 errors and p99 under
 * 200 ms. A report, not a test: it always exits 0. Writes are left out: the board's and the bookings' own
 * limits (per user, per hour) would refuse most of them.
 */
const userCount = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 60);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-mixed-'));
const env = loadEnv({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  AUTH_SECRET: randomBytes(32).toString('hex'),
  PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
  READS_PER_MINUTE: String(1e9),
  EVENT_STREAMS_PER_ADDRESS: String(userCount * 2),
});
const services = await createServices(env, {
  clientDir: dataDir,
  logDestination: createLogDestination(path.join(dataDir, 'app.log')),
});
const server = createHttpServer(services.app.fetch, { production: true, prepared: services.prepared }).listen(
  0,
  '127.0.0.1',
);
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const cookies = (await signedInUsers(services, userCount, 'mixed')).map((u) => u.cookie);

// One live-event stream per user, held for the whole run.
const streams = new AbortController();
let streamsOpen = 0;
let streamsRefused = 0;
await Promise.all(
  cookies.map(async (cookie) => {
    const response = await fetch(`${url}/api/events`, { headers: { cookie }, signal: streams.signal });
    if (!response.ok || !response.body) {
      streamsRefused += 1;
      return;
    }
    streamsOpen += 1;
    void response.body.pipeTo(new WritableStream()).catch(() => {});
  }),
);

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const setupRequest = path.join(import.meta.dirname, 'as-next-user.cjs');
const result = await autocannon({
  url,
  connections: userCount,
  duration: seconds,
  workers: 1,
  requests: ['/api/modules', '/api/questions', '/api/bookings', '/api/me'].map((target) => ({
    method: 'GET',
    path: target,
    setupRequest,
    cookies,
  })),
});
delay.disable();

const ms = (ns: number) => (ns / 1e6).toFixed(1);
console.log(
  `\nMixed load: ${userCount} signed-in users, ${seconds} s, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log(`streams held: ${streamsOpen} (refused ${streamsRefused})`);
// autocannon counts a timeout among its errors too.
console.log(
  `reads: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx} of ${result.requests.total} (non-2xx ${result.non2xx}, timeouts ${result.timeouts})`,
);
console.log(
  `event loop delay: p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms (goal: p99 of requests under 200 ms, no request holding the loop over 50 ms)`,
);

streams.abort();
server.close();
server.closeAllConnections();
await services.close();
rmSync(dataDir, { recursive: true, force: true });
