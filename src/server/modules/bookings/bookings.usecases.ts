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
import { categories, type Category, type Role } from '../../../common/roles.ts';
import { formatSastSlot, sastInstant, sastTime } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import type { Db } from '../../db/create-db.ts';
import { withTransaction, type Deps } from '../../deps.ts';
import type { Audience } from '../../events/events.ts';
import { createForbiddenError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
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
import * as repo from './bookings.repository.ts';

/**
 * Bookings (spec §3, §4, §6; DESIGN "Product decisions"). Who sees what: a student their own bookings, a tutor
 * their own and their categories', the admin all. A booking the caller may not see does not exist for them
 * (404); one they see but may not change is a 403. Every change takes a new version under the bookings lock
 * (repo.takeVersions), is recorded in the booking's history, queues its e-mails in the same transaction and
 * tells the people concerned which booking changed.
 */

const hourMs = 3_600_000;

// ---------------------------------------------------------------------------------------------------------
// Who may do what

const isCategory = (category: string): category is Category => (categories as readonly string[]).includes(category);

function canSee(me: Me, row: repo.BookingRow): boolean {
  return me.role === 'admin' || row.user_id === me.id || canManage(me, row);
}

/** Confirming and setting a status: the admin, or a tutor of the booking's category. */
function canManage(me: Me, row: repo.BookingRow): boolean {
  return (
    me.role === 'admin' ||
    (me.role === 'tutor' && isCategory(row.module_category) && me.categories.includes(row.module_category))
  );
}

/**
 * canManage, and not a tutor's own booking: a tutor who books a session in their own subject is its student,
 * and does not confirm or complete it themself (another tutor of the category or the admin does).
 */
function requireManageable(me: Me, row: repo.BookingRow) {
  if (!canManage(me, row)) throw createForbiddenError();
  if (me.role === 'tutor' && row.user_id === me.id) throw createOwnBookingError();
}

/** Staff only: a student is refused before the body is read or the booking looked up. */
export function requireBookingStaff(me: Me | undefined): Me {
  return requireRole(me, 'tutor', 'admin');
}

async function requireVisible(tx: Deps, me: Me, id: string): Promise<repo.BookingRow> {
  const row = await repo.findBooking(tx.db, id);
  if (!row || !canSee(me, row)) throw createBookingNotFoundError();
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Reading

function toChange(row: repo.BookingChangeRow): BookingChange {
  return {
    at: row.at,
    by: { id: row.by_user_id, name: row.by_name, role: row.by_role },
    from: row.from_status,
    to: row.to_status,
    slot: row.slot,
  };
}

function toBooking(row: repo.BookingRow, history: BookingChange[]): Booking {
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
    history,
  };
}

/** The bookings with their histories: one query for all the histories, whatever the count. */
async function withHistory(db: Db, rows: repo.BookingRow[]): Promise<Booking[]> {
  const changes = Map.groupBy(
    await repo.listChanges(
      db,
      rows.map((r) => r.id),
    ),
    (c) => c.booking_id,
  );
  return rows.map((row) => toBooking(row, (changes.get(row.id) ?? []).map(toChange)));
}

async function readBooking(db: Db, id: string): Promise<Booking> {
  const row = await repo.findBooking(db, id);
  if (!row) throw createBookingNotFoundError();
  return (await withHistory(db, [row]))[0]!;
}

type ListQuery = z.output<typeof bookingListQuerySchema>;

const encodeCursor = (row: repo.BookingRow) =>
  Buffer.from(JSON.stringify([row.date, row.created_at, row.id])).toString('base64url');

function decodeCursor(cursor: string): { date: string; createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      const [date, createdAt, id] = value as string[];
      return { date: date!, createdAt: createdAt!, id: id! };
    }
  } catch {
    // Not JSON: refused below like any other cursor this server did not make.
  }
  throw createInvalidCursorError();
}

/** The list order: newest session first, then newest request, then id. */
function newestFirst(a: repo.BookingRow, b: repo.BookingRow): number {
  const key = (r: repo.BookingRow) => [r.date, r.created_at, r.id] as const;
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? 1 : -1;
  return 0;
}

/**
 * A page of the bookings the caller may see, newest session first. Each part of what a caller sees (their own,
 * each of a tutor's categories, or all for the admin) is read along its own index, a page each, and the pages
 * are merged: every query stays a short index walk however many bookings there are.
 */
export async function listBookings(deps: Deps, me: Me | undefined, query: ListQuery): Promise<BookingPage> {
  const user = requireUser(me);
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const filter = { status: query.status, from: query.from, to: query.to, after, limit: bookingLimits.pageSize + 1 };
  const parts: Pick<repo.ListFilter, 'userId' | 'category'>[] =
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
  const pages = await Promise.all(parts.map((part) => repo.listBookings(deps.db, { ...filter, ...part })));
  const rows = [...new Map(pages.flat().map((row) => [row.id, row])).values()]
    .sort(newestFirst)
    .slice(0, bookingLimits.pageSize + 1);
  const page = rows.slice(0, bookingLimits.pageSize);
  const last = page.at(-1);
  return {
    bookings: await withHistory(deps.db, page),
    nextCursor: rows.length > page.length && last ? encodeCursor(last) : null,
  };
}

/** The bookings' committed version, for `Synced-To` (http/synced-to.ts). */
export const readBookingsVersion = (deps: Deps) => repo.readVersion(deps.db);

/** Every booking the caller may see that changed after `since`, in version order. */
export async function listBookingChanges(deps: Deps, me: Me | undefined, since: number): Promise<BookingChanges> {
  const user = requireUser(me);
  const visibleTo =
    user.role === 'admin' ? undefined : { userId: user.id, categories: user.role === 'tutor' ? user.categories : [] };
  const rows = await repo.listChangedBookings(deps.db, {
    version: since,
    visibleTo,
    limit: bookingLimits.pageSize + 1,
  });
  const page = rows.slice(0, bookingLimits.pageSize);
  return {
    bookings: await withHistory(deps.db, page),
    version: page.at(-1)?.version ?? since,
    more: rows.length > page.length,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Writing

/** The student, the admins, and the tutors of the category hear of a change (an uncategorised booking: no tutor). */
function audienceOf(row: Pick<repo.BookingRow, 'user_id' | 'module_category'>): Audience {
  return {
    userIds: row.user_id ? [row.user_id] : [],
    roles: ['admin'],
    tutorCategories: isCategory(row.module_category) ? [row.module_category] : [],
  };
}

/** `version`: the bookings' version the change commits at. */
const notify = (tx: Deps, row: Pick<repo.BookingRow, 'id' | 'user_id' | 'module_category'>, version: number) =>
  tx.events.publish({ table: 'bookings', ids: [row.id], audience: audienceOf(row), version });

type Actor = { id: string | null; name: string; role: Role | null };

/** The deletion of an account, as the history shows it. */
const deletedUser: Actor = { id: null, name: bookingMessages.deletedUser, role: null };

function changeRow(
  bookingId: string,
  version: number,
  at: string,
  by: Actor,
  from: BookingStatus | null,
  to: BookingStatus,
  slot: string | null = null,
) {
  return {
    id: crypto.randomUUID(),
    booking_id: bookingId,
    version,
    at,
    by_user_id: by.id,
    by_name: by.name,
    by_role: by.role,
    from_status: from,
    to_status: to,
    slot,
  };
}

/** Unambiguous characters only (no 0/O, 1/I/L), so a reference survives being read aloud or typed into a bank's form. */
const referenceAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newPaymentReference = () =>
  `TB-${Array.from({ length: 6 }, () => referenceAlphabet[randomInt(referenceAlphabet.length)]).join('')}`;

/**
 * A reference no booking has; call it under the bookings lock, so nobody takes it before the insert. Also
 * gives one to each booking the Firebase import brings in (src/server/import).
 */
export async function uniquePaymentReference(tx: Pick<Deps, 'db'>): Promise<string> {
  for (;;) {
    const reference = newPaymentReference();
    if (!(await repo.isPaymentReferenceTaken(tx.db, reference))) return reference;
  }
}

type CreateInput = z.output<typeof createBookingInputSchema>;

/**
 * A booking stored under this id already: the same request sent again (its answer was lost) gets the stored
 * booking; anything else under the id is a conflict. Undefined when the id is new. The module is compared in
 * any case: the stored name is the catalogue's spelling of what was typed.
 */
async function findRepeatedBooking(deps: Deps, me: Me, input: CreateInput): Promise<Booking | undefined> {
  const row = await repo.findBooking(deps.db, input.id);
  if (!row) return undefined;
  const same =
    row.user_id === me.id &&
    row.module_name.toLowerCase() === input.module.toLowerCase() &&
    row.date === input.date &&
    [row.slot1, row.slot2, row.slot3].join() === input.slots.join() &&
    row.hours === input.hours &&
    row.concepts === input.concepts;
  if (!same) throw createIdReusedError();
  return readBooking(deps.db, row.id);
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

/** The session's start as a time of day (SAST): what `starts_at` holds. */
const startTime = (row: repo.BookingRow) => sastTime(new Date(row.starts_at));

async function requireWithinRateLimit(tx: Deps, me: Me) {
  const since = new Date(tx.clock.now().getTime() - hourMs).toISOString();
  if ((await repo.countRequestsSince(tx.db, me.id, since)) >= bookingLimits.requestsPerHour)
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
  // A repeat is answered before the rules that depend on time: it books nothing new.
  const before = await findRepeatedBooking(deps, student, input);
  if (before) return { booking: before, created: false };
  requireBookableTime(deps, input);
  // The booking as inserted, so the answer is the one the e-mails describe and needs no read after the commit.
  const created = await withTransaction(deps, async (tx): Promise<Booking | undefined> => {
    const version = await repo.takeVersions(tx.db, 1);
    // Checked again under the lock: the same request on another connection may have just committed.
    if (await repo.findBooking(tx.db, input.id)) return undefined;
    await requireWithinRateLimit(tx, student);
    const module = await repo.findModuleByName(tx.db, input.module);
    const priceCentsPerHour = module?.price_cents ?? bookingLimits.customRateCents;
    const now = tx.clock.now().toISOString();
    const row: repo.BookingRow = {
      id: input.id,
      user_id: student.id,
      student_name: student.name,
      student_email: student.email,
      module_name: module?.name ?? input.module,
      module_category: module?.category ?? uncategorized,
      price_cents_per_hour: priceCentsPerHour,
      total_cents: bookingTotalCents(input.hours, priceCentsPerHour),
      date: input.date,
      slot1: input.slots[0]!,
      slot2: input.slots[1]!,
      slot3: input.slots[2]!,
      confirmed_slot: null,
      starts_at: sastInstant(input.date, [...input.slots].sort()[0]!).toISOString(),
      hours: input.hours,
      concepts: input.concepts,
      status: 'Pending',
      late_cancellation: 0,
      payment_reference: await uniquePaymentReference(tx),
      reminder_sent_at: null,
      created_at: now,
      updated_at: now,
      version,
    };
    const change = changeRow(row.id, version, now, student, null, 'Pending');
    await repo.insertBooking(tx.db, row);
    await repo.insertChange(tx.db, change);
    const booking = toBooking(row, [toChange(change)]);
    for (const staff of await repo.listStaffOf(tx.db, row.module_category))
      await tx.mail.enqueue(newRequestEmail(booking, staff, tx.config.publicUrl));
    await tx.mail.enqueue(receiptEmail(booking, tx.config.publicUrl));
    notify(tx, row, version);
    return booking;
  });
  if (created) return { booking: created, created: true };
  return { booking: (await findRepeatedBooking(deps, student, input))!, created: false };
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
    const version = await repo.takeVersions(tx.db, 1);
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (![row.slot1, row.slot2, row.slot3].includes(input.slot)) throw createSlotNotRequestedError();
    if (row.status === 'Confirmed' && row.confirmed_slot === input.slot) return;
    // A card out of date hears that first: what it showed may no longer hold.
    if (row.version !== input.version) throw createChangedMeanwhileError();
    // A cancelled session is not brought back by a confirmation sent from a card that was out of date.
    if (row.status === 'Cancelled' || row.status === 'Completed') throw createCannotConfirmError();
    const now = tx.clock.now();
    const startsAt = sastInstant(row.date, input.slot);
    const changes = {
      status: 'Confirmed' as const,
      confirmed_slot: input.slot,
      starts_at: startsAt.toISOString(),
      late_cancellation: 0,
      // Confirmed within the reminder's window, the confirmation itself is the reminder.
      reminder_sent_at:
        startsAt.getTime() - now.getTime() <= bookingLimits.reminderHours * hourMs ? now.toISOString() : null,
      updated_at: now.toISOString(),
      version,
    };
    if (!(await repo.updateIfAtVersion(tx.db, id, input.version, changes))) throw createChangedMeanwhileError();
    const changed = { ...row, ...changes };
    await repo.insertChange(
      tx.db,
      changeRow(id, version, now.toISOString(), staff, row.status, 'Confirmed', input.slot),
    );
    const [booking] = await withHistory(tx.db, [changed]);
    const mailArgs = { publicUrl: tx.config.publicUrl, eftDetails: tx.config.paymentEftDetails, now };
    // Confirmed before at another time: the student hears that the time moved, from what to what.
    const before = row.status === 'Confirmed' ? row.confirmed_slot : null;
    await tx.mail.enqueue(
      before
        ? timeChangedEmail(booking!, before, input.slot, mailArgs)
        : confirmedEmail(booking!, input.slot, mailArgs),
    );
    notify(tx, row, version);
  });
  return readBooking(deps.db, id);
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
    const version = await repo.takeVersions(tx.db, 1);
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (row.status === input.status) return;
    // Completed before it started is most likely a slip: the student would be told their session is over.
    // A card out of date hears that first: what it showed may no longer hold.
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const notStarted = Date.parse(row.starts_at) > tx.clock.now().getTime();
    if (input.status === 'Completed' && notStarted && !input.beforeStart)
      throw createNotStartedError(formatSastSlot(row.date, startTime(row)));
    const now = tx.clock.now().toISOString();
    // A staff change is never a student's late cancellation, and takes back one recorded before.
    const changes = { status: input.status, late_cancellation: 0, updated_at: now, version };
    if (!(await repo.updateIfAtVersion(tx.db, id, input.version, changes))) throw createChangedMeanwhileError();
    const changed = { ...row, ...changes };
    await repo.insertChange(tx.db, changeRow(id, version, now, staff, row.status, input.status));
    const [booking] = await withHistory(tx.db, [changed]);
    if (input.status === 'Cancelled')
      await tx.mail.enqueue(cancelledEmail(booking!, tx.config.publicUrl, tx.config.paymentEftDetails));
    if (input.status === 'Completed') await tx.mail.enqueue(completedEmail(booking!, tx.config.publicUrl));
    notify(tx, row, version);
  });
  return readBooking(deps.db, id);
}

/**
 * The student cancels their own Pending or Confirmed booking. Within `lateCancelHours` of the session (the
 * confirmed time, else the earliest requested one) it is recorded as late: the fee applies. Cancelling a
 * cancelled booking again is answered with it (a retry); staff use the status instead.
 */
export async function cancelBooking(deps: Deps, me: Me | undefined, id: string): Promise<Booking> {
  const user = requireUser(me);
  await withTransaction(deps, async (tx) => {
    const version = await repo.takeVersions(tx.db, 1);
    const row = await requireVisible(tx, user, id);
    if (row.user_id !== user.id) throw createForbiddenError();
    if (row.status === 'Cancelled') return;
    if (row.status !== 'Pending' && row.status !== 'Confirmed') throw createCannotCancelError();
    const now = tx.clock.now();
    const late = Date.parse(row.starts_at) - now.getTime() < bookingLimits.lateCancelHours * hourMs;
    const changes = {
      status: 'Cancelled' as const,
      late_cancellation: late ? 1 : 0,
      updated_at: now.toISOString(),
      version,
    };
    if (!(await repo.updateIfAtVersion(tx.db, id, row.version, changes))) throw createChangedMeanwhileError();
    const changed = { ...row, ...changes };
    await repo.insertChange(tx.db, changeRow(id, version, now.toISOString(), user, row.status, 'Cancelled'));
    const [booking] = await withHistory(tx.db, [changed]);
    await tx.mail.enqueue(cancelledEmail(booking!, tx.config.publicUrl, tx.config.paymentEftDetails));
    for (const staff of await repo.listStaffOf(tx.db, row.module_category)) {
      await tx.mail.enqueue(cancelledForStaffEmail(booking!, staff, tx.config.publicUrl, 'student'));
    }
    notify(tx, row, version);
  });
  return readBooking(deps.db, id);
}

// ---------------------------------------------------------------------------------------------------------
// Reminders

/**
 * Queues the reminder of every confirmed session that starts within `reminderHours` and has not had one. Safe
 * to run in several processes at once: each reminder is claimed with a conditional update before it is queued.
 */
export async function sendDueReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await repo.findDueReminders(deps.db, {
    after: now.toISOString(),
    until: new Date(now.getTime() + bookingLimits.reminderHours * hourMs).toISOString(),
    limit: 100,
  });
  let queued = 0;
  for (const row of due) {
    const claimed = await withTransaction(deps, async (tx) => {
      if (!(await repo.claimReminder(tx.db, row.id, row.version, now.toISOString()))) return false;
      await tx.mail.enqueue(reminderEmail(toBooking(row, []), row.confirmed_slot!, tx.config.publicUrl));
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
    return { bookings: await withHistory(deps.db, await repo.listBookingsOf(deps.db, me.id)) };
  },

  /**
   * The user's future Pending and Confirmed bookings are cancelled (their tutors and the admins are told, so
   * nobody waits for a session that will not happen); on all their bookings the name, address and concepts are
   * scrubbed, and their name leaves every booking's history. Each booking touched gets a new version.
   */
  async eraseFor(tx, userId) {
    await repo.takeVersions(tx.db, 0);
    const now = tx.clock.now().toISOString();
    const touched = await repo.listBookingsTouchedBy(tx.db, userId);
    if (touched.length === 0) return;
    const first = await repo.takeVersions(tx.db, touched.length);
    const cancelled: repo.BookingRow[] = [];
    for (const [i, row] of touched.entries()) {
      const version = first + i;
      const cancel =
        row.user_id === userId && (row.status === 'Pending' || row.status === 'Confirmed') && row.starts_at > now;
      if (cancel) {
        await repo.updateIfAtVersion(tx.db, row.id, row.version, {
          status: 'Cancelled',
          late_cancellation: 0,
          updated_at: now,
          version,
        });
        await repo.insertChange(tx.db, changeRow(row.id, version, now, deletedUser, row.status, 'Cancelled'));
        cancelled.push({ ...row, status: 'Cancelled', version });
      } else {
        await repo.setVersion(tx.db, row.id, version);
      }
    }
    await repo.scrubStudent(tx.db, userId, bookingMessages.deletedUser, now);
    await repo.setNameInChanges(tx.db, userId, bookingMessages.deletedUser);
    for (const row of cancelled) {
      // Nothing of the student's, nor their id: this notice outlives their account (profile deletes the rest).
      const scrubbed = toBooking(
        { ...row, user_id: null, student_name: bookingMessages.deletedUser, student_email: '', concepts: '' },
        [],
      );
      for (const staff of await repo.listStaffOf(tx.db, row.module_category)) {
        await tx.mail.enqueue(cancelledForStaffEmail(scrubbed, staff, tx.config.publicUrl, 'account-deleted'));
      }
    }
    // The deleted user hears nothing more.
    publishTouched(
      tx,
      touched.map((row) => audienceOf(row.user_id === userId ? { ...row, user_id: null } : row)),
      touched,
      first + touched.length - 1,
    );
  },

  /**
   * Bookings show a person's current name (docs/decisions/0025): a rename reaches the student's bookings and
   * the history entries the user made (a tutor's confirmations), each booking with a new version, so every
   * device that holds one refreshes it and nobody's list shows two names for one person.
   */
  async renameFor(tx, userId, name) {
    await repo.takeVersions(tx.db, 0);
    const touched = await repo.listBookingsTouchedBy(tx.db, userId);
    if (touched.length === 0) return;
    const first = await repo.takeVersions(tx.db, touched.length);
    for (const [i, row] of touched.entries()) await repo.setVersion(tx.db, row.id, first + i);
    await repo.setStudentName(tx.db, userId, name, tx.clock.now().toISOString());
    await repo.setNameInChanges(tx.db, userId, name);
    publishTouched(tx, touched.map(audienceOf), touched, first + touched.length - 1);
  },
};

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
