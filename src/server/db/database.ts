import type { AccountsTable, SessionsTable, UsersTable, VerificationsTable } from '../auth/auth.table.ts';
import type { ImportedRecordsTable } from '../import/import-ledger.table.ts';
import type { EmailOutboxTable } from '../mail/mail.table.ts';
import type {
  NoticeDeliveriesTable,
  NoticeFollowsTable,
  NoticePreferencesTable,
  NoticesTable,
  PushSubscriptionsTable,
} from '../notices/notices.table.ts';
import type { TutorAvailabilityTable } from '../modules/availability/availability.table.ts';
import type { CalendarFeedsTable } from '../modules/calendar/calendar.table.ts';
import type { BookingChangesTable, BookingsTable } from '../modules/bookings/bookings.table.ts';
import type { GroupSessionsTable } from '../modules/bookings/groups.table.ts';
import type { ModulesTable } from '../modules/catalogue/catalogue.table.ts';
import type {
  BankMappingsTable,
  IgnoredStatementLinesTable,
  PaymentAllocationsTable,
  PaymentsTable,
} from '../modules/bookings/payments.table.ts';
import type { PackageOffersTable, PackagesTable } from '../modules/bookings/packages.table.ts';
import type { EnrolmentsTable } from '../modules/profile/profile.table.ts';
import type { AnswersTable, PostPhotosTable, QuestionsTable, QuestionVotesTable } from '../modules/qa/qa.table.ts';
import type { SessionOffersTable } from '../modules/sessions/offers.table.ts';
import type { TutorCategoriesTable } from '../modules/staff/staff.table.ts';
import type { TestimonialsTable } from '../modules/testimonials/testimonials.table.ts';
import type { ChangeRefusalsTable } from './change-refusals.ts';
import type { SyncCounterTable } from './versions.ts';

/** Assembles the table interfaces that sit beside their features. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: { id: string; key: string; count: number; last_request: number | string };
  tutor_categories: TutorCategoriesTable;
  email_outbox: EmailOutboxTable;
  modules: ModulesTable;
  enrolments: EnrolmentsTable;
  questions: QuestionsTable;
  answers: AnswersTable;
  question_votes: QuestionVotesTable;
  post_photos: PostPhotosTable;
  session_offers: SessionOffersTable;
  sync_counter: SyncCounterTable;
  bookings: BookingsTable;
  booking_changes: BookingChangesTable;
  group_sessions: GroupSessionsTable;
  change_refusals: ChangeRefusalsTable;
  imported_records: ImportedRecordsTable;
  testimonials: TestimonialsTable;
  tutor_availability: TutorAvailabilityTable;
  calendar_feeds: CalendarFeedsTable;
  payments: PaymentsTable;
  bank_mappings: BankMappingsTable;
  ignored_statement_lines: IgnoredStatementLinesTable;
  payment_allocations: PaymentAllocationsTable;
  package_offers: PackageOffersTable;
  packages: PackagesTable;
  notices: NoticesTable;
  notice_deliveries: NoticeDeliveriesTable;
  notice_follows: NoticeFollowsTable;
  notice_preferences: NoticePreferencesTable;
  push_subscriptions: PushSubscriptionsTable;
}
