import path from 'node:path';
import type { Firestore } from 'firebase-admin/firestore';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createAuth, type Auth } from './auth/auth.ts';
import { createFirestoreAuth } from './auth/firestore-auth.ts';
import { createSessionCache } from './auth/session-cache.ts';
import { createApp } from './app.ts';
import type { RenderApp } from './http/rendered-pages.ts';
import { createDb, migrateToLatest, type Db } from './db/create-db.ts';
import type { Clock, Deps } from './deps.ts';
import { resolveAuthSecret, type Env } from './env.ts';
import type { EventBus, EventPublisher } from './events/events.ts';
import { createFirestoreBus } from './events/firestore-bus.ts';
import { createMemoryBus } from './events/memory-bus.ts';
import { createPostgresBus } from './events/postgres-bus.ts';
import { createStreamHub } from './events/stream-hub.ts';
import { connectFirestore } from './storage/firestore/connect.ts';
import { firestoreRepositoryFactories } from './storage/repositories.ts';
import {
  createFirestoreStorage,
  missingRepositories,
  type FirestoreRepositoryFactories,
} from './storage/firestore-storage.ts';
import { requireOwnDatabase, seedCatalogue, seedTestimonials } from './storage/firestore/setup.ts';
import { namePaymentsInHistory } from './modules/bookings/payments.firestore.ts';
import { createSqlStorage } from './storage/sql-storage.ts';
import type { Storage } from './storage/storage.ts';
import { createLogDestination } from './log.ts';
import {
  createEmailJsTransport,
  createFolderTransport,
  createSmtpTransport,
  type MailTransport,
} from './mail/mail.transports.ts';
import { createMailWorker } from './mail/mail.worker.ts';
import { createOutbox } from './mail/outbox.ts';
import { features } from './features.ts';
import { startNotices } from './notices/notices.ts';
import { createPushChannel } from './notices/push-channel.ts';
import { createWhatsAppChannel } from './notices/whatsapp-channel.ts';
import { createWhatsAppSender } from './whatsapp/whatsapp.sender.ts';
import { createPushSender } from './push/push-sender.ts';
import { resolveVapidKeys } from './push/vapid.ts';
import type { PersonalDataPart } from './personal-data.ts';

/** Everything the process runs, wired once; `main.ts`, the CLI and the tests build on this. */
export async function createServices(
  env: Env,
  options: {
    clientDir?: string;
    /** The renderer of the pages rendered per request, for tests without a build (http/rendered-pages.ts). */
    renderApp?: RenderApp;
    mailPollMs?: number;
    /** How often the notices' dispatcher and delivery workers look for work besides being woken (60 s and 30 s). */
    noticesPollMs?: number;
    eventsHeartbeatMs?: number;
    /** How often an open signed-in stream checks its session again (stream-hub.ts: 60 s otherwise). */
    eventsRecheckMs?: number;
    logDestination?: DestinationStream;
    /** The Firestore engine's repositories (firestore-repositories.ts unless given: tests of the wiring). */
    firestoreFactories?: FirestoreRepositoryFactories;
  } = {},
) {
  const logger = pino({ level: env.logLevel, base: undefined }, options.logDestination ?? createLogDestination());
  // Production refuses to start without them (env.ts); elsewhere the confirmations say whom to ask instead.
  if (!env.paymentEftDetails)
    logger.warn(
      'PAYMENT_EFT_DETAILS is not set: booking confirmations tell students to ask for the bank details by e-mail or WhatsApp',
    );
  const engine = await openEngine(env, logger, options.firestoreFactories ?? firestoreRepositoryFactories);
  const { storage } = engine;
  const kind = storage.kind;

  const transport: MailTransport = env.emailJs
    ? createEmailJsTransport(env.emailJs)
    : env.smtpUrl
      ? createSmtpTransport(env.smtpUrl)
      : createFolderTransport(path.join(env.dataDir, 'mail'), (msg, links) => logger.info({ links }, msg));
  const clock: Clock = { now: () => new Date() };
  const worker = createMailWorker({
    outbox: storage.repos.outbox,
    transport,
    from: env.mailFrom,
    logger,
    // The process's clock, read at each use: a test that moves it moves the retries' times too.
    now: () => clock.now(),
    pollMs: options.mailPollMs,
  });
  const mail = createOutbox({ repo: storage.repos.outbox, now: clock.now, onQueued: () => worker.wake() });
  const bus = await engine.openBus().catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  // Where the engine can tell when another process wrote (docs/decisions/0032); it hears this process's own
  // notices as they are published, before the bus carries them (PostgreSQL's comes back through LISTEN).
  const sessionCache =
    storage.writesElsewhere &&
    createSessionCache({
      writesElsewhere: storage.writesElsewhere,
      busHearsAll: () => bus.hearsAll?.() ?? true,
    });
  if (sessionCache) bus.subscribe(sessionCache.onBusMessage);
  const events: EventPublisher = sessionCache
    ? {
        publish(notice) {
          sessionCache.hear(notice);
          bus.publish(notice);
        },
        settled: bus.settled && (() => bus.settled!()),
      }
    : bus;
  // Push's keys, made once into the data folder where the environment gives none (push/vapid.ts): the routes
  // hand the public one to browsers.
  const vapid = resolveVapidKeys(env);
  const config: Env = {
    ...env,
    vapid: { subject: vapid.subject, keys: { publicKey: vapid.publicKey, privateKey: vapid.privateKey } },
  };
  const deps: Deps = { storage, repos: storage.repos, clock, events, mail, config, logger };

  const auth = engine.createAuth({ env, secret: resolveAuthSecret(env), outbox: mail, events, logger });
  // Fails fast when the migrations and better-auth disagree about a table or column.
  await (await auth.$context).checkSchema?.();
  // Each feature that stores something about a person has its part of the export and deletion (features.ts;
  // the profile's own enrolments are included by the profile module).
  const personalData: PersonalDataPart[] = features.flatMap((f) => f.personalData ?? []);
  // What the features run in the background: the bookings' reminders.
  const jobs = features.flatMap((f) => f.start?.(deps) ?? []);
  const notices = startNotices({
    deps,
    bus,
    senders: [
      createPushChannel({ repos: storage.repos, sender: createPushSender({ vapid }) }),
      ...(env.whatsapp
        ? [
            createWhatsAppChannel({
              sender: createWhatsAppSender(env.whatsapp),
              language: env.whatsapp.templateLanguage,
            }),
          ]
        : []),
    ],
    pollMs: options.noticesPollMs,
  });
  const streamHub = createStreamHub({
    bus,
    heartbeatMs: options.eventsHeartbeatMs,
    recheckMs: options.eventsRecheckMs,
  });
  const clientDir = options.clientDir ?? path.resolve('dist/client');
  const { app, prepared } = createApp({
    deps,
    bus,
    sessionCache,
    streamHub,
    auth,
    personalData,
    clientDir,
    renderApp: options.renderApp,
  });

  return {
    env,
    logger,
    /** The SQL engine's Kysely (tests read and write it directly); not on Firestore. */
    get db(): Db {
      if (!engine.db) throw new Error(`services.db is the SQL engines' database: this server runs on ${kind}`);
      return engine.db;
    },
    /** The Firestore engine's database (tests read it directly); undefined on SQL. */
    firestore: engine.firestore,
    kind,
    deps,
    bus,
    auth,
    worker,
    notices,
    app,
    /** For `createHttpServer(app.fetch, { prepared })`: the busiest public GETs, answered before the app. */
    prepared,
    streamHub,
    async close() {
      await streamHub.closeAll();
      for (const job of jobs) await job.stop();
      await notices.stop();
      await bus.close();
      await worker.stop();
      transport.close();
      await storage.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;

type AuthDeps = Omit<Parameters<typeof createAuth>[0], 'db' | 'kind'>;

/** The storage engine DATABASE_URL names, with what goes with it: its event bus and better-auth on it. */
interface Engine {
  storage: Storage;
  db?: Db;
  firestore?: Firestore;
  /** One process: in memory. Several processes on one database or project: a bus that reaches them all. */
  openBus(): Promise<EventBus>;
  createAuth(deps: AuthDeps): Auth;
}

async function openEngine(env: Env, logger: Logger, factories: FirestoreRepositoryFactories): Promise<Engine> {
  if (env.firestoreProjectId) return openFirestoreEngine(env, env.firestoreProjectId, logger, factories);
  const { db, kind, dataVersion } = createDb(env.databaseUrl);
  await migrateToLatest(db);
  return {
    storage: createSqlStorage(db, kind, dataVersion),
    db,
    openBus: async () =>
      kind === 'postgres' ? createPostgresBus({ connectionString: env.databaseUrl, logger }) : createMemoryBus(),
    createAuth: (deps) => createAuth({ ...deps, db, kind }),
  };
}

/**
 * Firestore (issue 21): refused before connecting while a feature's repository is missing, so that the
 * product never runs half on it; then the project's database is probed (connect.ts says why it cannot be
 * reached), and refused if it holds another site's records (setup.ts).
 */
async function openFirestoreEngine(
  env: Env,
  projectId: string,
  logger: Logger,
  factories: FirestoreRepositoryFactories,
): Promise<Engine> {
  const missing = missingRepositories(factories);
  if (missing.length > 0) {
    const which = missing.length === 1 ? `the ${missing[0]} repository` : `the ${missing.join(', ')} repositories`;
    throw new Error(`DATABASE_URL: the Firestore engine lacks ${which} (issue 21); use file: or postgres:// for now`);
  }
  const target = { projectId, databaseId: env.firestoreDatabaseId, emulatorHost: env.firestoreEmulatorHost };
  const connection = await connectFirestore(target);
  const { firestore } = connection;
  // Before anything is written: never into another site's records (the old site's `(default)` database).
  await requireOwnDatabase(firestore, { ...target, databaseId: connection.databaseId }, new Date()).catch(
    async (error: unknown) => {
      await connection.close();
      throw error;
    },
  );
  const storage = createFirestoreStorage(connection, { factories });
  await seedCatalogue(firestore, storage, new Date());
  await seedTestimonials(firestore, new Date());
  await namePaymentsInHistory(firestore);
  return {
    storage,
    firestore,
    openBus: () => createFirestoreBus({ firestore, logger }),
    createAuth: (deps) => createFirestoreAuth({ ...deps, firestore, outboxRepository: storage.repos.outbox }),
  };
}
