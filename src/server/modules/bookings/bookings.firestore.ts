import type { PackageDraw } from '../../../common/package-draw.ts';
import type { BookingQuestion, SessionNotes } from '../../../common/session-notes.ts';
import {
  FieldPath,
  Filter,
  type CollectionReference,
  type DocumentReference,
  type Query,
  type Transaction,
} from 'firebase-admin/firestore';
import type { BookingCategory, BookingMove, BookingStatus } from '../../../common/bookings.ts';
import type { Stamp } from '../../../common/positions.ts';
import type { PaymentTotals } from '../../../common/payment-kinds.ts';
import type { Role } from '../../../common/roles.ts';
import { sastTime } from '../../../common/sast.ts';
import { read, readAll, type FirestoreContext } from '../../storage/firestore/context.ts';
import type { Positions } from '../../storage/firestore/positions.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { createRecentTimes } from '../../storage/firestore/recent-times.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type {
  BookingChangeRecord,
  BookingListFilter,
  BookingRecord,
  BookingsRepository,
  BookingUpdate,
} from './bookings.storage.ts';

/**
 * The bookings on Firestore (docs/firestore-layout.md, "Bookings"):
 * - `bookings/{id}`: the booking, with its history inside (`history`, and `historyBy`, the ids of the users who
 *   made its entries, for a rename to find them). Every change of a booking writes the booking anyway (its
 *   version), so the history costs no document of its own, and a booking is read with it in one read.
 * - `bookingPaymentReferences/{reference}`: `{ bookingId }`. Firestore has no unique index: the key is read
 *   (`isPaymentReferenceTaken`) and created with the booking in one transaction, so of two requests drawing
 *   one reference the second's transaction conflicts, runs again and draws another; `create` also fails a
 *   commit that would overwrite a key.
 * - `tutorDays/{tutorId}:{date}`: `{ at, tutorId }`, read and written by each confirm of the tutor's around the
 *   date, so that of two confirms that could overlap one commits and the other runs again (`tutorSessionsOn`);
 *   deleted with the tutor's account (`forgetInHistory`).
 * - `bookingRequestTimes/{userId}`: when the user sent their requests (recent-times.ts): the rate limit's
 *   count, read by key in the request's transaction.
 * - versions: `version` and `versionShard` per booking, taken from `syncCounters/bookings.<k>` (positions.ts,
 *   docs/decisions/0027).
 *
 * In a transaction, every read comes before the first write (Firestore's rule), and a booking changed in it
 * is one read in it: Firestore's transactions are serialisable, so what the transaction read stays true until
 * it commits (a rival's write makes one of the two run again), and a change is decided on that read instead of
 * reading again after a write. The repository, made once per attempt, keeps the bookings it read (`seen`) and
 * keeps them as its writes leave them, so several changes of one booking in one transaction add up.
 */
interface ChangeDoc {
  id: string;
  version: number;
  at: string;
  byId: string | null;
  byName: string;
  byRole: Role | null;
  from: BookingStatus | null;
  to: BookingStatus;
  slot: string | null;
  /** A move's ends (absent on other changes, and on entries written before moves existed). */
  move?: BookingMove;
  /** Money recorded (absent on other changes). */
  payment?: NonNullable<BookingChangeRecord['payment']>;
}

interface BookingDoc {
  userId: string | null;
  studentName: string;
  studentEmail: string;
  moduleName: string;
  moduleCategory: BookingCategory;
  priceCentsPerHour: number;
  totalCents: number;
  date: string;
  slots: string[];
  confirmedSlot: string | null;
  startsAt: string;
  hours: number;
  concepts: string;
  status: BookingStatus;
  lateCancellation: boolean;
  paymentReference: string;
  reminderSentAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  versionShard: number;
  history: ChangeDoc[];
  historyBy: string[];
  /** The tutor (a confirmation sets them); absent on a booking stored before bookings had one. */
  tutorId?: string | null;
  tutorName?: string | null;
  /** A weekly series' id, this session's place and the count; absent or null for one session. */
  seriesId?: string | null;
  seriesIndex?: number | null;
  seriesCount?: number | null;
  /** A seat's group session; absent or null for a session of one. */
  groupId?: string | null;
  /** The sums of the money recorded against it (payments.firestore.ts); absent while there is none. */
  payments?: PaymentTotals;
  /** What the session took from a monthly package; absent or null if nothing. */
  packageDraw?: PackageDraw | null;
  /** The board question it was booked from (issue 39 §4); absent or null for none. */
  question?: BookingQuestion | null;
  /** The tutor's notes after the session; absent or null until written. */
  notes?: SessionNotes | null;
  /** When the student agreed to a summary on her question, and when it was posted; absent or null before. */
  summaryConsentAt?: string | null;
  summaryPostedAt?: string | null;
}

/** `tutorDays/<tutor id>:<date>`: written by each confirm of the tutor's around the date (`tutorSessionsOn`). */
interface TutorDayDoc {
  /** The last confirmation's time: what the document holds matters less than that it is written. */
  at: string;
  /** Whose day: the account's deletion finds them by it (`forgetInHistory`). */
  tutorId: string;
}

/** The versioned collection's name for positions.ts: its counters are `syncCounters/bookings.<k>`. */
const collectionName = 'bookings';

function toRecord(id: string, doc: BookingDoc): BookingRecord {
  return {
    id,
    student: { id: doc.userId, name: doc.studentName, email: doc.studentEmail },
    moduleName: doc.moduleName,
    moduleCategory: doc.moduleCategory,
    date: doc.date,
    slots: [...doc.slots],
    confirmedSlot: doc.confirmedSlot,
    hours: doc.hours,
    concepts: doc.concepts,
    status: doc.status,
    priceCentsPerHour: doc.priceCentsPerHour,
    totalCents: doc.totalCents,
    paymentReference: doc.paymentReference,
    lateCancellation: doc.lateCancellation,
    createdAt: doc.createdAt,
    version: doc.version,
    startsAt: doc.startsAt,
    reminderSentAt: doc.reminderSentAt,
    updatedAt: doc.updatedAt,
    tutor: doc.tutorName == null ? null : { id: doc.tutorId ?? null, name: doc.tutorName },
    ...(doc.seriesId == null
      ? {}
      : { series: { id: doc.seriesId, index: doc.seriesIndex ?? 0, count: doc.seriesCount ?? 1 } }),
    ...(doc.groupId == null ? {} : { group: { id: doc.groupId } }),
    ...(doc.payments && (doc.payments.paidCents || doc.payments.refundedCents || doc.payments.waivedCents)
      ? { payments: { ...doc.payments } }
      : {}),
    ...(doc.packageDraw ? { package: { ...doc.packageDraw } } : {}),
    ...(doc.question ? { question: { ...doc.question } } : {}),
    ...(doc.notes ? { notes: { ...doc.notes, by: { ...doc.notes.by } } } : {}),
    ...(doc.summaryConsentAt ? { summaryConsentAt: doc.summaryConsentAt } : {}),
    ...(doc.summaryPostedAt ? { summaryPostedAt: doc.summaryPostedAt } : {}),
  };
}

function toDoc(booking: Omit<BookingRecord, 'version'>, stamp: Stamp): BookingDoc {
  return {
    userId: booking.student.id,
    studentName: booking.student.name,
    studentEmail: booking.student.email,
    moduleName: booking.moduleName,
    moduleCategory: booking.moduleCategory,
    priceCentsPerHour: booking.priceCentsPerHour,
    totalCents: booking.totalCents,
    date: booking.date,
    slots: [...booking.slots],
    confirmedSlot: booking.confirmedSlot,
    startsAt: booking.startsAt,
    hours: booking.hours,
    concepts: booking.concepts,
    status: booking.status,
    lateCancellation: booking.lateCancellation,
    paymentReference: booking.paymentReference,
    reminderSentAt: booking.reminderSentAt,
    createdAt: booking.createdAt,
    updatedAt: booking.updatedAt,
    version: stamp.version,
    versionShard: stamp.shard,
    history: [],
    historyBy: [],
    tutorId: booking.tutor?.id ?? null,
    tutorName: booking.tutor?.name ?? null,
    ...(booking.series
      ? { seriesId: booking.series.id, seriesIndex: booking.series.index, seriesCount: booking.series.count }
      : {}),
    ...(booking.group ? { groupId: booking.group.id } : {}),
    ...(booking.payments ? { payments: { ...booking.payments } } : {}),
    ...(booking.package ? { packageDraw: { ...booking.package } } : {}),
    ...(booking.question ? { question: { ...booking.question } } : {}),
    ...(booking.notes ? { notes: { ...booking.notes, by: { ...booking.notes.by } } } : {}),
    ...(booking.summaryConsentAt ? { summaryConsentAt: booking.summaryConsentAt } : {}),
    ...(booking.summaryPostedAt ? { summaryPostedAt: booking.summaryPostedAt } : {}),
  };
}

/** Only the fields the update names: one left out stays as it is. */
function applyUpdate(doc: BookingDoc, update: BookingUpdate): BookingDoc {
  return {
    ...doc,
    ...(update.status !== undefined ? { status: update.status } : {}),
    ...(update.confirmedSlot !== undefined ? { confirmedSlot: update.confirmedSlot } : {}),
    ...(update.startsAt !== undefined ? { startsAt: update.startsAt } : {}),
    ...(update.lateCancellation !== undefined ? { lateCancellation: update.lateCancellation } : {}),
    ...(update.reminderSentAt !== undefined ? { reminderSentAt: update.reminderSentAt } : {}),
    ...(update.updatedAt !== undefined ? { updatedAt: update.updatedAt } : {}),
    ...(update.tutor !== undefined ? { tutorId: update.tutor?.id ?? null, tutorName: update.tutor?.name ?? null } : {}),
    ...(update.student !== undefined
      ? { userId: update.student.id, studentName: update.student.name, studentEmail: update.student.email }
      : {}),
    ...(update.moduleName !== undefined ? { moduleName: update.moduleName } : {}),
    ...(update.moduleCategory !== undefined ? { moduleCategory: update.moduleCategory } : {}),
    ...(update.priceCentsPerHour !== undefined ? { priceCentsPerHour: update.priceCentsPerHour } : {}),
    ...(update.totalCents !== undefined ? { totalCents: update.totalCents } : {}),
    ...(update.date !== undefined ? { date: update.date } : {}),
    ...(update.slots !== undefined ? { slots: [...update.slots] } : {}),
    ...(update.hours !== undefined ? { hours: update.hours } : {}),
    ...(update.concepts !== undefined ? { concepts: update.concepts } : {}),
    ...(update.payments !== undefined ? { payments: { ...update.payments } } : {}),
    ...(update.package !== undefined ? { packageDraw: update.package ? { ...update.package } : null } : {}),
    ...(update.notes !== undefined
      ? { notes: update.notes ? { ...update.notes, by: { ...update.notes.by } } : null }
      : {}),
    ...(update.summaryConsentAt !== undefined ? { summaryConsentAt: update.summaryConsentAt } : {}),
    ...(update.summaryPostedAt !== undefined ? { summaryPostedAt: update.summaryPostedAt } : {}),
    version: update.stamp.version,
    versionShard: update.stamp.shard,
  };
}

const toChangeDoc = (change: BookingChangeRecord): ChangeDoc => ({
  id: change.id,
  version: change.version,
  at: change.at,
  byId: change.by.id,
  byName: change.by.name,
  byRole: change.by.role,
  from: change.from,
  to: change.to,
  slot: change.slot,
  ...(change.move ? { move: change.move } : {}),
  ...(change.payment ? { payment: { ...change.payment } } : {}),
});

const toChangeRecord = (bookingId: string, change: ChangeDoc): BookingChangeRecord => ({
  id: change.id,
  bookingId,
  version: change.version,
  at: change.at,
  by: { id: change.byId, name: change.byName, role: change.byRole },
  from: change.from,
  to: change.to,
  slot: change.slot,
  ...(change.move ? { move: change.move } : {}),
  ...(change.payment ? { payment: { ...change.payment } } : {}),
});

const byVersion = (a: { version: number }, b: { version: number }) => a.version - b.version;

/** How far back a user's request times are kept: the rate limit counts an hour (bookingLimits). */
const requestTimesKeptMs = 24 * 3_600_000;

/** Documents read in one round trip by `findByPaymentReferences`: a statement's thousand lines in a few. */
const docsPerRead = 300;

/** A change of a booking: the booking as it leaves it, or undefined to leave it alone. */
type Change = (doc: BookingDoc) => BookingDoc | undefined;

export function createBookingsFirestoreRepository(ctx: FirestoreContext, positions: Positions): BookingsRepository {
  const bookings = ctx.db.collection('bookings') as CollectionReference<BookingDoc>;
  const bookingRef = (id: string) => bookings.doc(id);
  const referenceRef = (reference: string) =>
    ctx.db.doc(`bookingPaymentReferences/${keyId(reference)}`) as DocumentReference<{
      bookingId: string;
    }>;

  const requestTimes = createRecentTimes(ctx, 'bookingRequestTimes', requestTimesKeptMs);

  // In a transaction: the bookings it read (null: found missing), as its writes leave them, and the users whose
  // touched bookings it read whole (`listTouchedBy`), which the changes by user id need.
  const seen = new Map<string, BookingDoc | null>();
  const touchedRead = new Set<string>();
  // The tutors' day documents read in this transaction (`tutorSessionsOn`), written when a session is confirmed.
  const heldDays = new Map<string, readonly string[]>();
  const tutorDayRef = (tutorId: string, date: string) =>
    ctx.db.doc(`tutorDays/${keyId(tutorId, date)}`) as DocumentReference<TutorDayDoc>;
  const tutorDaysOf = (tutorId: string) =>
    (ctx.db.collection('tutorDays') as CollectionReference<TutorDayDoc>).where('tutorId', '==', tutorId);
  /** In a transaction: the user's day documents, read with their bookings (`listTouchedBy`), to delete. */
  const daysRead = new Map<string, DocumentReference[]>();

  function remember(id: string, doc: BookingDoc | undefined) {
    if (ctx.tx) seen.set(id, doc ?? null);
  }

  async function readQuery(query: Query<BookingDoc>) {
    const docs = (await (ctx.tx ? ctx.tx.get(query) : query.get())).docs;
    for (const doc of docs) remember(doc.id, doc.data());
    return docs;
  }

  function write(tx: Transaction, id: string, doc: BookingDoc) {
    seen.set(id, doc);
    tx.set(bookingRef(id), doc);
    // A session of a tutor whose days this transaction holds: those days are written with it, so a rival
    // confirm of the tutor's that read them conflicts with this one (tutorSessionsOn).
    const days = doc.status === 'Confirmed' && doc.tutorId ? heldDays.get(doc.tutorId) : undefined;
    for (const date of days ?? [])
      tx.set(tutorDayRef(doc.tutorId!, date), { at: doc.updatedAt, tutorId: doc.tutorId! });
    if (days) heldDays.delete(doc.tutorId!);
  }

  /**
   * Applies `change` to one booking, atomically: in the usecase's transaction on the booking as it read it (or
   * reading it now, which Firestore allows only before the transaction's first write); outside, in a
   * transaction of its own. True when it changed the booking; false for an id no booking can have (a URL's).
   */
  async function modify(id: string, change: Change): Promise<boolean> {
    if (!isRecordId(id)) return false;
    const { tx } = ctx;
    if (tx) {
      if (!seen.has(id)) remember(id, (await tx.get(bookingRef(id))).data());
      const doc = seen.get(id);
      const next = doc ? change(doc) : undefined;
      if (next) write(tx, id, next);
      return next !== undefined;
    }
    return ctx.db.runTransaction(async (own) => {
      const doc = (await own.get(bookingRef(id))).data();
      const next = doc ? change(doc) : undefined;
      if (next) own.set(bookingRef(id), next);
      return next !== undefined;
    });
  }

  /**
   * Applies `change` to every booking `which` picks among those `queries` find. In a transaction, on what
   * `listTouchedBy(userId)` read in it (it found every booking of the user and every one they changed);
   * outside, in a transaction of its own that reads them.
   */
  async function modifyAll(
    userId: string,
    queries: Query<BookingDoc>[],
    which: (doc: BookingDoc) => boolean,
    change: (doc: BookingDoc) => BookingDoc,
  ): Promise<void> {
    const { tx } = ctx;
    if (tx) {
      if (!touchedRead.has(userId))
        throw new Error(`bookings: listTouchedBy(${userId}) must be read in this transaction before changing them`);
      for (const [id, doc] of seen) if (doc && which(doc)) write(tx, id, change(doc));
      return;
    }
    await ctx.db.runTransaction(async (own) => {
      const found = (await Promise.all(queries.map((query) => own.get(query)))).flatMap((answer) => answer.docs);
      for (const snapshot of new Map(found.map((d) => [d.id, d])).values()) {
        if (which(snapshot.data())) own.set(snapshot.ref, change(snapshot.data()));
      }
    });
  }

  const ofStudent = (userId: string) => bookings.where('userId', '==', userId);
  const changedBy = (userId: string) => bookings.where('historyBy', 'array-contains', userId);
  const ofTutor = (userId: string) => bookings.where('tutorId', '==', userId);
  /** Whether the user's name is in the booking's history or on it as its tutor. */
  const namedIn = (userId: string) => (doc: BookingDoc) => doc.historyBy.includes(userId) || doc.tutorId === userId;
  /** The user's name in the history and as the tutor replaced by `name`; their id by `id` (null: forgotten). */
  const renamed = (userId: string, name: string, id: string | null) => (doc: BookingDoc) => ({
    ...doc,
    history: doc.history.map((c) => (c.byId === userId ? { ...c, byId: id, byName: name } : c)),
    historyBy: id === null ? doc.historyBy.filter((by) => by !== userId) : doc.historyBy,
    ...(doc.tutorId === userId ? { tutorId: id, tutorName: name } : {}),
  });

  return {
    // The transaction is the serialisation point on Firestore: nothing to take first.
    beginChanges: async () => undefined,

    takeStamps(count, above = []) {
      if (!ctx.tx) throw new Error('bookings: stamps are taken in a transaction');
      return positions.takeStamps(ctx.tx, collectionName, { above, count });
    },

    readPosition: () => positions.readPosition(collectionName),

    async findById(id) {
      // An id from the URL that no document can have (`a%2Fb`, `__proto__`) names no booking, as on SQL.
      if (!isRecordId(id)) return undefined;
      if (ctx.tx && seen.has(id)) {
        const doc = seen.get(id);
        return doc ? toRecord(id, doc) : undefined;
      }
      const doc = (await read(ctx, bookingRef(id))).data();
      remember(id, doc);
      return doc && toRecord(id, doc);
    },

    countRequestsSince: (userId, since) => requestTimes.countSince(userId, since),

    async isPaymentReferenceTaken(reference) {
      return (await read(ctx, referenceRef(reference))).exists;
    },

    async findByPaymentReferences(references) {
      const ids: string[] = [];
      for (let i = 0; i < references.length; i += docsPerRead) {
        const held = await readAll(ctx, references.slice(i, i + docsPerRead).map(referenceRef));
        for (const doc of held) {
          const bookingId = doc.data()?.bookingId;
          if (bookingId) ids.push(bookingId);
        }
      }
      const found: BookingRecord[] = [];
      for (let i = 0; i < ids.length; i += docsPerRead) {
        const docs = await readAll(ctx, ids.slice(i, i + docsPerRead).map(bookingRef));
        for (const doc of docs) {
          const data = doc.data();
          if (data) found.push(toRecord(doc.id, data));
        }
      }
      return found;
    },

    async insert(booking, stamp) {
      const doc = toDoc(booking, stamp);
      // `create`: the commit fails if the booking or its reference exists (what SQL's unique indexes refuse).
      if (ctx.tx) {
        ctx.tx.create(bookingRef(booking.id), doc);
        ctx.tx.create(referenceRef(booking.paymentReference), { bookingId: booking.id });
        // A weekly series is one request: its first session stands for it.
        if (!booking.series?.index) requestTimes.record(ctx.tx, booking.student.id, booking.createdAt);
        seen.set(booking.id, doc);
        return;
      }
      const batch = ctx.db
        .batch()
        .create(bookingRef(booking.id), doc)
        .create(referenceRef(booking.paymentReference), { bookingId: booking.id });
      if (!booking.series?.index) requestTimes.record(batch, booking.student.id, booking.createdAt);
      await batch.commit();
    },

    async addChange(change) {
      const added = await modify(change.bookingId, (doc) => ({
        ...doc,
        history: [...doc.history, toChangeDoc(change)],
        historyBy:
          change.by.id === null || doc.historyBy.includes(change.by.id)
            ? doc.historyBy
            : [...doc.historyBy, change.by.id],
      }));
      if (!added) throw new Error(`bookings: no booking ${change.bookingId} to add a change to`);
    },

    updateIfAtVersion: (id, version, update) =>
      modify(id, (doc) => (doc.version === version ? applyUpdate(doc, update) : undefined)),

    async findSeries(seriesId) {
      const docs = await readQuery(bookings.where('seriesId', '==', seriesId));
      return docs.map((d) => toRecord(d.id, d.data())).sort((a, b) => (a.series?.index ?? 0) - (b.series?.index ?? 0));
    },

    async tutorSessionsOn(tutorId, dates) {
      if (dates.length === 0) return [];
      const { tx } = ctx;
      if (!tx) throw new Error('bookings: a tutor’s sessions are held in a transaction');
      // The tutor's day documents, read in the transaction and written with the session it confirms: of two
      // confirms of the tutor's around one date, one commits and the other runs again. After they are read,
      // the sessions found are those committed, and no other confirm of the tutor's on these dates commits until
      // this transaction ends: so the query needs no place in the transaction, where the emulator would lock the
      // whole collection against every booking request meanwhile (docs/firestore-layout.md: the rate limit's count).
      await tx.getAll(...dates.map((date) => tutorDayRef(tutorId, date)));
      // Several confirms in one transaction (a weekly series) hold every date they read.
      heldDays.set(tutorId, [...new Set([...(heldDays.get(tutorId) ?? []), ...dates])]);
      const query = bookings
        .where('tutorId', '==', tutorId)
        .where('status', '==', 'Confirmed')
        .where('date', 'in', [...dates]);
      return (await query.get()).docs.map((d) => toRecord(d.id, d.data()));
    },

    async busyOf(tutorIds, { from, to }) {
      // `in` takes 30 values at most; a category has a few tutors.
      const groups = Array.from({ length: Math.ceil(tutorIds.length / 30) }, (_, i) =>
        tutorIds.slice(i * 30, i * 30 + 30),
      );
      const answers = await Promise.all(
        groups.map((ids) =>
          bookings
            .where('tutorId', 'in', ids)
            .where('status', '==', 'Confirmed')
            .where('date', '>=', from)
            .where('date', '<=', to)
            .select('tutorId', 'date', 'confirmedSlot', 'startsAt', 'hours')
            .get(),
        ),
      );
      return answers.flatMap((answer) =>
        answer.docs.map((d) => {
          const doc = d.data();
          return {
            tutorId: doc.tutorId!,
            date: doc.date,
            start: doc.confirmedSlot ?? sastTime(new Date(doc.startsAt)),
            hours: doc.hours,
          };
        }),
      );
    },

    async setVersion(id, stamp) {
      await modify(id, (doc) => ({ ...doc, version: stamp.version, versionShard: stamp.shard }));
    },

    async list(filter: BookingListFilter) {
      let query: Query<BookingDoc> = bookings;
      if (filter.userId !== undefined) query = query.where('userId', '==', filter.userId);
      if (filter.category !== undefined) query = query.where('moduleCategory', '==', filter.category);
      if (filter.status !== undefined) query = query.where('status', '==', filter.status);
      if (filter.from !== undefined) query = query.where('date', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('date', '<=', filter.to);
      // The SQL order: newest session, newest request, then id (the document's name is the booking's id).
      query = query.orderBy('date', 'desc').orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
      const after = filter.after;
      if (after) query = query.startAfter(after.date, after.createdAt, after.id);
      return (await readQuery(query.limit(filter.limit))).map((d) => toRecord(d.id, d.data()));
    },

    async listChangedSince({ since, visibleTo, limit }) {
      // Equality filters only (0027): the student's own, or any of a tutor's categories; all for the admin.
      let query: Query<BookingDoc> = bookings;
      if (visibleTo) {
        const own = Filter.where('userId', '==', visibleTo.userId);
        query = query.where(
          visibleTo.categories.length > 0
            ? Filter.or(own, Filter.where('moduleCategory', 'in', [...visibleTo.categories]))
            : own,
        );
      }
      const changes = await positions.readChangesSince(collectionName, query, since, { limit });
      return {
        bookings: changes.docs.map((d) => toRecord(d.id, d.data() as BookingDoc)),
        position: changes.position,
        more: changes.more,
      };
    },

    async historyOf(bookingIds) {
      const ids = [...new Set(bookingIds)].sort();
      // One read for all the bookings this transaction has not read yet (their history is inside them).
      const unread = ids.filter((id) => !(ctx.tx && seen.has(id)));
      const found = await readAll(ctx, unread.map(bookingRef));
      for (const snapshot of found) remember(snapshot.id, snapshot.data());
      const docs = new Map(found.map((snapshot) => [snapshot.id, snapshot.data()]));
      const docOf = (id: string) => (docs.has(id) ? docs.get(id) : (seen.get(id) ?? undefined));
      return ids.flatMap((id) => [...(docOf(id)?.history ?? [])].sort(byVersion).map((c) => toChangeRecord(id, c)));
    },

    async findDueReminders(args) {
      const query = bookings
        .where('status', '==', 'Confirmed')
        .where('reminderSentAt', '==', null)
        .where('startsAt', '>', args.after)
        .where('startsAt', '<=', args.until)
        .orderBy('startsAt')
        .limit(args.limit);
      // A confirmed booking always has its slot; checked all the same, as the SQL query does.
      return (await readQuery(query))
        .filter((d) => d.data().confirmedSlot !== null)
        .map((d) => toRecord(d.id, d.data()));
    },

    async findConfirmedStarting(args) {
      // The composite index `status, startsAt` (docs/firestore-layout.md).
      const query = bookings
        .where('status', '==', 'Confirmed')
        .where('startsAt', '>', args.after)
        .where('startsAt', '<=', args.until)
        .orderBy('startsAt')
        .orderBy(FieldPath.documentId())
        .limit(args.limit);
      return (await readQuery(query))
        .filter((d) => d.data().confirmedSlot !== null)
        .map((d) => toRecord(d.id, d.data()));
    },

    async countWaiting(categories) {
      if (categories !== 'all' && categories.length === 0) return 0;
      // Equalities (`in` is one): Firestore merges the single-field indexes.
      let query = bookings.where('status', '==', 'Pending');
      if (categories !== 'all') query = query.where('moduleCategory', 'in', [...categories]);
      const counted = query.count();
      return (await (ctx.tx ? ctx.tx.get(counted) : counted.get())).data().count;
    },

    claimReminder: (id, version, at) =>
      modify(id, (doc) =>
        doc.version === version && doc.reminderSentAt === null ? { ...doc, reminderSentAt: at } : undefined,
      ),

    async listOf(userId) {
      const query = ofStudent(userId).orderBy('createdAt').orderBy(FieldPath.documentId());
      return (await readQuery(query)).map((d) => toRecord(d.id, d.data()));
    },

    async listTouchedBy(userId) {
      const [found, days] = await Promise.all([
        Promise.all([ofStudent(userId), changedBy(userId), ofTutor(userId)].map(readQuery)),
        ctx.tx ? ctx.tx.get(tutorDaysOf(userId)) : undefined,
      ]);
      touchedRead.add(userId);
      if (days)
        daysRead.set(
          userId,
          days.docs.map((day) => day.ref),
        );
      const byId = new Map(found.flat().map((d) => [d.id, toRecord(d.id, d.data())]));
      return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async scrubStudent(userId, name, at) {
      await modifyAll(
        userId,
        [ofStudent(userId)],
        (doc) => doc.userId === userId,
        // The session notes and the consent are the student's too (issue 39 §4); the question's link stays.
        (doc) => ({
          ...doc,
          userId: null,
          studentName: name,
          studentEmail: '',
          concepts: '',
          notes: null,
          summaryConsentAt: null,
          updatedAt: at,
        }),
      );
      // Their request times go with them.
      if (ctx.tx) requestTimes.forget(ctx.tx, userId);
      else {
        const batch = ctx.db.batch();
        requestTimes.forget(batch, userId);
        await batch.commit();
      }
    },

    setStudentName: (userId, name, at) =>
      modifyAll(
        userId,
        [ofStudent(userId)],
        (doc) => doc.userId === userId,
        (doc) => ({ ...doc, studentName: name, updatedAt: at }),
      ),

    setNameInHistory: (userId, name) =>
      modifyAll(userId, [changedBy(userId), ofTutor(userId)], namedIn(userId), renamed(userId, name, userId)),

    async forgetInHistory(userId, name) {
      await modifyAll(userId, [changedBy(userId), ofTutor(userId)], namedIn(userId), renamed(userId, name, null));
      // A tutor's day documents go too: they hold only times, but under their id.
      if (ctx.tx) for (const day of daysRead.get(userId) ?? []) ctx.tx.delete(day);
      else {
        const days = await tutorDaysOf(userId).get();
        const batch = ctx.db.batch();
        for (const day of days.docs) batch.delete(day.ref);
        await batch.commit();
      }
    },
  };
}
