import { execFile } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { nodeChildEnv } from './test/child-env.ts';
import { deadline } from './test/deadline.ts';
import { startMainProcess } from './test/main-process.ts';

test('the server stops cleanly on SIGTERM, even with a keep-alive connection open, and exits with 0', async () => {
  const main = await startMainProcess();
  try {
    // A keep-alive connection left open must not hold the shutdown.
    const agent = new http.Agent({ keepAlive: true });
    const health = await new Promise<number>((resolve, reject) =>
      http
        .get({ host: '127.0.0.1', port: main.port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject),
    );
    expect(health).toBe(200);

    const stoppedAt = Date.now();
    expect(await main.terminate()).toBe(0);
    // Waiting for the idle connection would take Node's 5 s keep-alive timeout.
    expect(Date.now() - stoppedAt).toBeLessThan(4_000);
    expect(main.output()).toContain('shutting down');
    expect(main.output()).toContain('"msg":"stopped"');
    // Request lines wait in memory for their batch (log.ts): the stop writes them.
    expect(main.output()).toMatch(/"method":"GET","path":"\/api\/health","status":200,"ms":[\d.]+,"msg":"request"/);
    agent.destroy();
  } finally {
    await main.stop();
  }
});

test('in production, an http PUBLIC_URL stops start-up with the reason alone, and exit code 1', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) =>
      execFile(
        process.execPath,
        ['src/server/main.ts'],
        {
          env: {
            ...nodeChildEnv(),
            NODE_ENV: 'production',
            AUTH_SECRET: 's'.repeat(32),
            PUBLIC_URL: 'http://tutorbook.co.za',
            PAYMENT_EFT_DETAILS: 'Bank: FNB',
            DATA_DIR: path.join(os.tmpdir(), 'tutorbook-never-created'),
          },
          timeout: deadline(20_000),
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
  );
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toBe(
    'Invalid environment:\n  PUBLIC_URL: must be https:// in production (http:// only on localhost): over http the session cookie is sent without Secure, readable on the network\n',
  );
});
