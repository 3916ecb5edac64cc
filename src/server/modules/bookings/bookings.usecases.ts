import { writeNotices } from '../../notices/notify.ts';
import {
  cancelledNotices,
  confirmedNotices,
  reminderNotices,
  requestNotices,
  timeChangedNotices,
} from './bookings.notices.ts';
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import {
  bookingLimits,
  bookingTotalCents,
  latestBookableDate,
  leadTimeProblem,
  seriesSessionId,
  uncategorized,
  type Booking,
  type BookingChanges,
  type BookingTutor,
  type BookingPage,
  type bookingListQuerySchema,
  bookingMessages,
  type confirmBookingInputSchema,
  type createBookingInputSchema,
  type keepBookingTimeInputSchema,
  type moveBookingInputSchema,
  type rescheduleBookingInputSchema,
  type setBookingStatusInputSchema,
} from '../../../common/bookings.ts';
import { clashMessage, clashWith, dateAfter } from '../../../common/availability.ts';
import { positionInBody, type Position, type Stamp } from '../../../common/positions.ts';
import { formatSastSlot, sastInstant, sastTime } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Deps, type Uses } from '../../deps.ts';
import { createForbiddenError } from '../../http/errors.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import { isCategory, requireBookingStaff, requireManageable, requireVisible } from './bookings.access.ts';
import { datesAround } from './bookings.clash.ts';
import {
  cancelledEmail,
  cancelledForStaffEmail,
  completedEmail,
  confirmedEmail,
  moveRequestedEmail,
  newRequestEmail,
  timeChangedEmail,
  receiptEmail,
  reminderEmail,
} from './bookings.emails.ts';
import {
  createCannotCancelError,
  createCannotConfirmError,
  createCannotMoveError,
  createMoveInPastError,
  createNothingToKeepError,
  createTooLateToMoveError,
  createClashError,
  createNotATutorError,
  createNotStartedError,
  createTooFarError,
  createChangedMeanwhileError,
  createIdReusedError,
  createInvalidCursorError,
  createRateLimitedError,
  createSlotNotRequestedError,
  createTooSoonError,
  createSeatNotMovedError,
  createQuestionNotYoursError,
} from './bookings.errors.ts';
import { seatFollows } from './bookings.seats.ts';
import { referenceAlphabet } from '../../../common/statement-match.ts';
import { keptPage } from './bookings.kept-pages.ts';
import { packagesFor, redraw, settleDraws } from './bookings.package-draws.ts';
import {
  historyEntry,
  notify,
  readBooking,
  staffToTell,
  toBooking,
  toChange,
  updated,
  withHistory,
} from './bookings.records.ts';
import type {
  BookingChangeRecord,
  BookingListFilter,
  BookingRecord,
  BookingsRepository,
  BookingUpdate,
} from './bookings.storage.ts';

/**
 * Bookings (spec §3, §4, §6; DESIGN "Product decisions"). Who sees what: a student their own bookings, a tutor
 * their own and their categories', the admin all. A booking the caller may not see does not exist for them
 * (404); one they see but may not change is a 403. Every change is a transaction of one shape (0026): it
 * begins (`beginChanges`, SQL's bookings lock), reads all it needs, takes its versions (`takeStamps`), then
 * writes: the booking, its history entry, its e-mails; after the commit it tells the people concerned which
 * booking changed. Who may do what: bookings.access.ts; the shapes the API sends, the history entries and the
 * notices: bookings.records.ts; first pages kept: bookings.kept-pages.ts; the export and account deletion:
 * bookings.personal-data.ts.
 */

const hourMs = 3_600_000;

/** What a staff member's or student's change to one booking uses (`confirmBooking`, `setBookingStatus`). */
type BookingChangeDeps = Uses<
  'bookings' | 'accounts' | 'availability' | 'groups' | 'packages' | 'notices',
  'storage' | 'events' | 'clock' | 'mail' | 'config'
>;

// ---------------------------------------------------------------------------------------------------------
// Reading
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
  deps: Uses<'bookings'>,
  me: Me | undefined,
  query: ListQuery,
  readAt?: Position,
): Promise<BookingPage> {
  const user = requireUser(me);
  // A later page (`cursor`) is read once as the list is scrolled: only first pages are kept.
  if (readAt === undefined || query.cursor !== undefined) return readPage(deps, user, query);
  return keptPage(deps.repos.bookings, user, query, readAt, () => readPage(deps, user, query));
}

async function readPage(deps: Uses<'bookings'>, user: Me, query: ListQuery): Promise<BookingPage> {
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

/** The bookings' committed position, for `Synced-To` (http/synced-to.ts). */
export const readBookingsPosition = ({ repos }: Uses<'bookings'>) => repos.bookings.readPosition();

/** Every booking the caller may see that changed since `since`, in the order they changed. */
export async function listBookingChanges(
  deps: Uses<'bookings'>,
  me: Me | undefined,
  since: Position,
): Promise<BookingChanges> {
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
/** Unambiguous characters only (no 0/O, 1/I/L), so a reference survives being read aloud or typed into a bank's form. */
export const newPaymentReference = () =>
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
async function findRepeatedBooking(deps: Uses<'bookings'>, me: Me, input: CreateInput): Promise<Booking | undefined> {
  const row = await deps.repos.bookings.findById(input.id);
  if (!row) return undefined;
  const same =
    row.student.id === me.id &&
    row.moduleName.toLowerCase() === input.module.toLowerCase() &&
    row.date === input.date &&
    row.slots.join() === input.slots.join() &&
    row.hours === input.hours &&
    row.concepts === input.concepts &&
    (row.series?.count ?? 1) === (input.weeks ?? 1) &&
    (row.question?.id ?? undefined) === input.questionId;
  if (!same) throw createIdReusedError();
  return readBooking(deps.repos.bookings, row.id);
}

/**
 * Every requested time must be at least the configured lead time away (a past date is too); the refusal names
 * the times too soon and the earliest one accepted. And no further than a year ahead (a typo's year 9999).
 */
function requireBookableTime(
  deps: Pick<Deps, 'clock' | 'config'>,
  input: Pick<CreateInput, 'date' | 'slots'> & { weeks?: number | undefined },
) {
  const now = deps.clock.now();
  const problem = leadTimeProblem(input.date, input.slots, { now, leadHours: deps.config.bookingMinLeadHours });
  if (problem) throw createTooSoonError(problem.message, problem.field);
  const latest = latestBookableDate(now);
  // A weekly series' last session too.
  if (dateAfter(input.date, 7 * ((input.weeks ?? 1) - 1)) > latest) throw createTooFarError(latest);
}

/** The session's start as a time of day (SAST): what `startsAt` holds. */
const startTime = (row: BookingRecord) => sastTime(new Date(row.startsAt));

/**
 * A session confirmed (or moved) to `slot` on `date`: its start, and its reminder as already sent when the
 * session is within the reminder's window (the confirmation itself is the reminder).
 */
export function confirmedTimes(
  date: string,
  slot: string,
  now: Date,
): { startsAt: string; reminderSentAt: string | null } {
  const startsAt = sastInstant(date, slot);
  const soon = startsAt.getTime() - now.getTime() <= bookingLimits.reminderHours * hourMs;
  return { startsAt: startsAt.toISOString(), reminderSentAt: soon ? now.toISOString() : null };
}

export async function requireWithinRateLimit(tx: Uses<'bookings', 'clock'>, me: Me) {
  const since = new Date(tx.clock.now().getTime() - hourMs).toISOString();
  if ((await tx.repos.bookings.countRequestsSince(me.id, since)) >= bookingLimits.requestsPerHour)
    throw createRateLimitedError();
}

/** The question a request links (issue 39 §4): the student's own, still on the board; its title as it is now. */
async function requireOwnQuestion(tx: Uses<'qa'>, student: Me, questionId: string) {
  const question = await tx.repos.qa.findQuestion(questionId);
  if (!question || question.deletedAt !== null || question.userId !== student.id) throw createQuestionNotYoursError();
  return { id: question.id, title: question.title };
}

/**
 * A booking request (any signed-in user, for themself), exactly once per client id: `created` is false when it
 * was stored before. It keeps the module's name, category and rate as they are now; a module the catalogue
 * does not know is a custom subject, uncategorised, at the live session fee. The e-mails are queued with it.
 */
export async function createBooking(
  deps: Uses<
    'bookings' | 'catalogue' | 'accounts' | 'notices' | 'qa',
    'storage' | 'events' | 'clock' | 'mail' | 'config'
  >,
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
    const question = input.questionId ? await requireOwnQuestion(tx, student, input.questionId) : undefined;
    const priceCentsPerHour = module?.priceCents ?? bookingLimits.customRateCents;
    const moduleCategory = module?.category ?? uncategorized;
    // A weekly series (issue 36): a booking per week, each with its own reference, moved or cancelled alone.
    const weeks = input.weeks ?? 1;
    const references: string[] = [];
    while (references.length < weeks) {
      const reference = await uniquePaymentReference(bookings);
      if (!references.includes(reference)) references.push(reference);
    }
    const staff = await staffToTell(tx, moduleCategory);
    const stamps = await bookings.takeStamps(weeks);
    const now = tx.clock.now().toISOString();
    const records = stamps.map((stamp, index): BookingRecord => {
      const date = dateAfter(input.date, 7 * index);
      return {
        id: seriesSessionId(input.id, index),
        student: { id: student.id, name: student.name, email: student.email },
        moduleName: module?.name ?? input.module,
        moduleCategory,
        priceCentsPerHour,
        totalCents: bookingTotalCents(input.hours, priceCentsPerHour),
        date,
        slots: [...input.slots],
        confirmedSlot: null,
        startsAt: sastInstant(date, [...input.slots].sort()[0]!).toISOString(),
        hours: input.hours,
        concepts: input.concepts,
        status: 'Pending',
        lateCancellation: false,
        paymentReference: references[index]!,
        reminderSentAt: null,
        createdAt: now,
        updatedAt: now,
        version: stamp.version,
        // A confirmation names the tutor.
        tutor: null,
        ...(weeks > 1 ? { series: { id: input.id, index, count: weeks } } : {}),
        ...(question ? { question } : {}),
      };
    });
    const changes = records.map((record) => historyEntry(record.id, record.version, now, student, null, 'Pending'));
    for (const [index, record] of records.entries()) await bookings.insert(record, stamps[index]!);
    for (const change of changes) await bookings.addChange(change);
    const booking = toBooking(records[0]!, [toChange(changes[0]!)]);
    await tx.mail.enqueue(
      ...staff.map((person) => newRequestEmail(booking, person, tx.config.publicUrl)),
      receiptEmail(booking, tx.config.publicUrl),
    );
    await writeNotices(tx, requestNotices(booking, staff), student.id);
    notify(
      tx,
      records[0]!,
      stamps.at(-1)!.version,
      records.map((r) => r.id),
    );
    return booking;
  });
  if (created) return { booking: created, created: true };
  return { booking: (await findRepeatedBooking(deps, student, input))!, created: false };
}
/**
 * A change to a booking read in this transaction, as its last reads and its writes: reads the booking's
 * history, takes the change's version, then applies `change(version)`'s update only if the booking is still at
 * `atVersion` (else 409) and records its entry. The answer is the booking as changed, with the entry last.
 */
async function applyChange(
  tx: Uses<'bookings' | 'packages'>,
  row: BookingRecord,
  atVersion: number,
  change: (stamp: Stamp) => { update: BookingUpdate; entry: BookingChangeRecord },
): Promise<{ booking: Booking; version: number }> {
  const { bookings } = tx.repos;
  const [before] = await withHistory(bookings, [row]);
  const packages = await packagesFor(tx, [row]);
  const [stamp] = (await bookings.takeStamps(1, [row.version])) as [Stamp];
  const { update: asked, entry } = change(stamp);
  // The session's hours from a monthly package follow what the change made of it (bookings.package-draws.ts).
  const { changes, moved } = redraw([updated(row, asked)], packages);
  const update = { ...asked, ...changes.get(row.id) };
  if (!(await bookings.updateIfAtVersion(row.id, atVersion, update))) throw createChangedMeanwhileError();
  await bookings.addChange(entry);
  await settleDraws(tx, moved);
  const booking = toBooking(updated(row, update), [...before!.history, toChange(entry)]);
  return { booking, version: stamp.version };
}

// ---------------------------------------------------------------------------------------------------------
// The session's tutor, never booked twice (issue 36)

/** The minutes the tutor keeps free before and after each session (their availability; 0 if they set none). */
const tutorBufferMinutes = async (tx: Uses<'availability'>, tutorId: string) =>
  (await tx.repos.availability.find(tutorId))?.availability.bufferMinutes ?? 0;

/**
 * Who tutors a session being confirmed: a tutor who confirms it; else whom the admin names (`tutorId`, one of the
 * category's tutors, else 400); else the tutor it has; else the category's tutor if it has exactly one; else none.
 */
async function sessionTutor(
  tx: Uses<'accounts'>,
  staff: Me,
  row: BookingRecord,
  tutorId: string | undefined,
): Promise<BookingTutor | null> {
  if (staff.role === 'tutor') {
    if (tutorId !== undefined && tutorId !== staff.id) throw createForbiddenError();
    return { id: staff.id, name: staff.name };
  }
  if (tutorId === undefined && row.tutor) return row.tutor;
  const tutors = isCategory(row.moduleCategory)
    ? (await tx.repos.accounts.staffOf(row.moduleCategory)).filter((person) => person.role === 'tutor')
    : [];
  const chosen =
    tutorId === undefined ? (tutors.length === 1 ? tutors[0] : undefined) : tutors.find((t) => t.id === tutorId);
  if (tutorId !== undefined && !chosen) throw createNotATutorError();
  return chosen ? { id: chosen.id, name: chosen.name } : null;
}

/**
 * Refuses (409) a session of `tutor` at `slot` on the booking's date that overlaps another of their confirmed
 * sessions, the buffer kept free around each. In the change's transaction, before its writes: the sessions read
 * are held until the commit (`tutorSessionsOn`), so of two confirms that overlap, one commits and the other
 * reads its session here. The message names the clash, to the tutor as theirs, to the admin as the tutor's.
 */
export async function requireTutorFree(
  tx: Uses<'bookings' | 'availability' | 'groups'>,
  staff: Me,
  row: Pick<BookingRecord, 'id' | 'date' | 'hours' | 'group'>,
  slot: string,
  tutor: BookingTutor | null,
  date: string = row.date,
): Promise<void> {
  if (!tutor?.id) return;
  const bufferMinutes = await tutorBufferMinutes(tx, tutor.id);
  const dates = datesAround(date);
  const sessions = await tx.repos.bookings.tutorSessionsOn(tutor.id, dates);
  // A group session takes its tutor's time from when it is opened, before any seat is taken.
  const groups = (await tx.repos.groups.ofTutor(tutor.id)).filter(
    (group) => dates.includes(group.date) && group.id !== row.id && group.id !== row.group?.id,
  );
  const busy = [
    ...sessions
      // A group's seats are one session of its tutor's.
      .filter((session) => session.id !== row.id && !(row.group && session.group?.id === row.group.id))
      .map((session) => ({
        date: session.date,
        start: session.confirmedSlot ?? startTime(session),
        hours: session.hours,
      })),
    ...groups.map((group) => ({ date: group.date, start: group.start, hours: group.hours })),
  ];
  const candidate = { date, start: slot, hours: row.hours };
  const clash = clashWith(candidate, busy, bufferMinutes);
  if (!clash) return;
  const whose = tutor.id === staff.id ? 'your' : `${tutor.name}’s`;
  throw createClashError(`${clashMessage(candidate, clash, { whose, onDate: true })}.`);
}

/**
 * Staff confirm one of the three requested times: the slot and Confirmed are set together, and only if the
 * booking is still at the version the caller read (else 409). The same confirmation sent again is answered
 * with the booking as it is. The student gets the time, a calendar invitation and the payment details.
 */
export async function confirmBooking(
  deps: BookingChangeDeps,
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
    const sameTutor = input.tutorId === undefined || input.tutorId === row.tutor?.id;
    if (row.status === 'Confirmed' && row.confirmedSlot === input.slot && sameTutor) return;
    // A card out of date hears that first: what it showed may no longer hold.
    if (row.version !== input.version) throw createChangedMeanwhileError();
    // A cancelled session is not brought back by a confirmation sent from a card that was out of date.
    if (row.status === 'Cancelled' || row.status === 'Completed') throw createCannotConfirmError();
    const tutor = await sessionTutor(tx, staff, row, input.tutorId);
    if (input.series && row.series) return confirmSeries(tx, staff, row, input.slot, tutor);
    await requireTutorFree(tx, staff, row, input.slot, tutor);
    const now = tx.clock.now();
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: {
        status: 'Confirmed',
        confirmedSlot: input.slot,
        tutor,
        ...confirmedTimes(row.date, input.slot, now),
        lateCancellation: false,
        updatedAt: now.toISOString(),
        stamp,
      },
      entry: historyEntry(id, stamp.version, now.toISOString(), staff, row.status, 'Confirmed', input.slot),
    }));
    const mailArgs = {
      publicUrl: tx.config.publicUrl,
      eftDetails: tx.config.paymentEftDetails,
      now,
      // EmailJS carries no attachments (docs/email.md): its e-mails give the time in SAST and promise no invitation.
      withInvitation: !tx.config.emailJs,
    };
    // Confirmed before at another time: the student hears that the time moved, from what to what.
    const before = row.status === 'Confirmed' ? row.confirmedSlot : null;
    await tx.mail.enqueue(
      before ? timeChangedEmail(booking, before, input.slot, mailArgs) : confirmedEmail(booking, input.slot, mailArgs),
    );
    await writeNotices(
      tx,
      before ? timeChangedNotices(booking, input.slot) : confirmedNotices(booking, input.slot),
      staff.id,
    );
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * A weekly series confirmed at once (issue 36): `row` and every other pending session of its series that asked
 * for `slot`, each at its own date, with one tutor, each clear of the tutor's other sessions (409 names the first
 * clash, with its date). Every read comes before the writes (Firestore's transactions need it). The student gets
 * one e-mail whose invitation holds every session.
 */
async function confirmSeries(
  tx: Uses<'bookings' | 'availability' | 'groups' | 'packages' | 'notices', 'events' | 'clock' | 'mail' | 'config'>,
  staff: Me,
  row: BookingRecord,
  slot: string,
  tutor: BookingTutor | null,
): Promise<void> {
  const { bookings } = tx.repos;
  const members = (await bookings.findSeries(row.series!.id)).filter(
    (m) => m.id === row.id || (m.status === 'Pending' && m.slots.includes(slot) && m.date >= row.date),
  );
  for (const member of members) await requireTutorFree(tx, staff, member, slot, tutor, member.date);
  const before = await withHistory(bookings, members);
  const packages = await packagesFor(tx, members);
  const stamps = await bookings.takeStamps(
    members.length,
    members.map((m) => m.version),
  );
  const now = tx.clock.now();
  const asked = members.map((member, i): BookingUpdate => ({
    status: 'Confirmed',
    confirmedSlot: slot,
    tutor,
    ...confirmedTimes(member.date, slot, now),
    lateCancellation: false,
    updatedAt: now.toISOString(),
    stamp: stamps[i]!,
  }));
  // Each session draws from the student's package in date order, as long as it has hours.
  const { changes, moved } = redraw(
    members.map((member, i) => updated(member, asked[i]!)),
    packages,
  );
  const confirmed: Booking[] = [];
  for (const [i, member] of members.entries()) {
    const stamp = stamps[i]!;
    const update: BookingUpdate = { ...asked[i]!, ...changes.get(member.id) };
    if (!(await bookings.updateIfAtVersion(member.id, member.version, update))) throw createChangedMeanwhileError();
    const entry = historyEntry(member.id, stamp.version, now.toISOString(), staff, member.status, 'Confirmed', slot);
    await bookings.addChange(entry);
    confirmed.push(toBooking(updated(member, update), [...before[i]!.history, toChange(entry)]));
  }
  await settleDraws(tx, moved);
  const [first, ...rest] = confirmed;
  await tx.mail.enqueue(confirmedEmail(first!, slot, mailArgsOf(tx, now), rest));
  await writeNotices(tx, confirmedNotices(first!, slot), staff.id);
  notify(
    tx,
    row,
    stamps.at(-1)!.version,
    members.map((m) => m.id),
  );
}

/**
 * Staff set any of the four statuses, in any order (spec §4), if the booking is still at the version they
 * read; asking for the status it already has changes nothing. The student hears when it is Cancelled or
 * Completed.
 */
export async function setBookingStatus(
  deps: BookingChangeDeps,
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
    // Confirmed again (after Pending, say): the session takes its tutor's time again, if it is still free.
    const tutor =
      input.status === 'Confirmed' ? (row.tutor ?? (await sessionTutor(tx, staff, row, undefined))) : row.tutor;
    if (input.status === 'Confirmed' && row.confirmedSlot)
      await requireTutorFree(tx, staff, row, row.confirmedSlot, tutor);
    const seat = await seatFollows(tx, row, input.status);
    const now = tx.clock.now().toISOString();
    // A staff change is never a student's late cancellation, and takes back one recorded before.
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: { status: input.status, lateCancellation: false, updatedAt: now, tutor, stamp },
      entry: historyEntry(id, stamp.version, now, staff, row.status, input.status),
    }));
    await seat();
    if (input.status === 'Cancelled')
      await tx.mail.enqueue(cancelledEmail(booking, tx.config.publicUrl, tx.config.paymentEftDetails));
    if (input.status === 'Cancelled') await writeNotices(tx, cancelledNotices(booking, 'staff'), staff.id);
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
export async function cancelBooking(
  deps: Uses<
    'bookings' | 'accounts' | 'groups' | 'packages' | 'notices',
    'storage' | 'events' | 'clock' | 'mail' | 'config'
  >,
  me: Me | undefined,
  id: string,
): Promise<Booking> {
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
    const seat = await seatFollows(tx, row, 'Cancelled');
    const { booking, version } = await applyChange(tx, row, row.version, (stamp) => ({
      update: { status: 'Cancelled', lateCancellation: late, updatedAt: now.toISOString(), stamp },
      entry: historyEntry(id, stamp.version, now.toISOString(), user, row.status, 'Cancelled'),
    }));
    await seat();
    await tx.mail.enqueue(
      cancelledEmail(booking, tx.config.publicUrl, tx.config.paymentEftDetails),
      ...staff.map((person) => cancelledForStaffEmail(booking, person, tx.config.publicUrl, 'student')),
    );
    await writeNotices(tx, cancelledNotices(booking, 'student', staff), user.id);
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

// ---------------------------------------------------------------------------------------------------------
// Moving a session (issue 36): the student proposes three new times; staff confirm one of them, or keep the time
// it had; staff move a confirmed session themselves. The booking keeps its id and payment reference; each move
// is in its history with from where to where; the invitation sent after has the same UID and a higher SEQUENCE.

export const mailArgsOf = (tx: Pick<Deps, 'config'>, now: Date) => ({
  publicUrl: tx.config.publicUrl,
  eftDetails: tx.config.paymentEftDetails,
  now,
  // EmailJS carries no attachments (docs/email.md): its e-mails give the time in SAST and promise no invitation.
  withInvitation: !tx.config.emailJs,
});

const timesOf = (row: Pick<BookingRecord, 'date' | 'confirmedSlot' | 'slots'>) => ({
  date: row.date,
  slot: row.confirmedSlot,
  slots: [...row.slots],
});

/** The session's new start: the confirmed slot, else the earliest of the slots. */
const startOf = (date: string, slots: readonly string[], slot: string | null) =>
  sastInstant(date, slot ?? [...slots].sort()[0]!);

/**
 * The student moves their pending or confirmed session to three new times, up to `bookingRescheduleMinHours`
 * before it starts (later: 409, and cancelling is still open to them), if it is still as they saw it
 * (`version`, else 409: a tutor confirmed it meanwhile, say). The new times follow a request's rules (lead
 * time, a year ahead). The session becomes pending at the new date, its old time free; the category's staff are
 * told, and may keep a confirmed session's old time instead. The same move sent again changes nothing.
 */
export async function rescheduleBooking(
  deps: BookingChangeDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof rescheduleBookingInputSchema>,
): Promise<Booking> {
  const student = requireUser(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, student, id);
    if (row.student.id !== student.id) throw createForbiddenError();
    if (row.status === 'Pending' && row.date === input.date && row.slots.join() === input.slots.join()) return;
    if (row.version !== input.version) throw createChangedMeanwhileError();
    if (row.status !== 'Pending' && row.status !== 'Confirmed') throw createCannotMoveError();
    if (row.group) throw createSeatNotMovedError();
    const now = tx.clock.now();
    const cutOff = tx.config.bookingRescheduleMinHours;
    if (Date.parse(row.startsAt) - now.getTime() < cutOff * hourMs)
      throw createTooLateToMoveError(cutOff, formatSastSlot(row.date, startTime(row)));
    requireBookableTime(tx, input);
    const staff = await staffToTell(tx, row.moduleCategory);
    const to = { date: input.date, slot: null, slots: [...input.slots] };
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: {
        status: 'Pending',
        date: input.date,
        slots: [...input.slots],
        confirmedSlot: null,
        startsAt: startOf(input.date, input.slots, null).toISOString(),
        reminderSentAt: null,
        lateCancellation: false,
        updatedAt: now.toISOString(),
        stamp,
      },
      entry: {
        ...historyEntry(id, stamp.version, now.toISOString(), student, row.status, 'Pending'),
        move: { from: timesOf(row), to },
      },
    }));
    await tx.mail.enqueue(
      ...staff.map((person) => moveRequestedEmail(booking, timesOf(row), person, tx.config.publicUrl)),
    );
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * Staff move a confirmed session to a new date and time (still to come, within a year), its tutor free then
 * (409 names the clash), if it is as they saw it. The student gets the new time and the updated invitation.
 */
export async function moveBooking(
  deps: BookingChangeDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof moveBookingInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (row.status === 'Confirmed' && row.date === input.date && row.confirmedSlot === input.slot) return;
    if (row.version !== input.version) throw createChangedMeanwhileError();
    if (row.status !== 'Confirmed') throw createCannotMoveError(bookingMessages.staffMoveConfirmedOnly);
    if (row.group) throw createSeatNotMovedError();
    const now = tx.clock.now();
    const startsAt = sastInstant(input.date, input.slot);
    if (startsAt.getTime() <= now.getTime()) throw createMoveInPastError();
    const latest = latestBookableDate(now);
    if (input.date > latest) throw createTooFarError(latest);
    await requireTutorFree(tx, staff, row, input.slot, row.tutor, input.date);
    // The requested times were for the old date: the new time stands for them.
    const slots = input.date === row.date ? [...row.slots] : [input.slot, input.slot, input.slot];
    const to = { date: input.date, slot: input.slot, slots };
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: {
        date: input.date,
        slots,
        confirmedSlot: input.slot,
        ...confirmedTimes(input.date, input.slot, now),
        updatedAt: now.toISOString(),
        stamp,
      },
      entry: {
        ...historyEntry(id, stamp.version, now.toISOString(), staff, 'Confirmed', 'Confirmed', input.slot),
        move: { from: timesOf(row), to },
      },
    }));
    const from = { date: row.date, slot: row.confirmedSlot ?? startTime(row) };
    await tx.mail.enqueue(timeChangedEmail(booking, from, input.slot, mailArgsOf(tx, now)));
    await writeNotices(tx, timeChangedNotices(booking, input.slot), staff.id);
    notify(tx, row, version);
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * Staff keep the time a session had before its student asked to move it: the last change must be that move,
 * from a confirmed time, and the booking as they saw it. The session is confirmed at its old date and time again
 * (its tutor free then), with its old requested times; the student gets the confirmation and invitation.
 */
export async function keepBookingTime(
  deps: BookingChangeDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof keepBookingTimeInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const [current] = await withHistory(tx.repos.bookings, [row]);
    // The last change of the session itself: money recorded since (issue 37) does not hide the student's ask.
    const last = current!.history.findLast((change) => !change.payment);
    const old = last?.move?.from;
    if (row.status !== 'Pending' || !old?.slot || last?.by.id !== row.student.id) throw createNothingToKeepError();
    const tutor = row.tutor ?? (await sessionTutor(tx, staff, row, undefined));
    await requireTutorFree(tx, staff, row, old.slot, tutor, old.date);
    const now = tx.clock.now();
    const slot = old.slot;
    const { booking, version } = await applyChange(tx, row, input.version, (stamp) => ({
      update: {
        status: 'Confirmed',
        date: old.date,
        slots: [...old.slots],
        confirmedSlot: slot,
        tutor,
        ...confirmedTimes(old.date, slot, now),
        updatedAt: now.toISOString(),
        stamp,
      },
      entry: {
        ...historyEntry(id, stamp.version, now.toISOString(), staff, 'Pending', 'Confirmed', slot),
        move: { from: timesOf(row), to: { date: old.date, slot, slots: [...old.slots] } },
      },
    }));
    await tx.mail.enqueue(confirmedEmail(booking, old.slot, mailArgsOf(tx, now)));
    await writeNotices(tx, timeChangedNotices(booking, old.slot), staff.id);
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
export async function sendDueReminders(
  deps: Uses<'bookings' | 'notices', 'storage' | 'events' | 'clock' | 'mail' | 'config'>,
): Promise<number> {
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
      await writeNotices(tx, reminderNotices(toBooking(row, [])));
      return true;
    });
    if (claimed) queued++;
  }
  return queued;
}
