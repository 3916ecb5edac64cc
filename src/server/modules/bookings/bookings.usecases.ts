import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import {
  bookingLimits,
  bookingMessages,
  bookingTotalCents,
  latestBookableDate,
  leadTimeProblem,
  uncategorized,
  type Booking,
  type BookingChange,
  type BookingChanges,
  type BookingPage,
  type BookingStatus,
  type bookingListQuerySchema,
  type confirmBookingInputSchema,
  type createBookingInputSchema,
  type setBookingStatusInputSchema,
} from '../../../common/bookings.ts';
import { formatPosition, positionInBody, type Position, type Stamp } from '../../../common/positions.ts';
import { categories, type Category, type Role } from '../../../common/roles.ts';
import { formatSastSlot, sastInstant, sastTime } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Deps } from '../../deps.ts';
import type { Audience } from '../../events/events.ts';
import { createForbiddenError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import {
  cancelledEmail,
  cancelledForStaffEmail,
  completedEmail,
  confirmedEmail,
  newRequestEmail,
  timeChangedEmail,
  receiptEmail,
  reminderEmail,
} from './bookings.emails.ts';
import {
  createBookingNotFoundError,
  createCannotCancelError,
  createCannotConfirmError,
  createNotStartedError,
  createOwnBookingError,
  createTooFarError,
  createChangedMeanwhileError,
  createIdReusedError,
  createInvalidCursorError,
  createRateLimitedError,
  createSlotNotRequestedError,
  createTooSoonError,
} from './bookings.errors.ts';
import type {
  BookingChangeRecord,
  BookingListFilter,
  BookingRecord,
  BookingsRepository,
  BookingUpdate,
} from './bookings.storage.ts';
import { timeOrderedId } from '../../time-ordered-id.ts';

/**
 * Bookings (spec §3, §4, §6; DESIGN "Product decisions"). Who sees what: a student their own bookings, a tutor
 * their own and their categories', the admin all. A booking the caller may not see does not exist for them
 * (404); one they see but may not change is a 403. Every change is a transaction of one shape (0026): it
 * begins (`beginChanges`, SQL's bookings lock), reads all it needs, takes its versions (`takeStamps`), then
 * writes: the booking, its history entry, its e-mails; after the commit it tells the people concerned which
 * booking changed.
 */

const hourMs = 3_600_000;

// ---------------------------------------------------------------------------------------------------------
// Who may do what

const isCategory = (category: string): category is Category => (categories as readonly string[]).includes(category);

function canSee(me: Me, row: BookingRecord): boolean {
  return me.role === 'admin' || row.student.id === me.id || canManage(me, row);
}

/** Confirming and setting a status: the admin, or a tutor of the booking's category. */
function canManage(me: Me, row: BookingRecord): boolean {
  return (
    me.role === 'admin' ||
    (me.role === 'tutor' && isCategory(row.moduleCategory) && me.categories.includes(row.moduleCategory))
  );
}

/**
 * canManage, and not a tutor's own booking: a tutor who books a session in their own subject is its student,
 * and does not confirm or complete it themself (another tutor of the category or the admin does).
 */
function requireManageable(me: Me, row: BookingRecord) {
  if (!canManage(me, row)) throw createForbiddenError();
  if (me.role === 'tutor' && row.student.id === me.id) throw createOwnBookingError();
}

/** Staff only: a student is refused before the body is read or the booking looked up. */
export function requireBookingStaff(me: Me | undefined): Me {
  return requireRole(me, 'tutor', 'admin');
}

async function requireVisible(tx: Deps, me: Me, id: string): Promise<BookingRecord> {
  const row = await tx.repos.bookings.findById(id);
  if (!row || !canSee(me, row)) throw createBookingNotFoundError();
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Reading

/** The history entry as the API sends it: no ids of its own. */
function toChange(change: BookingChangeRecord): BookingChange {
  return { at: change.at, by: change.by, from: change.from, to: change.to, slot: change.slot };
}

/** The booking as the API sends it: what the server keeps for itself (its start, reminder, last change) stays. */
function toBooking(record: BookingRecord, history: BookingChange[]): Booking {
  return {
    id: record.id,
    student: record.student,
    moduleName: record.moduleName,
    moduleCategory: record.moduleCategory,
    date: record.date,
    slots: record.slots,
    confirmedSlot: record.confirmedSlot,
    hours: record.hours,
    concepts: record.concepts,
    status: record.status,
    priceCentsPerHour: record.priceCentsPerHour,
    totalCents: record.totalCents,
    paymentReference: record.paymentReference,
    lateCancellation: record.lateCancellation,
    createdAt: record.createdAt,
    version: record.version,
    history,
  };
}

/** The bookings with their histories: one read for all the histories, whatever the count. */
async function withHistory(bookings: BookingsRepository, records: BookingRecord[]): Promise<Booking[]> {
  const changes = Map.groupBy(await bookings.historyOf(records.map((r) => r.id)), (c) => c.bookingId);
  return records.map((record) => toBooking(record, (changes.get(record.id) ?? []).map(toChange)));
}

async function readBooking(bookings: BookingsRepository, id: string): Promise<Booking> {
  const record = await bookings.findById(id);
  if (!record) throw createBookingNotFoundError();
  return (await withHistory(bookings, [record]))[0]!;
}

type ListQuery = z.output<typeof bookingListQuerySchema>;

const encodeCursor = (row: BookingRecord) =>
  Buffer.from(JSON.stringify([row.date, row.createdAt, row.id])).toString('base64url');

function decodeCursor(cursor: string): { date: string; createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      const [date, createdAt, id] = value as [string, string, string];
      // The id is a booking's, which the pages are ordered by: one no booking can have was never sent.
      if (isRecordId(id)) return { date, createdAt, id };
    }
  } catch {
    // Not JSON: refused below like any other cursor this server did not make.
  }
  throw createInvalidCursorError();
}

/** The list order: newest session first, then newest request, then id. */
function newestFirst(a: BookingRecord, b: BookingRecord): number {
  const key = (r: BookingRecord) => [r.date, r.createdAt, r.id] as const;
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? 1 : -1;
  return 0;
}

/**
 * A page of the bookings the caller may see, newest session first. Each part of what a caller sees (their own,
 * each of a tutor's categories, or all for the admin) is read along its own index, a page each, and the pages
 * are merged: every query stays a short index walk however many bookings there are.
 *
 * `readAt`: the bookings' committed position, read before this call (`Synced-To`, http/synced-to.ts). A first
 * page read at a position is given again to the same reader, asking the same, while the position has not moved
 * (`keptPage`).
 */
export async function listBookings(
  deps: Deps,
  me: Me | undefined,
  query: ListQuery,
  readAt?: Position,
): Promise<BookingPage> {
  const user = requireUser(me);
  // A later page (`cursor`) is read once as the list is scrolled: only first pages are kept.
  if (readAt === undefined || query.cursor !== undefined) return readPage(deps, user, query);
  return keptPage(deps.repos.bookings, user, query, readAt, () => readPage(deps, user, query));
}

async function readPage(deps: Deps, user: Me, query: ListQuery): Promise<BookingPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const filter = { status: query.status, from: query.from, to: query.to, after, limit: bookingLimits.pageSize + 1 };
  const parts: Pick<BookingListFilter, 'userId' | 'category'>[] =
    user.role === 'admin'
      ? [{ category: query.category }]
      : [
          { userId: user.id, category: query.category },
          ...(user.role === 'tutor'
            ? user.categories
                .filter((c) => query.category === undefined || query.category === c)
                .map((category) => ({ category }))
            : []),
        ];
  const pages = await Promise.all(parts.map((part) => deps.repos.bookings.list({ ...filter, ...part })));
  const rows = [...new Map(pages.flat().map((row) => [row.id, row])).values()]
    .sort(newestFirst)
    .slice(0, bookingLimits.pageSize + 1);
  const page = rows.slice(0, bookingLimits.pageSize);
  const last = page.at(-1);
  return {
    bookings: await withHistory(deps.repos.bookings, page),
    nextCursor: rows.length > page.length && last ? encodeCursor(last) : null,
  };
}

/** Pages kept per repository (so per app and storage), at most this many: the oldest kept goes first. */
const keptPagesLimit = 1_000;
const keptPages = new WeakMap<BookingsRepository, Map<string, { at: string; page: Promise<BookingPage> }>>();

/**
 * The page `read` gives, kept under the position it was read at (issue 22: a device reads its list on every
 * page, focus and reconnection, mostly unchanged). Sound because every change to a booking or its history
 * takes a new version of the collection (a rename's and a deleted account's included), as the devices'
 * `?since=` reads need too: while the committed position is the one the page was read after, nothing it
 * holds has changed, and a fresh read would give the same rows. Kept by who reads (their id, role and
 * categories: a tutor given another category reads anew) and by what they ask. A failed read is not kept.
 */
function keptPage(
  bookings: BookingsRepository,
  user: Me,
  query: ListQuery,
  readAt: Position,
  read: () => Promise<BookingPage>,
): Promise<BookingPage> {
  let pages = keptPages.get(bookings);
  if (!pages) keptPages.set(bookings, (pages = new Map()));
  const key = JSON.stringify([user.id, user.role, user.categories, query]);
  const at = formatPosition(readAt);
  const known = pages.get(key);
  if (known?.at === at) return known.page;
  const page = read();
  pages.delete(key);
  pages.set(key, { at, page });
  if (pages.size > keptPagesLimit) pages.delete(pages.keys().next().value!);
  page.catch(() => pages.get(key)?.page === page && pages.delete(key));
  return page;
}

/** The bookings' committed position, for `Synced-To` (http/synced-to.ts). */
export const readBookingsPosition = (deps: Deps) => deps.repos.bookings.readPosition();

/** Every booking the caller may see that changed since `since`, in the order they changed. */
export async function listBookingChanges(deps: Deps, me: Me | undefined, since: Position): Promise<BookingChanges> {
  const user = requireUser(me);
  const visibleTo =
    user.role === 'admin' ? undefined : { userId: user.id, categories: user.role === 'tutor' ? user.categories : [] };
  const { bookings, position, more } = await deps.repos.bookings.listChangedSince({
    since,
    visibleTo,
    limit: bookingLimits.pageSize,
  });
  return {
    bookings: await withHistory(deps.repos.bookings, bookings),
    version: positionInBody(position),
    more,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Writing

/** The student, the admins, and the tutors of the category hear of a change (an uncategorised booking: no tutor). */
function audienceOf(row: Pick<BookingRecord, 'student' | 'moduleCategory'>): Audience {
  return {
    userIds: row.student.id ? [row.student.id] : [],
    roles: ['admin'],
    tutorCategories: isCategory(row.moduleCategory) ? [row.moduleCategory] : [],
  };
}

/** `version`: the bookings' version the change commits at. */
const notify = (tx: Deps, row: Pick<BookingRecord, 'id' | 'student' | 'moduleCategory'>, version: number) =>
  tx.events.publish({ table: 'bookings', ids: [row.id], audience: audienceOf(row), version });

type Actor = { id: string | null; name: string; role: Role | null };

/** The deletion of an account, as the history shows it. */
const deletedUser: Actor = { id: null, name: bookingMessages.deletedUser, role: null };

function historyEntry(
  bookingId: string,
  version: number,
  at: string,
  by: Actor,
  from: BookingStatus | null,
  to: BookingStatus,
  slot: string | null = null,
): BookingChangeRecord {
  return {
    // Time-ordered, as the outbox's ids are (mail.repository.ts): a stored entry's key goes after the others.
    id: timeOrderedId(),
    bookingId,
    version,
    at,
    by: { id: by.id, name: by.name, role: by.role },
    from,
    to,
    slot,
  };
}

/**
 * Who hears of a booking by e-mail: the tutors of its category and every admin (an uncategorised one: the
 * admins). Read before the transaction's first write to the bookings (docs/decisions/0026).
 */
const staffToTell = (tx: Deps, category: BookingRecord['moduleCategory']) =>
  tx.repos.accounts.staffOf(category === uncategorized ? null : category);

/** Unambiguous characters only (no 0/O, 1/I/L), so a reference survives being read aloud or typed into a bank's form. */
const referenceAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newPaymentReference = () =>
  `TB-${Array.from({ length: 6 }, () => referenceAlphabet[randomInt(referenceAlphabet.length)]).join('')}`;

/**
 * A reference no booking has; call it in the change's transaction, after `beginChanges`, so nobody takes it
 * before the insert (SQL: the lock; Firestore: the transaction conflicts with another's creating it). Also
 * gives one to each booking the Firebase import brings in (src/server/import).
 */
export async function uniquePaymentReference(
  bookings: Pick<BookingsRepository, 'isPaymentReferenceTaken'>,
): Promise<string> {
  for (;;) {
    const reference = newPaymentReference();
    if (!(await bookings.isPaymentReferenceTaken(reference))) return reference;
  }
}

type CreateInput = z.output<typeof createBookingInputSchema>;

/**
 * A booking stored under this id already: the same request sent again (its answer was lost) gets the stored
 * booking; anything else under the id is a conflict. Undefined when the id is new. The module is compared in
 * any case: the stored name is the catalogue's spelling of what was typed.
 */
async function findRepeatedBooking(deps: Deps, me: Me, input: CreateInput): Promise<Booking | undefined> {
  const row = await deps.repos.bookings.findById(input.id);
  if (!row) return undefined;
  const same =
    row.student.id === me.id &&
    row.moduleName.toLowerCase() === input.module.toLowerCase() &&
    row.date === input.date &&
    row.slots.join() === input.slots.join() &&
    row.hours === input.hours &&
    row.concepts === input.concepts;
  if (!same) throw createIdReusedError();
  return readBooking(deps.repos.bookings, row.id);
}

/**
 * Every requested time must be at least the configured lead time away (a past date is too); the refusal names
 * the times too soon and the earliest one accepted. And no further than a year ahead (a typo's year 9999).
 */
function requireBookableTime(deps: Deps, input: CreateInput) {
  const now = deps.clock.now();
  const problem = leadTimeProblem(input.date, input.slots, { now, leadHours: deps.config.bookingMinLeadHours });
  if (problem) throw createTooSoonError(problem.message, problem.field);
  const latest = latestBookableDate(now);
  if (input.date > latest) throw createTooFarError(latest);
}

/** The session's start as a time of day (SAST): what `startsAt` holds. */
const startTime = (row: BookingRecord) => sastTime(new Date(row.startsAt));

async function requireWithinRateLimit(tx: Deps, me: Me) {
  const since = new Date(tx.clock.now().getTime() - hourMs).toISOString();
  if ((await tx.repos.bookings.countRequestsSince(me.id, since)) >= bookingLimits.requestsPerHour)
    throw createRateLimitedError();
}

/**
 * A booking request (any signed-in user, for themself), exactly once per client id: `created` is false when it
 * was stored before. It keeps the module's name, category and rate as they are now; a module the catalogue
 * does not know is a custom subject, uncategorised, at the live session fee. The e-mails are queued with it.
 */
export async function createBooking(
  deps: Deps,
  me: Me | undefined,
  input: CreateInput,
): Promise<{ booking: Booking; created: boolean }> {
  const student = requireUser(me);
  // The booking as inserted, so the answer is the one the e-mails describe and needs no read after the commit.
  const created = await withTransaction(deps, async (tx): Promise<Booking | undefined> => {
    const { bookings } = tx.repos;
    await bookings.beginChanges();
    // A repeat (the id stored already, perhaps by the same request on another connection a moment ago) is
    // answered after the transaction, and before the rules that depend on time: it books nothing new.
    if (await bookings.findById(input.id)) return undefined;
    requireBookableTime(tx, input);
    await requireWithinRateLimit(tx, student);
    const module = await tx.repos.catalogue.findByName(input.module);
    const priceCentsPerHour = module?.priceCents ?? bookingLimits.customRateCents;
    const moduleCategory = module?.category ?? uncategorized;
    const paymentReference = await uniquePaymentReference(bookings);
    const staff = await staffToTell(tx, moduleCategory);
    const [stamp] = (await bookings.takeStamps(1)) as [Stamp];
    const version = stamp.version;
    const now = tx.clock.now().toISOString();
    const record: BookingRecord = {
      id: input.id,
      student: { id: student.id, name: student.name, email: student.email },
      moduleName: module?.name ?? input.module,
      moduleCategory,
      priceCentsPerHour,
      totalCents: bookingTotalCents(input.hours, priceCentsPerHour),
      date: input.date,
      slots: [...input.slots],
      confirmedSlot: null,
      startsAt: sastInstant(input.date, [...input.slots].sort()[0]!).toISOString(),
      hours: input.hours,
      concepts: input.concepts,
      status: 'Pending',
      lateCancellation: false,
      paymentReference,
      reminderSentAt: null,
      createdAt: now,
      updatedAt: now,
      version,
    };
    const change = historyEntry(record.id, version, now, student, null, 'Pending');
    await bookings.insert(record, stamp);
    await bookings.addChange(change);
    const booking = toBooking(record, [toChange(change)]);
    await tx.mail.enqueue(
      ...staff.map((person) => newRequestEmail(booking, person, tx.config.publicUrl)),
      receiptEmail(booking, tx.config.publicUrl),
    );
    notify(tx, record, version);
    return booking;
  });
  if (created) return { booking: created, created: true };
  return { booking: (await findRepeatedBooking(deps, student, input))!, created: false };
}

/** The booking as `update` leaves it: its fields, at its stamp's version. */
function updated(row: BookingRecord, { stamp, ...changes }: BookingUpdate): BookingRecord {
  return { ...row, ...changes, version: stamp.version };
}

/**
 * A change to a booking read in this transaction, as its last reads and its writes: reads the booking's
 * history, takes the change's version, then applies `change(version)`'s update only if the booking is still at
 * `atVersion` (else 409) and records its entry. The answer is the booking as changed, with the entry last.
 */
async function applyChange(
  tx: Deps,
  row: BookingRecord,
  atVersion: number,
  change: (stamp: Stamp) => { update: BookingUpdate; entry: BookingChangeRecord },
): Promise<{ booking: Booking; version: number }> {
  const { bookings } = tx.repos;
  const [before] = await withHistory(bookings, [row]);
  const [stamp] = (await bookings.takeStamps(1, [row.version])) as [Stamp];
  const { update, entry } = change(stamp);
  if (!(await bookings.updateIfAtVersion(row.id, atVersion, update))) throw createChangedMeanwhileError();
  await bookings.addChange(entry);
  const booking = toBooking(updated(row, update), [...before!.history, toChange(entry)]);
  return { booking, version: stamp.version };
}

/**
 * Staff confirm one of the three requested times: the slot and Confirmed are set together, and only if the
 * booking is still at the version the caller read (else 409). The same confirmation sent again is answered
 * with the booking as it is. The student gets the time, a calendar invitation and the payment details.
 */
export async function confirmBooking(
  deps: Deps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof confirmBookingInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (!row.slots.includes(input.slot)) throw createSlotNotRequestedError();
    if (row.status === 'Confirmed' && row.confirmedSlot === input.slot) return;
    // A card out of date hears that first: what it showed may no longer hold.
    if (row.version !== input.version) throw createChangedMeanwhileError();
    // A cancelled session is not brought back by a confirmation sent from a card that was out of date.
    if (row.status === 'Cancelled' || row.status === 'Completed') throw createCannotConfirmError();
    const now = tx.clock.now();
    const startsAt = sastInstant(row.date, input.slot);
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: {
        status: 'Confirmed',
        confirmedSlot: input.slot,
        startsAt: startsAt.toISOString(),
        lateCancellation: false,
        // Confirmed within the reminder's window, the confirmation itself is the reminder.
        reminderSentAt:
          startsAt.getTime() - now.getTime() <= bookingLimits.reminderHours * hourMs ? now.toISOString() : null,
        updatedAt: now.toISOString(),
        stamp,
      },
      entry: historyEntry(id, stamp.version, now.toISOString(), staff, row.status, 'Confirmed', input.slot),
    }));
    const mailArgs = {
      publicUrl: tx.config.publicUrl,
      eftDetails: tx.config.paymentEftDetails,
      now,
      // EmailJS carries no attachments (README): its e-mails give the time in SAST and promise no invitation.
      withInvitation: !tx.config.emailJs,
    };
    // Confirmed before at another time: the student hears that the time moved, from what to what.
    const before = row.status === 'Confirmed' ? row.confirmedSlot : null;
    await tx.mail.enqueue(
      before ? timeChangedEmail(booking, before, input.slot, mailArgs) : confirmedEmail(booking, input.slot, mailArgs),
    );
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * Staff set any of the four statuses, in any order (spec §4), if the booking is still at the version they
 * read; asking for the status it already has changes nothing. The student hears when it is Cancelled or
 * Completed.
 */
export async function setBookingStatus(
  deps: Deps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof setBookingStatusInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (row.status === input.status) return;
    // Completed before it started is most likely a slip: the student would be told their session is over.
    // A card out of date hears that first: what it showed may no longer hold.
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const notStarted = Date.parse(row.startsAt) > tx.clock.now().getTime();
    if (input.status === 'Completed' && notStarted && !input.beforeStart)
      throw createNotStartedError(formatSastSlot(row.date, startTime(row)));
    const now = tx.clock.now().toISOString();
    // A staff change is never a student's late cancellation, and takes back one recorded before.
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: { status: input.status, lateCancellation: false, updatedAt: now, stamp },
      entry: historyEntry(id, stamp.version, now, staff, row.status, input.status),
    }));
    if (input.status === 'Cancelled')
      await tx.mail.enqueue(cancelledEmail(booking, tx.config.publicUrl, tx.config.paymentEftDetails));
    if (input.status === 'Completed') await tx.mail.enqueue(completedEmail(booking, tx.config.publicUrl));
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * The student cancels their own Pending or Confirmed booking. Within `lateCancelHours` of the session (the
 * confirmed time, else the earliest requested one) it is recorded as late: the fee applies. Cancelling a
 * cancelled booking again is answered with it (a retry); staff use the status instead.
 */
export async function cancelBooking(deps: Deps, me: Me | undefined, id: string): Promise<Booking> {
  const user = requireUser(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, user, id);
    if (row.student.id !== user.id) throw createForbiddenError();
    if (row.status === 'Cancelled') return;
    if (row.status !== 'Pending' && row.status !== 'Confirmed') throw createCannotCancelError();
    const now = tx.clock.now();
    const late = Date.parse(row.startsAt) - now.getTime() < bookingLimits.lateCancelHours * hourMs;
    const staff = await staffToTell(tx, row.moduleCategory);
    const { booking, version } = await applyChange(tx, row, row.version, (stamp) => ({
      update: { status: 'Cancelled', lateCancellation: late, updatedAt: now.toISOString(), stamp },
      entry: historyEntry(id, stamp.version, now.toISOString(), user, row.status, 'Cancelled'),
    }));
    await tx.mail.enqueue(
      cancelledEmail(booking, tx.config.publicUrl, tx.config.paymentEftDetails),
      ...staff.map((person) => cancelledForStaffEmail(booking, person, tx.config.publicUrl, 'student')),
    );
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

// ---------------------------------------------------------------------------------------------------------
// Reminders

/**
 * Queues the reminder of every confirmed session that starts within `reminderHours` and has not had one. Safe
 * to run in several processes at once: each reminder is claimed with a conditional update before it is queued.
 */
export async function sendDueReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.repos.bookings.findDueReminders({
    after: now.toISOString(),
    until: new Date(now.getTime() + bookingLimits.reminderHours * hourMs).toISOString(),
    limit: 100,
  });
  let queued = 0;
  for (const row of due) {
    const claimed = await withTransaction(deps, async (tx) => {
      if (!(await tx.repos.bookings.claimReminder(row.id, row.version, now.toISOString()))) return false;
      await tx.mail.enqueue(reminderEmail(toBooking(row, []), row.confirmedSlot!, tx.config.publicUrl));
      return true;
    });
    if (claimed) queued++;
  }
  return queued;
}

// ---------------------------------------------------------------------------------------------------------
// The user's part of the data export and of account deletion

/** Ids per notice when one change touches many bookings: a notice stays far under NOTIFY's 8,000 bytes. */
const idsPerNotice = 100;

export const bookingsPersonalData: PersonalDataPart = {
  async exportFor(deps, me) {
    const { bookings } = deps.repos;
    return { bookings: await withHistory(bookings, await bookings.listOf(me.id)) };
  },

  /**
   * The user's future Pending and Confirmed bookings are cancelled (their tutors and the admins are told, so
   * nobody waits for a session that will not happen); on all their bookings the name, address and concepts are
   * scrubbed, and their name leaves every booking's history. Each booking touched gets a new version.
   */
  async eraseFor(tx, userId) {
    const { bookings } = tx.repos;
    await bookings.beginChanges();
    const now = tx.clock.now().toISOString();
    const touched = await bookings.listTouchedBy(userId);
    if (touched.length === 0) return;
    // All it reads comes before its writes: which bookings it cancels, and whom to tell of each.
    const toCancel = new Set(
      touched.filter(
        (r) => r.student.id === userId && (r.status === 'Pending' || r.status === 'Confirmed') && r.startsAt > now,
      ),
    );
    const staff = await staffOfEach(tx, [...toCancel]);
    const stamps = await bookings.takeStamps(
      touched.length,
      touched.map((row) => row.version),
    );
    const cancelled: BookingRecord[] = [];
    for (const [i, row] of touched.entries()) {
      const stamp = stamps[i]!;
      if (toCancel.has(row)) {
        const update: BookingUpdate = { status: 'Cancelled', lateCancellation: false, updatedAt: now, stamp };
        await bookings.updateIfAtVersion(row.id, row.version, update);
        await bookings.addChange(historyEntry(row.id, stamp.version, now, deletedUser, row.status, 'Cancelled'));
        cancelled.push(updated(row, update));
      } else {
        await bookings.setVersion(row.id, stamp);
      }
    }
    await bookings.scrubStudent(userId, bookingMessages.deletedUser, now);
    await bookings.forgetInHistory(userId, bookingMessages.deletedUser);
    for (const row of cancelled) {
      // Nothing of the student's, nor their id: this notice outlives their account (profile deletes the rest).
      const scrubbed = toBooking(
        { ...row, student: { id: null, name: bookingMessages.deletedUser, email: '' }, concepts: '' },
        [],
      );
      await tx.mail.enqueue(
        ...staff
          .get(row.moduleCategory)!
          .map((person) => cancelledForStaffEmail(scrubbed, person, tx.config.publicUrl, 'account-deleted')),
      );
    }
    // The deleted user hears nothing more.
    publishTouched(
      tx,
      touched.map((row) =>
        audienceOf(row.student.id === userId ? { ...row, student: { ...row.student, id: null } } : row),
      ),
      touched,
      stamps.at(-1)!.version,
    );
  },

  /**
   * Bookings show a person's current name (docs/decisions/0025): a rename reaches the student's bookings and
   * the history entries the user made (a tutor's confirmations), each booking with a new version, so every
   * device that holds one refreshes it and nobody's list shows two names for one person.
   */
  async renameFor(tx, userId, name) {
    const { bookings } = tx.repos;
    await bookings.beginChanges();
    const touched = await bookings.listTouchedBy(userId);
    if (touched.length === 0) return;
    const stamps = await bookings.takeStamps(
      touched.length,
      touched.map((row) => row.version),
    );
    for (const [i, row] of touched.entries()) await bookings.setVersion(row.id, stamps[i]!);
    await bookings.setStudentName(userId, name, tx.clock.now().toISOString());
    await bookings.setNameInHistory(userId, name);
    publishTouched(tx, touched.map(audienceOf), touched, stamps.at(-1)!.version);
  },
};

/** Whom to tell of each of `rows`, by category: a read per category, one after another (one connection). */
async function staffOfEach(tx: Deps, rows: BookingRecord[]) {
  const staff = new Map<BookingRecord['moduleCategory'], Awaited<ReturnType<typeof staffToTell>>>();
  for (const row of rows)
    if (!staff.has(row.moduleCategory)) staff.set(row.moduleCategory, await staffToTell(tx, row.moduleCategory));
  return staff;
}

/**
 * Tells who may see each of `touched` (its audience, same index) that it changed: one notice per audience and
 * at most `idsPerNotice` ids, each with `version`, the last one the change set (they all commit together).
 */
function publishTouched(tx: Deps, audiences: Audience[], touched: { id: string }[], version: number) {
  const groups = Map.groupBy(
    touched.map((row, i) => ({ id: row.id, audience: audiences[i]! })),
    (n) => JSON.stringify(n.audience),
  );
  for (const notices of groups.values()) {
    for (let i = 0; i < notices.length; i += idsPerNotice) {
      tx.events.publish({
        table: 'bookings',
        ids: notices.slice(i, i + idsPerNotice).map((n) => n.id),
        audience: notices[0]!.audience,
        version,
      });
    }
  }
}
