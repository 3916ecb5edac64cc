import type { AddressInfo } from 'node:net';
import { loadEnv } from './env.ts';
import { createHttpServer } from './http/node-server.ts';
import { createServices } from './server.ts';

const env = loadEnvOrExit();
/**
 * At saturation (http/admission.ts, decision 0042): a turn of the event loop serves 10 ms of the requests it read,
 * the rest wait in a queue served one a turn, and one that would wait more than 2 s is refused at once with 503.
 */
const admission = { sliceMs: 10, maxWaitMs: 2000 };
const services = await createServices(env);
const { logger } = services;

const server = createHttpServer(services.app.fetch, {
  production: env.production,
  prepared: services.prepared,
  admission: { ...admission, refused: countRefusals() },
});
// A burst of new connections waits in the kernel's queue for the loop to let them in (one a turn: admission.ts);
// with Node's 511 a saturated run dropped thousands, each retried by its client after 1, 3, 7… s. The kernel holds
// it to net.core.somaxconn (4,096 here).
server.listen({ port: env.port, host: env.host, backlog: 4096 }, () => {
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
      logger.warn({ refused: count, maxWaitMs: admission.maxWaitMs }, 'too busy: requests refused with 503');
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
