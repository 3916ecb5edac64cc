import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from 'better-auth/crypto';
import pg from 'pg';
import { insertVerifiedUsers } from '../auth/verified-users.ts';
import { createDb, type Db } from '../db/create-db.ts';
import { nodeChildEnv } from './child-env.ts';
import { deadline } from './deadline.ts';

/**
 * `src/server/main.ts` as its own process for the offline engine's chaos test (src/client/app/offline-chaos.test.ts):
 * on a fixed port and data folder, so that it can be killed outright (SIGKILL, as a crash or an OOM kill would) and
 * started again on the same data and port, which is what a browser sees of a server that died. SQLite in the data
 * folder, or with TEST_DATABASE_URL a fresh PostgreSQL database, dropped by `close()`.
 *
 * The test also reaches the database directly, as the server's own code would: to create verified students (no
 * sign-up e-mails) and to read what was stored, which is the truth the device is compared with.
 *
 * A start that misses its deadline kills the process and forgets it: that start fails, and the next `start()` tries
 * a fresh process, so one slow start on a busy machine fails one test, not every later one.
 */
export async function startChaosServer({
  entry = 'src/server/main.ts',
}: {
  /** The script to run: main.ts, or in the harness's own test a stand-in that never gets ready. */
  entry?: string;
} = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-chaos-'));
  const database = await createDatabase(dataDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...nodeChildEnv(),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: String(port),
    // The origin the browser sends: the server refuses cookie-carrying writes from any other.
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
  };
  let child: ChildProcess | undefined;
  let starting: Promise<void> | undefined;
  /** The last lines the process printed (warnings and errors only), for a failure's message. */
  let output = '';
  let starts = 0;
  let kills = 0;
  let db: Db | undefined;

  async function launch(startWithinMs: number): Promise<void> {
    if (child) return;
    const proc = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    starts += 1;
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    const exited = once(proc, 'exit');
    // Ready once it answers: its log lines are written a second at a time (log.ts), too late to wait for.
    const withinMs = deadline(startWithinMs);
    const until = Date.now() + withinMs;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        if (child === proc) child = undefined;
        throw new Error(`The server exited while starting:\n${output}`);
      }
      if (await answers(url)) break;
      if (Date.now() > until) {
        // Not left running: a later start would take it for a server and return at once, and every later test would
        // talk to a process that does not answer. Killed, it frees the port for the next start.
        if (child === proc) child = undefined;
        if (proc.exitCode === null && proc.signalCode === null) {
          proc.kill('SIGKILL');
          await exited;
        }
        throw new Error(`The server did not start within ${withinMs / 1000} s (killed):\n${output}`);
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15))]);
    }
    db ??= createDb(database.url).db;
  }

  return {
    url,
    /** How many times it was started, and killed. */
    stats: () => ({ starts, kills }),
    /** Started (or starting), not killed since. */
    running: () => child !== undefined,
    output: () => output,
    /**
     * Starts the process (again, on the same data and port) and resolves once it answers. `withinMs`, scaled by the
     * time factor (deadline.ts), is how long it may take; a start already under way keeps its own.
     */
    start({ withinMs = 20_000 }: { withinMs?: number } = {}): Promise<void> {
      starting ??= launch(withinMs).finally(() => (starting = undefined));
      return starting;
    },
    /** Whatever start is under way, finished (a restart left to come up in the background). */
    settled: async () => {
      // A start that failed has failed its own test already; what matters here is that none is under way.
      await starting?.catch(() => undefined);
    },
    /** SIGKILL: no shutdown, no flush; requests in flight lose their connection, an open transaction is rolled back. */
    async kill(): Promise<boolean> {
      await starting?.catch(() => undefined);
      const proc = child;
      if (!proc) return false;
      child = undefined;
      kills += 1;
      const exited = once(proc, 'exit');
      proc.kill('SIGKILL');
      await exited;
      return true;
    },
    /** The database the server uses, opened by this process too (after the first start: the server migrates it). */
    db(): Db {
      if (!db) throw new Error('Start the server first: it creates the tables.');
      return db;
    },
    /** A verified student with a password, written straight to the database (harness.ts createVerifiedUser). */
    async createStudent(name: string, email: string, password: string): Promise<{ id: string }> {
      const id = crypto.randomUUID();
      await insertVerifiedUsers(this.db(), [{ id, name, email }], await hashOnce(password));
      return { id };
    },
    async close(): Promise<void> {
      await this.kill().catch(() => undefined);
      await db?.destroy().catch(() => undefined);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type ChaosServer = Awaited<ReturnType<typeof startChaosServer>>;

/** Node's own fetch, whatever a test installs as the global one later (the chaos test puts a browser's there). */
const nodeFetch = globalThis.fetch.bind(globalThis);

async function answers(url: string): Promise<boolean> {
  try {
    const response = await nodeFetch(`${url}/api/health`, { signal: AbortSignal.timeout(deadline(2000)) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Hashing is slow by design: one (salted) hash per password, as better-auth makes it. */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

/** A port that was free a moment ago: the server is started on it again and again. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** As harness.ts does: a file in the data folder, or a new PostgreSQL database dropped afterwards. */
async function createDatabase(dataDir: string): Promise<{ url: string; drop(): Promise<void> }> {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { url: `file:${path.join(dataDir, 'app.db')}`, drop: async () => {} };
  const name = `chaos_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // WITH (FORCE): a killed server's connections may not have been noticed yet.
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
