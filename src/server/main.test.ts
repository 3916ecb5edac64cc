import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { findClosedPort, waitFor } from './test/harness.ts';

test('the server stops cleanly on SIGTERM, even with a keep-alive connection open, and exits with 0', async () => {
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
  try {
    await waitFor(async () => output.includes('"msg":"listening"'), 'the server to listen', 20_000);

    // A keep-alive connection left open must not hold the shutdown.
    const agent = new http.Agent({ keepAlive: true });
    const health = await new Promise<number>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject),
    );
    expect(health).toBe(200);

    const stoppedAt = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Waiting for the idle connection would take Node's 5 s keep-alive timeout.
    expect(Date.now() - stoppedAt).toBeLessThan(4_000);
    expect(output).toContain('shutting down');
    expect(output).toContain('"msg":"stopped"');
    agent.destroy();
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
});
