import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openEventStream } from '../test/event-stream.ts';
import { createTestDatabase, signInAs, startTestServer } from '../test/harness.ts';

// eslint-disable-next-line no-restricted-properties -- a test setting, as in harness.ts
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');

/**
 * What the Cloud SQL Auth Proxy is to a Cloud Run service (`--add-cloudsql-instances`): a Unix socket at
 * `/cloudsql/PROJECT:REGION:INSTANCE/.s.PGSQL.5432` that reaches the instance. Here it reaches the test's
 * PostgreSQL over TCP (password authentication, as on Cloud SQL); it counts the connections made through it.
 */
async function cloudSqlSocket(dir: string, target: { host: string; port: number }) {
  await mkdir(dir, { recursive: true });
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    const upstream = net.connect(target.port, target.host);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.once('error', end).once('close', end);
    upstream.once('error', end).once('close', end);
  });
  await new Promise<void>((resolve) => server.listen(path.join(dir, '.s.PGSQL.5432'), resolve));
  return { connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.runIf(onPostgres)("Cloud SQL's socket form of DATABASE_URL", () => {
  test('postgres://user:pass@/db?host=/cloudsql/PROJECT:REGION:INSTANCE: the server migrates, answers and hears its bus through the socket', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-cloudsql-'));
    // With no tables: the server migrates it through the socket.
    const database = await createTestDatabase(tmp, { empty: true });
    const tcp = new URL(database.url);
    const socketDir = path.join(tmp, 'cloudsql', 'demo-project:africa-south1:tutorbook');
    const socket = await cloudSqlSocket(socketDir, { host: tcp.hostname, port: Number(tcp.port || 5432) });
    // Written as the deploy guide writes it: no host before the path, the socket's folder in `host`.
    const socketUrl = `postgres://${tcp.username}:${tcp.password}@${tcp.pathname}?host=${socketDir}`;
    const server = await startTestServer({ env: { DATABASE_URL: socketUrl } });
    try {
      expect(server.services.kind).toBe('postgres');
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      // A notice goes through pg_notify on the pool and comes back on the bus's own LISTEN connection.
      const stream = await openEventStream(server);
      await stream.next((m) => m.event === 'ready');
      const student = await signInAs(server, 'student');
      const id = crypto.randomUUID();
      const asked = await student.client.post('/api/questions', { id, title: 'Through the socket?', text: 'Yes.' });
      expect(asked.status, asked.text).toBe(201);
      const change = await stream.next((m) => m.event === 'change');
      expect(JSON.parse(change.data)).toMatchObject({ table: 'questions', ids: [id] });
      stream.abort();
      // The pool's connections and the listener's, every one through the socket.
      expect(socket.connections()).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
      await socket.close();
      await database.drop();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
