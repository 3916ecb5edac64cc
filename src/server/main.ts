import type { AddressInfo } from 'node:net';
import { loadEnv } from './env.ts';
import { createHttpServer } from './http/node-server.ts';
import { createServices } from './server.ts';

const env = loadEnvOrExit();
/**
 * A request read after the event loop's turn has run this long is refused with 503 (http/busy-turns.ts): every
 * request taken is answered within a few seconds at saturation (decision 0042).
 */
const busyAfterMs = 1000;
const services = await createServices(env);
const { logger } = services;

const server = createHttpServer(services.app.fetch, {
  production: env.production,
  prepared: services.prepared,
  busy: { afterMs: busyAfterMs, refused: countRefusals() },
});
server.listen(env.port, env.host, () => {
  const info = server.address() as AddressInfo;
  logger.info(
    { url: `http://${info.address}:${info.port}`, publicUrl: env.publicUrl, database: services.kind },
    'listening',
  );
});

/**
 * Refusals at saturation, logged once a second at most with their count: a line per refusal would add to the load
 * it reports.
 */
function countRefusals() {
  let count = 0;
  return () => {
    if (count++ > 0) return;
    setTimeout(() => {
      logger.warn({ refused: count, busyAfterMs }, 'too busy: requests refused with 503');
      count = 0;
    }, 1000).unref();
  };
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing open requests');
  // Live event streams never end by themselves: end them first, or close() would wait for them.
  await services.streamHub.closeAll();
  // Stop accepting, let requests in flight finish, then close the database. Idle keep-alive
  // connections would hold close() open, so they are closed now and any stragglers after 10 s.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  const force = setTimeout(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, 10_000);
  force.unref();
  await closed;
  await services.close();
  logger.info('stopped');
  // The log's last lines wait in memory for their write (log.ts).
  logger.flush(() => process.exit(0));
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

/** A bad environment is the operator's to fix: its message alone, without a stack trace to read past. */
function loadEnvOrExit() {
  try {
    return loadEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
