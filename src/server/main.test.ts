import http from 'node:http';
import { expect, test } from 'vitest';
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
