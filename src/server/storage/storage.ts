import type { AccountsRepository } from '../auth/accounts.storage.ts';
import type { ImportLedgerRepository } from '../import/import-ledger.storage.ts';
import type { RefusalsRepository } from '../http/refusals.storage.ts';
import type { OutboxRepository } from '../mail/mail.storage.ts';
import type { DeliveriesRepository, NoticesRepository } from '../notices/notices.storage.ts';
import type { AvailabilityRepository } from '../modules/availability/availability.storage.ts';
import type { BookingsRepository } from '../modules/bookings/bookings.storage.ts';
import type { CalendarFeedsRepository } from '../modules/calendar/calendar.storage.ts';
import type { CatalogueRepository } from '../modules/catalogue/catalogue.storage.ts';
import type { GroupSessionsRepository } from '../modules/bookings/groups.storage.ts';
import type { PackagesRepository } from '../modules/bookings/packages.storage.ts';
import type { PaymentsRepository } from '../modules/bookings/payments.storage.ts';
import type { ProfileRepository } from '../modules/profile/profile.storage.ts';
import type { QaRepository } from '../modules/qa/qa.storage.ts';
import type { SessionOffersRepository } from '../modules/sessions/offers.storage.ts';
import type { TestimonialsRepository } from '../modules/testimonials/testimonials.storage.ts';

/**
 * The storage engine as usecases see it (docs/decisions/0026): each feature's repository, in the feature's
 * words, and transactions. No SQL, Kysely or Firestore type appears here or in a usecase; each engine
 * (sql-storage.ts; Firestore to come) makes every repository from its own connection.
 */
export interface Repositories {
  /** Authentication's records, for everything but better-auth itself. */
  accounts: AccountsRepository;
  /** Each tutor's working hours, dates off and buffer. */
  availability: AvailabilityRepository;
  /** Bookings with their history, and the bookings' versions for `?since=`. */
  bookings: BookingsRepository;
  /** Each user's calendar feed: its secret's hash. */
  calendarFeeds: CalendarFeedsRepository;
  catalogue: CatalogueRepository;
  /** Group sessions and the seats taken in them (their bookings are the bookings'). */
  groups: GroupSessionsRepository;
  /** The Firebase import's ledger: what it brought in, and as what (docs/decisions/0037). */
  importLedger: ImportLedgerRepository;
  /** E-mails waiting to be sent, and the delivery log. */
  outbox: OutboxRepository;
  /** Each user's notifications, the follows, their choices of channel and their devices' push subscriptions. */
  notices: NoticesRepository;
  /** The notices' deliveries through push and WhatsApp, claimed and retried. */
  noticeDeliveries: DeliveriesRepository;
  /** Payments, refunds and waivers, and what each went to (the bookings keep the sums). */
  payments: PaymentsRepository;
  packages: PackagesRepository;
  /** The users' enrolments. */
  profile: ProfileRepository;
  /** Changes queued offline and refused for good (http/offline-changes.ts). */
  refusals: RefusalsRepository;
  /** The Q&A board: questions, answers, votes. */
  qa: QaRepository;
  /** Sessions offered on board questions (issue 39 §4). */
  sessionOffers: SessionOffersRepository;
  /** The testimonials the admin curates for the public pages. */
  testimonials: TestimonialsRepository;
}

export type StorageKind = 'sqlite' | 'postgres' | 'firestore';

export interface Storage {
  readonly kind: StorageKind;
  /**
   * For what a process keeps in memory between requests (auth/session-cache.ts): a number that moves whenever
   * another process may have written without its notices reaching this process's event bus. Undefined where
   * the engine cannot tell, or another process's notices may arrive late (Firestore's listener): nothing may be
   * kept there.
   */
  readonly writesElsewhere?: () => number;
  /** The repositories outside any transaction: each call stands alone. */
  readonly repos: Repositories;
  /**
   * Runs `work` as one transaction, with repositories that read and write inside it; it commits when `work`
   * resolves and rolls back when it throws. Write it as "these reads, then these writes": Firestore
   * requires every read of a transaction before its first write, and may run `work` again when another
   * transaction wrote what it read, so `work` has no effect outside the repositories it is given. On SQLite
   * the transactions of one turn of the event loop commit together (docs/decisions/0031): `work`'s changes are
   * undone alone if it throws, and the answer comes once they are committed, as on every engine.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Whether the engine answers (the health check). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
