import { createAccountsFirestoreRepository } from '../auth/accounts.firestore.ts';
import { createAccountsRepository } from '../auth/accounts.repository.ts';
import { createRefusalsRepository } from '../db/change-refusals.ts';
import type { Db, DbKind } from '../db/create-db.ts';
import type { Versions } from '../db/versions.ts';
import { createRefusalsFirestoreRepository } from '../http/refusals.firestore.ts';
import { createImportLedgerFirestoreRepository } from '../import/import-ledger.firestore.ts';
import { createImportLedgerRepository } from '../import/import-ledger.repository.ts';
import { createOutboxFirestoreRepository } from '../mail/mail.firestore.ts';
import { createOutboxRepository } from '../mail/mail.repository.ts';
import { createDeliveriesFirestoreRepository, createNoticesFirestoreRepository } from '../notices/notices.firestore.ts';
import { createDeliveriesRepository, createNoticesRepository } from '../notices/notices.repository.ts';
import { createAvailabilityFirestoreRepository } from '../modules/availability/availability.firestore.ts';
import { createAvailabilityRepository } from '../modules/availability/availability.repository.ts';
import { createBookingsFirestoreRepository } from '../modules/bookings/bookings.firestore.ts';
import { createBookingsRepository } from '../modules/bookings/bookings.repository.ts';
import { createCalendarFeedsFirestoreRepository } from '../modules/calendar/calendar.firestore.ts';
import { createCalendarFeedsRepository } from '../modules/calendar/calendar.repository.ts';
import { createGroupSessionsFirestoreRepository } from '../modules/bookings/groups.firestore.ts';
import { createGroupSessionsRepository } from '../modules/bookings/groups.repository.ts';
import { createCatalogueFirestoreRepository } from '../modules/catalogue/catalogue.firestore.ts';
import { createCatalogueRepository } from '../modules/catalogue/catalogue.repository.ts';
import { createPackagesFirestoreRepository } from '../modules/bookings/packages.firestore.ts';
import { createPackagesRepository } from '../modules/bookings/packages.repository.ts';
import { createPaymentsFirestoreRepository } from '../modules/bookings/payments.firestore.ts';
import { createPaymentsRepository } from '../modules/bookings/payments.repository.ts';
import { createProfileFirestoreRepository } from '../modules/profile/profile.firestore.ts';
import { createProfileRepository } from '../modules/profile/profile.repository.ts';
import { createQaFirestoreRepository } from '../modules/qa/qa.firestore.ts';
import { createQaRepository } from '../modules/qa/qa.repository.ts';
import { createSessionOffersFirestoreRepository } from '../modules/sessions/offers.firestore.ts';
import { createSessionOffersRepository } from '../modules/sessions/offers.repository.ts';
import { createTestimonialsFirestoreRepository } from '../modules/testimonials/testimonials.firestore.ts';
import { createTestimonialsRepository } from '../modules/testimonials/testimonials.repository.ts';
import type { FirestoreRepositoryFactories, FirestoreRepositoryFactory } from './firestore-storage.ts';
import type { Repositories } from './storage.ts';

/** What a SQL repository is made on: a Kysely connection (the database, or a transaction of it). */
export interface SqlOn {
  db: Db;
  kind: DbKind;
  /** How the versioned collections read and take their versions on `db` (db/versions.ts). */
  versions: Versions;
}

/** A feature's repository, made by each engine: `sql` for SQLite and PostgreSQL, `firestore`. */
export interface RepositoryMakers<R> {
  sql: (on: SqlOn) => R;
  firestore: FirestoreRepositoryFactory<R>;
}

/**
 * Each feature's repository on each engine, one entry per feature of `Repositories` (storage.ts): a feature
 * added there fails the type check until it is named here, and every engine then makes it (sql-storage.ts,
 * firestore-storage.ts).
 */
export const repositoryMakers = {
  accounts: { sql: ({ db }) => createAccountsRepository(db), firestore: createAccountsFirestoreRepository },
  availability: {
    sql: ({ db }) => createAvailabilityRepository(db),
    firestore: createAvailabilityFirestoreRepository,
  },
  bookings: {
    sql: ({ db, versions }) => createBookingsRepository(db, versions),
    firestore: (ctx, { positions }) => createBookingsFirestoreRepository(ctx, positions),
  },
  calendarFeeds: {
    sql: ({ db }) => createCalendarFeedsRepository(db),
    firestore: createCalendarFeedsFirestoreRepository,
  },
  catalogue: { sql: ({ db }) => createCatalogueRepository(db), firestore: createCatalogueFirestoreRepository },
  groups: { sql: ({ db }) => createGroupSessionsRepository(db), firestore: createGroupSessionsFirestoreRepository },
  importLedger: { sql: ({ db }) => createImportLedgerRepository(db), firestore: createImportLedgerFirestoreRepository },
  outbox: { sql: ({ db }) => createOutboxRepository(db), firestore: createOutboxFirestoreRepository },
  notices: { sql: ({ db }) => createNoticesRepository(db), firestore: createNoticesFirestoreRepository },
  noticeDeliveries: {
    sql: ({ db }) => createDeliveriesRepository(db),
    firestore: createDeliveriesFirestoreRepository,
  },
  payments: { sql: ({ db }) => createPaymentsRepository(db), firestore: createPaymentsFirestoreRepository },
  packages: { sql: ({ db }) => createPackagesRepository(db), firestore: createPackagesFirestoreRepository },
  sessionOffers: {
    sql: ({ db }) => createSessionOffersRepository(db),
    firestore: createSessionOffersFirestoreRepository,
  },
  profile: { sql: ({ db }) => createProfileRepository(db), firestore: createProfileFirestoreRepository },
  refusals: { sql: ({ db }) => createRefusalsRepository(db), firestore: createRefusalsFirestoreRepository },
  qa: {
    sql: ({ db, kind, versions }) => createQaRepository(db, kind, versions),
    firestore: (ctx, { positions }) =>
      createQaFirestoreRepository(ctx, positions, createAccountsFirestoreRepository(ctx)),
  },
  testimonials: {
    sql: ({ db, kind }) => createTestimonialsRepository(db, kind),
    firestore: createTestimonialsFirestoreRepository,
  },
} satisfies { [K in keyof Repositories]: RepositoryMakers<Repositories[K]> };

/** The features' names, in `Repositories`' order. */
export const repositoryNames = Object.keys(repositoryMakers) as (keyof Repositories)[];

/** Every feature's repository, each made by `make` from its entry. */
export function makeRepositories(make: <K extends keyof Repositories>(name: K) => Repositories[K]): Repositories {
  return Object.fromEntries(repositoryNames.map((name) => [name, make(name)])) as unknown as Repositories;
}

/** The Firestore engine's factories (firestore-storage.ts), every one of them. */
export const firestoreRepositoryFactories: FirestoreRepositoryFactories = Object.fromEntries(
  repositoryNames.map((name) => [name, repositoryMakers[name].firestore]),
);
