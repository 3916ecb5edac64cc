import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findClosedPort, waitFor } from './harness.ts';

/**
 * `src/server/main.ts` as its own process, the way it runs in production, on a free port with a fresh data
 * folder: for tests of what only a real process shows (signals, shutdown). `stop()` kills what is left and
 * removes the folder; call it in `finally`.
 */
export async function startMainProcess() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-main-'));
  const port = await findClosedPort();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    // eslint-disable-next-line no-restricted-properties -- the child gets PATH and nothing else from this environment
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => output.includes('"msg":"listening"'), 'the server to listen', 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** Everything the process has logged so far. */
    output: () => output,
    /** Sends SIGTERM and resolves with the exit code. */
    terminate: () => {
      child.kill('SIGTERM');
      return exited;
    },
    stop,
  };
}
