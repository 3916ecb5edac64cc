import path from 'node:path';
import { pino, type DestinationStream } from 'pino';
import { createAuth } from './auth/auth.ts';
import { createApp } from './app.ts';
import { createDb, migrateToLatest } from './db/create-db.ts';
import { resolveAuthSecret, type Env } from './env.ts';
import { createMemoryBus } from './events/memory-bus.ts';
import { createPostgresBus } from './events/postgres-bus.ts';
import { createStreamHub } from './events/stream-hub.ts';
import { createFolderTransport, createSmtpTransport, type MailTransport } from './mail/mail.transports.ts';
import { createMailWorker } from './mail/mail.worker.ts';
import { createOutbox } from './mail/outbox.ts';

/** Everything the process runs, wired once; `main.ts`, the CLI and the tests build on this. */
export async function createServices(env: Env, options: { clientDir?: string; mailPollMs?: number; eventsHeartbeatMs?: number; logDestination?: DestinationStream } = {}) {
  const logger = options.logDestination ? pino({ level: env.logLevel, base: undefined }, options.logDestination) : pino({ level: env.logLevel, base: undefined });
  const { db, kind } = createDb(env.databaseUrl);
  await migrateToLatest(db);

  const transport: MailTransport = env.smtpUrl
    ? createSmtpTransport(env.smtpUrl)
    : createFolderTransport(path.join(env.dataDir, 'mail'), (msg, links) => logger.info({ links }, msg));
  const worker = createMailWorker({ db, transport, from: env.mailFrom, logger, pollMs: options.mailPollMs });
  const outbox = createOutbox({ db, onQueued: () => worker.wake() });
  const auth = createAuth({ db, kind, env, secret: resolveAuthSecret(env), outbox });
  // Fails fast when the migrations and better-auth disagree about a table or column.
  await (await auth.$context).checkSchema?.();
  const bus = kind === 'postgres' ? await createPostgresBus({ connectionString: env.databaseUrl, logger }) : createMemoryBus();
  const streamHub = createStreamHub({ bus, heartbeatMs: options.eventsHeartbeatMs });
  const clientDir = options.clientDir ?? path.resolve('dist/client');
  const app = createApp({ env, db, auth, logger, clientDir, streamHub });

  return {
    env,
    logger,
    db,
    kind,
    auth,
    outbox,
    worker,
    app,
    bus,
    streamHub,
    async close() {
      await streamHub.closeAll();
      await bus.close();
      await worker.stop();
      transport.close();
      await db.destroy();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
