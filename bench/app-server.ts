import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../src/server/env.ts';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { createServices, type Services } from '../src/server/server.ts';

/**
 * The app as production runs it (SQLite in a fresh folder, logging off), listening on 127.0.0.1 for a
 * benchmark. `prepare` runs before it listens (seeding); with `idleMail` the mail worker only wakes when told,
 * so no e-mail is sent during a run and what is measured is the request. It serves the build in `clientDir`,
 * or a one-line shell without one. `bytesSent()` counts what went out on the sockets, headers included.
 * `env` adds to the environment (another engine: DATABASE_URL, FIRESTORE_EMULATOR_HOST). `port`: where it
 * listens (any free port by default); its PUBLIC_URL is then that address, so that a browser's pages may post.
 */
export async function startAppServer(
  name: string,
  options: {
    idleMail?: boolean;
    clientDir?: string;
    port?: number;
    env?: Record<string, string>;
    prepare?: (services: Services) => Promise<void>;
  } = {},
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `tutorbook-bench-${name}-`));
  let clientDir = options.clientDir;
  if (!clientDir) {
    clientDir = path.join(dataDir, 'client');
    mkdirSync(clientDir);
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>TutorBook</title>');
  }
  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    // Production does not start without the server's VAPID keys (web push).
    ...newVapidKeysEnv(),
    // Production does not start without the bank details students pay into.
    PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
    // Every client of the bench is this machine's one address: reads are counted, as in production, never refused.
    READS_PER_MINUTE: String(1e9),
    ...(options.port !== undefined && { PUBLIC_URL: `http://127.0.0.1:${options.port}` }),
    ...options.env,
  });
  const services = await createServices(env, { clientDir, ...(options.idleMail ? { mailPollMs: 2 ** 31 - 1 } : {}) });
  if (options.idleMail) services.deps.mail.wake = () => {};
  await options.prepare?.(services);
  const requests = trackRequests(services.app.fetch);
  const server = createHttpServer(requests.fetch, { production: true, prepared: services.prepared }).listen(
    options.port ?? 0,
    '127.0.0.1',
  );
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  let closedSocketsBytes = 0;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      closedSocketsBytes += socket.bytesWritten;
    });
  });
  return {
    services,
    /** The Node server, for counting what its sockets carry (bench/wire-bytes.ts). */
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytesSent: () => [...sockets].reduce((sum, socket) => sum + socket.bytesWritten, closedSocketsBytes),
    /** Resolves once the app answers no request (what a run left in flight is done). */
    settled: () => requests.settled(),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await requests.settled();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The requests an app is still answering. Autocannon ends a run by dropping its connections, not by waiting
 * for their answers, so the app may still be working on a few when the run is over: the benchmark waits for
 * them before it closes the database under them.
 */
function trackRequests<A extends unknown[], R>(fetch: (...args: A) => Promise<R> | R) {
  let active = 0;
  let idle: (() => void) | undefined;
  return {
    fetch: async (...args: A): Promise<R> => {
      active++;
      try {
        return await fetch(...args);
      } finally {
        if (--active === 0) idle?.();
      }
    },
    /** Resolves once no request is being answered. */
    settled: () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))),
  };
}
