import path from 'node:path';
import { pino, type DestinationStream } from 'pino';
import { createAuth } from './auth/auth.ts';
import { createApp } from './app.ts';
import type { RenderApp } from './http/rendered-pages.ts';
import { createDb, migrateToLatest } from './db/create-db.ts';
import type { Clock, Deps } from './deps.ts';
import { resolveAuthSecret, type Env } from './env.ts';
import type { EventBus } from './events/events.ts';
import { createMemoryBus } from './events/memory-bus.ts';
import { createPostgresBus } from './events/postgres-bus.ts';
import { createStreamHub } from './events/stream-hub.ts';
import { createSqlStorage } from './storage/sql-storage.ts';
import { createLogDestination } from './log.ts';
import {
  createEmailJsTransport,
  createFolderTransport,
  createSmtpTransport,
  type MailTransport,
} from './mail/mail.transports.ts';
import { createMailWorker } from './mail/mail.worker.ts';
import { createOutbox } from './mail/outbox.ts';
import { startBookingReminders } from './modules/bookings/bookings.reminders.ts';
import { bookingsPersonalData } from './modules/bookings/bookings.usecases.ts';
import { qaPersonalData } from './modules/qa/qa.usecases.ts';
import type { PersonalDataPart } from './personal-data.ts';

/** Everything the process runs, wired once; `main.ts`, the CLI and the tests build on this. */
export async function createServices(
  env: Env,
  options: {
    clientDir?: string;
    /** The renderer of the pages rendered per request, for tests without a build (http/rendered-pages.ts). */
    renderApp?: RenderApp;
    mailPollMs?: number;
    eventsHeartbeatMs?: number;
    /** How often an open signed-in stream checks its session again (stream-hub.ts: 60 s otherwise). */
    eventsRecheckMs?: number;
    logDestination?: DestinationStream;
  } = {},
) {
  const logger = pino({ level: env.logLevel, base: undefined }, options.logDestination ?? createLogDestination());
  // Production refuses to start without them (env.ts); elsewhere the confirmations say whom to ask instead.
  if (!env.paymentEftDetails)
    logger.warn(
      'PAYMENT_EFT_DETAILS is not set: booking confirmations tell students to ask for the bank details by e-mail or WhatsApp',
    );
  const { db, kind } = createDb(env.databaseUrl);
  await migrateToLatest(db);
  const storage = createSqlStorage(db, kind);

  const transport: MailTransport = env.emailJs
    ? createEmailJsTransport(env.emailJs)
    : env.smtpUrl
      ? createSmtpTransport(env.smtpUrl)
      : createFolderTransport(path.join(env.dataDir, 'mail'), (msg, links) => logger.info({ links }, msg));
  const worker = createMailWorker({
    outbox: storage.repos.outbox,
    transport,
    from: env.mailFrom,
    logger,
    pollMs: options.mailPollMs,
  });
  const clock: Clock = { now: () => new Date() };
  const mail = createOutbox({ repo: storage.repos.outbox, now: clock.now, onQueued: () => worker.wake() });
  // One process: in memory. On PostgreSQL several processes may serve one database: LISTEN/NOTIFY reaches them all.
  const bus: EventBus =
    kind === 'postgres' ? await createPostgresBus({ connectionString: env.databaseUrl, logger }) : createMemoryBus();
  const deps: Deps = { storage, repos: storage.repos, clock, events: bus, mail, config: env, logger };

  const auth = createAuth({ db, kind, env, secret: resolveAuthSecret(env), outbox: mail, events: bus });
  // Fails fast when the migrations and better-auth disagree about a table or column.
  await (await auth.$context).checkSchema?.();
  // Each feature that stores something about a person adds its part of the export and deletion here (the
  // profile's own enrolments are included by the profile module).
  const personalData: PersonalDataPart[] = [qaPersonalData, bookingsPersonalData];
  const reminders = startBookingReminders(deps);
  const streamHub = createStreamHub({
    bus,
    heartbeatMs: options.eventsHeartbeatMs,
    recheckMs: options.eventsRecheckMs,
  });
  const clientDir = options.clientDir ?? path.resolve('dist/client');
  const { app, prepared } = createApp({
    deps,
    bus,
    streamHub,
    auth,
    personalData,
    clientDir,
    renderApp: options.renderApp,
  });

  return {
    env,
    logger,
    db,
    kind,
    deps,
    bus,
    auth,
    worker,
    app,
    /** For `createHttpServer(app.fetch, { prepared })`: the busiest public GETs, answered before the app. */
    prepared,
    streamHub,
    async close() {
      await streamHub.closeAll();
      await reminders.stop();
      await bus.close();
      await worker.stop();
      transport.close();
      await storage.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
