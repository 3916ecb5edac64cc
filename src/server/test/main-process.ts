import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nodeChildEnv } from './child-env.ts';
import { deadline } from './deadline.ts';
import { createTestDatabase, findClosedPort, waitFor } from './harness.ts';

/**
 * A data folder, a port and a database that outlive the processes started on them, so a test can kill the
 * server and start another on the same data. The database is the harness's (createTestDatabase): a file in
 * the folder, or with TEST_DATABASE_URL a fresh PostgreSQL database of its own. `remove()` drops both.
 */
export interface MainData {
  dataDir: string;
  port: number;
  /** The server's origin, which is also its PUBLIC_URL (better-auth checks the Origin header against it). */
  url: string;
  /** The variables each process on this data gets (and what `loadEnv` needs to open the same data here). */
  env: Record<string, string>;
  remove(): Promise<void>;
}

/** `env` adds to or overrides the variables, e.g. `BOOKING_MIN_LEAD_HOURS`. */
export async function createMainData(env: Record<string, string> = {}): Promise<MainData> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-main-'));
  const database = await createTestDatabase(dataDir);
  const port = await findClosedPort();
  const url = `http://127.0.0.1:${port}`;
  return {
    dataDir,
    port,
    url,
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: database.url,
      ...database.env,
      LOG_LEVEL: 'info',
      ...env,
    },
    async remove() {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `src/server/main.ts` as its own process, the way it runs in production: for tests of what only a real
 * process shows (signals, shutdown, a crash). Without `data`, on a free port with a fresh data folder (the
 * default SQLite file) that `stop()` removes; with `data`, on that data, which `stop()` leaves for the next
 * process. `stop()` kills what is left; call it in `finally`.
 */
export async function startMainProcess(data?: MainData) {
  const dataDir = data?.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'tutorbook-main-')));
  const port = data?.port ?? (await findClosedPort());
  const env = data?.env ?? { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...nodeChildEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    child.kill('SIGKILL');
    await exited;
    if (!data) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => output.includes('"msg":"listening"'), 'the server to listen', 20_000);
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}\n${output}`, { cause: error });
  }
  return {
    port,
    url: data?.url ?? `http://127.0.0.1:${port}`,
    /** Everything the process has logged so far. */
    output: () => output,
    /** Sends SIGTERM and resolves with the exit code. */
    terminate: () => {
      child.kill('SIGTERM');
      return exited;
    },
    /** Freezes the process (SIGSTOP): it reads, writes and commits nothing until `resume()`. */
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    /** Sends SIGKILL, a crash: no request is finished, nothing is flushed. Resolves once the process is gone. */
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop,
  };
}

/**
 * `main.ts` as a second process beside a test server: on the same database and data folder, with the same auth
 * secret (so the same cookies), on a port of its own. `stop()` leaves the data to the test server.
 */
export async function startProcessBeside(server: { envVars: Record<string, string> }) {
  const port = await findClosedPort();
  const url = `http://127.0.0.1:${port}`;
  return startMainProcess({
    dataDir: server.envVars.DATA_DIR!,
    port,
    url,
    env: { ...server.envVars, PORT: String(port), PUBLIC_URL: url, LOG_LEVEL: 'info' },
    remove: async () => {},
  });
}

/**
 * `npm run cli -- <args>` as its own process, with `env` and nothing else from this process's environment but what
 * Node needs (child-env.ts): a test server's variables make it find the same data, database and mail server. `input` is its standard
 * input, piped (a password, say); without it stdin is empty. `timeoutMs` is scaled by the time factor (deadline.ts):
 * a CLI that loads firebase-admin took more than 30 s on a loaded machine, and was killed.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
  input = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.resolve('src/server/cli.ts'), ...args],
      { env: { ...nodeChildEnv(), ...env }, timeout: deadline(timeoutMs) },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
