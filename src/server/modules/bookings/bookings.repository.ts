import { packageDrawSchema } from '../../../common/package-draw.ts';
import { sessionNotesSchema } from '../../../common/session-notes.ts';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { BookingMove } from '../../../common/bookings.ts';
import { sastTime } from '../../../common/sast.ts';
import type { Db } from '../../db/create-db.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { versionsOn, type Versions } from '../../db/versions.ts';
import type {
  BookingChangeRecord,
  BookingRecord,
  BookingsRepository,
  BookingUpdate,
  BookingListFilter,
} from './bookings.storage.ts';
import type { BookingChangesTable, BookingsTable } from './bookings.table.ts';
import { boundLimit } from '../../db/bound-limit.ts';

type BookingRow = Selectable<BookingsTable>;
type BookingChangeRow = Selectable<BookingChangesTable>;

function toRecord(row: BookingRow): BookingRecord {
  return {
    id: row.id,
    student: { id: row.user_id, name: row.student_name, email: row.student_email },
    moduleName: row.module_name,
    moduleCategory: row.module_category,
    date: row.date,
    slots: [row.slot1, row.slot2, row.slot3],
    confirmedSlot: row.confirmed_slot,
    hours: row.hours,
    concepts: row.concepts,
    status: row.status,
    priceCentsPerHour: row.price_cents_per_hour,
    totalCents: row.total_cents,
    paymentReference: row.payment_reference,
    lateCancellation: Boolean(row.late_cancellation),
    createdAt: row.created_at,
    version: row.version,
    startsAt: row.starts_at,
    reminderSentAt: row.reminder_sent_at,
    updatedAt: row.updated_at,
    tutor: row.tutor_name === null ? null : { id: row.tutor_id, name: row.tutor_name },
    ...(row.series_id === null
      ? {}
      : { series: { id: row.series_id, index: row.series_index ?? 0, count: row.series_count ?? 1 } }),
    ...(row.group_id === null ? {} : { group: { id: row.group_id } }),
    ...(row.paid_cents || row.refunded_cents || row.waived_cents
      ? { payments: { paidCents: row.paid_cents, refundedCents: row.refunded_cents, waivedCents: row.waived_cents } }
      : {}),
    ...(row.package_draw ? { package: packageDrawSchema.parse(JSON.parse(row.package_draw)) } : {}),
    ...(row.question_id ? { question: { id: row.question_id, title: row.question_title ?? '' } } : {}),
    ...(row.session_notes ? { notes: sessionNotesSchema.parse(JSON.parse(row.session_notes)) } : {}),
    ...(row.summary_consent_at ? { summaryConsentAt: row.summary_consent_at } : {}),
    ...(row.summary_posted_at ? { summaryPostedAt: row.summary_posted_at } : {}),
  };
}

function toRow(booking: Omit<BookingRecord, 'version'>, version: number): Insertable<BookingsTable> {
  const [slot1 = '', slot2 = '', slot3 = ''] = booking.slots;
  return {
    id: booking.id,
    user_id: booking.student.id,
    student_name: booking.student.name,
    student_email: booking.student.email,
    module_name: booking.moduleName,
    module_category: booking.moduleCategory,
    price_cents_per_hour: booking.priceCentsPerHour,
    total_cents: booking.totalCents,
    date: booking.date,
    slot1,
    slot2,
    slot3,
    confirmed_slot: booking.confirmedSlot,
    starts_at: booking.startsAt,
    hours: booking.hours,
    concepts: booking.concepts,
    status: booking.status,
    late_cancellation: booking.lateCancellation ? 1 : 0,
    payment_reference: booking.paymentReference,
    reminder_sent_at: booking.reminderSentAt,
    created_at: booking.createdAt,
    updated_at: booking.updatedAt,
    version,
    tutor_id: booking.tutor?.id ?? null,
    tutor_name: booking.tutor?.name ?? null,
    series_id: booking.series?.id ?? null,
    series_index: booking.series?.index ?? null,
    series_count: booking.series?.count ?? null,
    group_id: booking.group?.id ?? null,
    paid_cents: booking.payments?.paidCents ?? 0,
    refunded_cents: booking.payments?.refundedCents ?? 0,
    waived_cents: booking.payments?.waivedCents ?? 0,
    package_draw: booking.package ? JSON.stringify(booking.package) : null,
    question_id: booking.question?.id ?? null,
    question_title: booking.question?.title ?? null,
    session_notes: booking.notes ? JSON.stringify(booking.notes) : null,
    summary_consent_at: booking.summaryConsentAt ?? null,
    summary_posted_at: booking.summaryPostedAt ?? null,
  };
}

/** Only the columns the update names: one left out stays as it is. */
function toSet(update: BookingUpdate): Updateable<BookingsTable> {
  return {
    ...(update.status !== undefined ? { status: update.status } : {}),
    ...(update.confirmedSlot !== undefined ? { confirmed_slot: update.confirmedSlot } : {}),
    ...(update.startsAt !== undefined ? { starts_at: update.startsAt } : {}),
    ...(update.lateCancellation !== undefined ? { late_cancellation: update.lateCancellation ? 1 : 0 } : {}),
    ...(update.reminderSentAt !== undefined ? { reminder_sent_at: update.reminderSentAt } : {}),
    ...(update.updatedAt !== undefined ? { updated_at: update.updatedAt } : {}),
    ...(update.tutor !== undefined
      ? { tutor_id: update.tutor?.id ?? null, tutor_name: update.tutor?.name ?? null }
      : {}),
    ...(update.student !== undefined
      ? { user_id: update.student.id, student_name: update.student.name, student_email: update.student.email }
      : {}),
    ...(update.moduleName !== undefined ? { module_name: update.moduleName } : {}),
    ...(update.moduleCategory !== undefined ? { module_category: update.moduleCategory } : {}),
    ...(update.priceCentsPerHour !== undefined ? { price_cents_per_hour: update.priceCentsPerHour } : {}),
    ...(update.totalCents !== undefined ? { total_cents: update.totalCents } : {}),
    ...(update.date !== undefined ? { date: update.date } : {}),
    ...(update.slots !== undefined ? { slot1: update.slots[0], slot2: update.slots[1], slot3: update.slots[2] } : {}),
    ...(update.hours !== undefined ? { hours: update.hours } : {}),
    ...(update.concepts !== undefined ? { concepts: update.concepts } : {}),
    ...(update.payments !== undefined
      ? {
          paid_cents: update.payments.paidCents,
          refunded_cents: update.payments.refundedCents,
          waived_cents: update.payments.waivedCents,
        }
      : {}),
    ...(update.package !== undefined ? { package_draw: update.package ? JSON.stringify(update.package) : null } : {}),
    ...(update.notes !== undefined ? { session_notes: update.notes ? JSON.stringify(update.notes) : null } : {}),
    ...(update.summaryConsentAt !== undefined ? { summary_consent_at: update.summaryConsentAt } : {}),
    ...(update.summaryPostedAt !== undefined ? { summary_posted_at: update.summaryPostedAt } : {}),
    version: update.stamp.version,
  };
}

function toChangeRecord(row: BookingChangeRow): BookingChangeRecord {
  return {
    id: row.id,
    bookingId: row.booking_id,
    version: row.version,
    at: row.at,
    by: { id: row.by_user_id, name: row.by_name, role: row.by_role },
    from: row.from_status,
    to: row.to_status,
    slot: row.slot,
    ...(row.move ? { move: JSON.parse(row.move) as BookingMove } : {}),
    ...(row.payment ? { payment: JSON.parse(row.payment) as BookingChangeRecord['payment'] } : {}),
  };
}

function toChangeRow(change: BookingChangeRecord): Insertable<BookingChangesTable> {
  return {
    id: change.id,
    booking_id: change.bookingId,
    version: change.version,
    at: change.at,
    by_user_id: change.by.id,
    by_name: change.by.name,
    by_role: change.by.role,
    from_status: change.from,
    to_status: change.to,
    slot: change.slot,
    move: change.move ? JSON.stringify(change.move) : null,
    payment: change.payment ? JSON.stringify(change.payment) : null,
  };
}

const toRecords = (rows: BookingRow[]) => rows.map(toRecord);
/** A statement's references asked for at once: well under SQLite's and PostgreSQL's limits on parameters. */
const referencesPerQuery = 500;

// The statements of a booking's request and of the lists, compiled once (db/prepared-query.ts).
const byId = preparedQuery<{ id: string }, BookingRow>((db, arg) =>
  db.selectFrom('bookings').selectAll().where('id', '=', arg('id')),
);
const requestsSince = preparedQuery<{ userId: string; since: string }, { n: number | string | bigint }>((db, arg) =>
  db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', arg('userId'))
    .where('created_at', '>', arg('since'))
    // A weekly series is one request: its first session stands for it.
    .where((eb) => eb.or([eb('series_index', 'is', null), eb('series_index', '=', 0)])),
);
const byPaymentReference = preparedQuery<{ reference: string }, { id: string }>((db, arg) =>
  db.selectFrom('bookings').select('id').where('payment_reference', '=', arg('reference')),
);
const insertBooking = preparedQuery<Insertable<BookingsTable>, never>((db, _arg, row) =>
  db.insertInto('bookings').values(row),
);
const insertChange = preparedQuery<Insertable<BookingChangesTable>, never>((db, _arg, row) =>
  db.insertInto('booking_changes').values(row),
);
/** A page of the list, newest session first; `after*`: the last row of the page before. */
const listed = preparedQuery<
  Omit<BookingListFilter, 'after'> & { afterDate?: string; afterCreatedAt?: string; afterId?: string },
  BookingRow
>((db, arg) => {
  let query = db.selectFrom('bookings').selectAll();
  const userId = arg('userId');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const category = arg('category');
  if (category !== undefined) query = query.where('module_category', '=', category);
  const status = arg('status');
  if (status !== undefined) query = query.where('status', '=', status);
  const from = arg('from');
  if (from !== undefined) query = query.where('date', '>=', from);
  const to = arg('to');
  if (to !== undefined) query = query.where('date', '<=', to);
  const [date, createdAt, id] = [arg('afterDate'), arg('afterCreatedAt'), arg('afterId')];
  if (date !== undefined && createdAt !== undefined && id !== undefined)
    query = query.where((eb) => eb(eb.refTuple('date', 'created_at', 'id'), '<', eb.tuple(date, createdAt, id)));
  return query
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(boundLimit(arg('limit')));
});

/**
 * Bookings on SQLite and PostgreSQL (`bookings`, `booking_changes`, and the `bookings` row of `sync_counter`,
 * read and taken through `versions`).
 */
export function createBookingsRepository(db: Db, versions: Versions = versionsOn(db)): BookingsRepository {
  return {
    beginChanges: () => versions.lock('bookings'),

    // Under the lock `beginChanges` took: one counter, shard 0.
    async takeStamps(count) {
      const first = await versions.take('bookings', count);
      return Array.from({ length: count }, (_, i) => ({ shard: 0, version: first + i }));
    },

    readPosition: async () => [await versions.read('bookings')],

    async findById(id) {
      const [row] = (await byId(db, { id })).rows;
      return row && toRecord(row);
    },

    async countRequestsSince(userId, since) {
      const [row] = (await requestsSince(db, { userId, since })).rows;
      return Number(row?.n ?? 0);
    },

    async isPaymentReferenceTaken(reference) {
      return (await byPaymentReference(db, { reference })).rows.length > 0;
    },

    async findByPaymentReferences(references) {
      const rows: BookingRow[] = [];
      for (let i = 0; i < references.length; i += referencesPerQuery) {
        const chunk = references.slice(i, i + referencesPerQuery);
        rows.push(...(await db.selectFrom('bookings').selectAll().where('payment_reference', 'in', chunk).execute()));
      }
      return toRecords(rows);
    },

    async insert(booking, stamp) {
      await insertBooking(db, toRow(booking, stamp.version));
    },

    async addChange(change) {
      await insertChange(db, toChangeRow(change));
    },

    async updateIfAtVersion(id, version, update) {
      // One statement: the version check and the change cannot be split by another writer.
      const result = await db
        .updateTable('bookings')
        .set(toSet(update))
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async findSeries(seriesId) {
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where('series_id', '=', seriesId)
        .orderBy('series_index')
        .execute();
      return toRecords(rows);
    },

    async tutorSessionsOn(tutorId, dates) {
      if (dates.length === 0) return [];
      // Along bookings_tutor_idx; beginChanges's lock keeps them so until the commit (db/versions.ts).
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where('tutor_id', '=', tutorId)
        .where('status', '=', 'Confirmed')
        .where('date', 'in', dates)
        .execute();
      return toRecords(rows);
    },

    async busyOf(tutorIds, { from, to }) {
      if (tutorIds.length === 0) return [];
      // Along bookings_tutor_idx, four columns of each row: the whole rows cost three times as much (bench/free-times.ts).
      const rows = await db
        .selectFrom('bookings')
        .select(['tutor_id', 'date', 'confirmed_slot', 'starts_at', 'hours'])
        .where('tutor_id', 'in', tutorIds)
        .where('status', '=', 'Confirmed')
        .where('date', '>=', from)
        .where('date', '<=', to)
        .execute();
      return rows.map((row) => ({
        tutorId: row.tutor_id!,
        date: row.date,
        start: row.confirmed_slot ?? sastTime(new Date(row.starts_at)),
        hours: row.hours,
      }));
    },

    async setVersion(id, stamp) {
      await db.updateTable('bookings').set({ version: stamp.version }).where('id', '=', id).execute();
    },

    async list({ after, ...filter }: BookingListFilter) {
      const { rows } = await listed(db, {
        ...filter,
        afterDate: after?.date,
        afterCreatedAt: after?.createdAt,
        afterId: after?.id,
      });
      return toRecords(rows);
    },

    async listChangedSince({ since, visibleTo, limit }) {
      const after = since[0] ?? 0;
      let query = db.selectFrom('bookings').selectAll().where('version', '>', after);
      if (visibleTo) {
        query = query.where((eb) =>
          eb.or([
            eb('user_id', '=', visibleTo.userId),
            ...(visibleTo.categories.length > 0 ? [eb('module_category', 'in', visibleTo.categories)] : []),
          ]),
        );
      }
      // One more than the page: its presence says another page waits.
      const rows = await query
        .orderBy('version')
        .limit(boundLimit(limit + 1))
        .execute();
      const page = rows.slice(0, limit);
      return { bookings: toRecords(page), position: [page.at(-1)?.version ?? after], more: rows.length > limit };
    },

    async historyOf(bookingIds) {
      if (bookingIds.length === 0) return [];
      const rows = await db
        .selectFrom('booking_changes')
        .selectAll()
        .where('booking_id', 'in', bookingIds)
        .orderBy('booking_id')
        .orderBy('version')
        .execute();
      return rows.map(toChangeRecord);
    },

    async findDueReminders(args) {
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where('status', '=', 'Confirmed')
        .where('reminder_sent_at', 'is', null)
        .where('confirmed_slot', 'is not', null)
        .where('starts_at', '>', args.after)
        .where('starts_at', '<=', args.until)
        .orderBy('starts_at')
        .limit(boundLimit(args.limit))
        .execute();
      return toRecords(rows);
    },

    async findConfirmedStarting(args) {
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where('status', '=', 'Confirmed')
        .where('confirmed_slot', 'is not', null)
        .where('starts_at', '>', args.after)
        .where('starts_at', '<=', args.until)
        .orderBy('starts_at')
        .orderBy('id')
        .limit(boundLimit(args.limit))
        .execute();
      return toRecords(rows);
    },

    async countWaiting(categories) {
      if (categories !== 'all' && categories.length === 0) return 0;
      let query = db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'Pending');
      if (categories !== 'all') query = query.where('module_category', 'in', [...categories]);
      return Number((await query.executeTakeFirst())?.n ?? 0);
    },

    async claimReminder(id, version, at) {
      const result = await db
        .updateTable('bookings')
        .set({ reminder_sent_at: at })
        .where('id', '=', id)
        .where('version', '=', version)
        .where('reminder_sent_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async listOf(userId) {
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return toRecords(rows);
    },

    async listTouchedBy(userId) {
      const rows = await db
        .selectFrom('bookings')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('user_id', '=', userId),
            eb('tutor_id', '=', userId),
            eb('id', 'in', eb.selectFrom('booking_changes').select('booking_id').where('by_user_id', '=', userId)),
          ]),
        )
        .orderBy('id')
        .execute();
      return toRecords(rows);
    },

    async scrubStudent(userId, name, at) {
      await db
        .updateTable('bookings')
        // The session notes and the consent are the student's too (issue 39 §4); the question's link stays.
        .set({
          user_id: null,
          student_name: name,
          student_email: '',
          concepts: '',
          session_notes: null,
          summary_consent_at: null,
          updated_at: at,
        })
        .where('user_id', '=', userId)
        .execute();
    },

    async setStudentName(userId, name, at) {
      await db
        .updateTable('bookings')
        .set({ student_name: name, updated_at: at })
        .where('user_id', '=', userId)
        .execute();
    },

    async setNameInHistory(userId, name) {
      await db.updateTable('booking_changes').set({ by_name: name }).where('by_user_id', '=', userId).execute();
      await db.updateTable('bookings').set({ tutor_name: name }).where('tutor_id', '=', userId).execute();
    },

    async forgetInHistory(userId, name) {
      await db
        .updateTable('booking_changes')
        .set({ by_name: name, by_user_id: null })
        .where('by_user_id', '=', userId)
        .execute();
      await db
        .updateTable('bookings')
        .set({ tutor_name: name, tutor_id: null })
        .where('tutor_id', '=', userId)
        .execute();
    },
  };
}
