import { writeNotices } from '../../notices/notify.ts';
import { confirmedNotices } from './bookings.notices.ts';
import type { z } from 'zod';
import { latestBookableDate, type Booking, type BookingTutor } from '../../../common/bookings.ts';
import type {
  GroupSession,
  groupListQuerySchema,
  openGroupInputSchema,
  takeSeatInputSchema,
} from '../../../common/groups.ts';
import { sastDate, sastInstant } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createForbiddenError } from '../../http/errors.ts';
import { isCategory, requireBookingStaff } from './bookings.access.ts';
import { confirmedEmail } from './bookings.emails.ts';
import {
  createAlreadySeatedError,
  createGroupFullError,
  createGroupIdReusedError,
  createGroupNotFoundError,
  createGroupStartedError,
  createIdReusedError,
  createMoveInPastError,
  createNotATutorError,
  createNotOfCategoryError,
  createTooFarError,
} from './bookings.errors.ts';
import { historyEntry, notify, readBooking, toBooking, toChange } from './bookings.records.ts';
import type { BookingRecord } from './bookings.storage.ts';
import {
  confirmedTimes,
  mailArgsOf,
  requireTutorFree,
  requireWithinRateLimit,
  uniquePaymentReference,
} from './bookings.usecases.ts';
import type { GroupSessionRecord } from './groups.storage.ts';

/**
 * Group sessions (issue 36, "group sessions offered"): staff open one for a module; a student takes a seat and has
 * a confirmed booking of their own, with its payment reference, e-mail and invitation, naming the group. The
 * seats taken are kept on the group and changed in the bookings' change transaction with the seat's booking
 * (groups.storage.ts says how each engine keeps the last seat from being taken twice). Cancelling a seat gives it
 * back (bookings.seats.ts); a seat is not moved on its own (bookings.usecases.ts refuses it).
 */

const toGroupSession = (group: GroupSessionRecord): GroupSession => ({
  id: group.id,
  moduleName: group.moduleName,
  moduleCategory: group.moduleCategory,
  date: group.date,
  start: group.start,
  hours: group.hours,
  seats: group.seats,
  taken: group.taken.length,
  priceCents: group.priceCents,
  tutorName: group.tutor.name,
});

/** The groups still to start, soonest first: of a module (its name, any case), of a category, or all. */
export async function listGroupSessions(
  deps: Uses<'groups', 'clock'>,
  query: z.output<typeof groupListQuerySchema>,
): Promise<{ groups: GroupSession[] }> {
  const now = deps.clock.now();
  const groups = await deps.repos.groups.listFrom(sastDate(now));
  const module = query.module?.toLowerCase();
  return {
    groups: groups
      .filter(
        (group) =>
          sastInstant(group.date, group.start).getTime() > now.getTime() &&
          (module === undefined || group.moduleName.toLowerCase() === module) &&
          (query.category === undefined || group.moduleCategory === query.category),
      )
      .map(toGroupSession),
  };
}

/**
 * Who runs a group: the tutor who opens it (a tutor of the module's category); for the admin, the tutor they
 * name, else the category's only tutor (400 when it has several or none).
 */
async function groupTutor(
  tx: Uses<'accounts'>,
  staff: Me,
  category: GroupSessionRecord['moduleCategory'],
  tutorId: string | undefined,
): Promise<BookingTutor> {
  if (staff.role === 'tutor') {
    if (!isCategory(category) || !staff.categories.includes(category)) throw createNotOfCategoryError();
    if (tutorId !== undefined && tutorId !== staff.id) throw createForbiddenError();
    return { id: staff.id, name: staff.name };
  }
  const tutors = isCategory(category)
    ? (await tx.repos.accounts.staffOf(category)).filter((person) => person.role === 'tutor')
    : [];
  const chosen =
    tutorId === undefined ? (tutors.length === 1 ? tutors[0] : undefined) : tutors.find((t) => t.id === tutorId);
  if (!chosen) throw createNotATutorError();
  return { id: chosen.id, name: chosen.name };
}

/**
 * Staff open a group session for a catalogue module, at a time still to come (within a year) when its tutor is
 * free (409 names the clash, as a confirmation's does). The same request sent again gets the group as stored.
 */
export async function openGroupSession(
  deps: Uses<'bookings' | 'groups' | 'catalogue' | 'accounts' | 'availability', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  input: z.output<typeof openGroupInputSchema>,
): Promise<{ group: GroupSession; created: boolean }> {
  const staff = requireBookingStaff(me);
  return withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const stored = await tx.repos.groups.find(input.id);
    if (stored) {
      const same =
        stored.moduleName.toLowerCase() === input.module.toLowerCase() &&
        stored.date === input.date &&
        stored.start === input.start &&
        stored.seats === input.seats;
      if (!same) throw createGroupIdReusedError();
      return { group: toGroupSession(stored), created: false };
    }
    const module = await tx.repos.catalogue.findByName(input.module);
    if (!module) throw createNotOfCategoryError();
    const tutor = await groupTutor(tx, staff, module.category, input.tutorId);
    const now = tx.clock.now();
    if (sastInstant(input.date, input.start).getTime() <= now.getTime()) throw createMoveInPastError();
    const latest = latestBookableDate(now);
    if (input.date > latest) throw createTooFarError(latest);
    await requireTutorFree(tx, staff, { id: input.id, date: input.date, hours: input.hours }, input.start, tutor);
    const group: GroupSessionRecord = {
      id: input.id,
      moduleName: module.name,
      moduleCategory: module.category,
      date: input.date,
      start: input.start,
      hours: input.hours,
      seats: input.seats,
      priceCents: input.priceCents,
      tutor,
      taken: [],
      createdAt: now.toISOString(),
    };
    await tx.repos.groups.insert(group);
    return { group: toGroupSession(group), created: true };
  });
}

/**
 * A signed-in user takes a seat for themself, exactly once per client id: 409 when the group is full, has
 * started, or they have a seat in it already. The seat is a confirmed booking of the group's module, time and
 * tutor at the group's price, with its own payment reference; the student gets the confirmation, payment
 * details and invitation at once.
 */
export async function takeSeat(
  deps: Uses<'bookings' | 'groups' | 'accounts' | 'notices', 'storage' | 'events' | 'clock' | 'mail' | 'config'>,
  me: Me | undefined,
  groupId: string,
  input: z.output<typeof takeSeatInputSchema>,
): Promise<{ booking: Booking; created: boolean }> {
  const student = requireUser(me);
  const created = await withTransaction(deps, async (tx): Promise<Booking | undefined> => {
    const { bookings, groups } = tx.repos;
    await bookings.beginChanges();
    if (await bookings.findById(input.id)) return undefined;
    const group = await groups.find(groupId);
    if (!group) throw createGroupNotFoundError();
    const now = tx.clock.now();
    if (sastInstant(group.date, group.start).getTime() <= now.getTime()) throw createGroupStartedError();
    if (group.tutor.id === student.id) throw createForbiddenError();
    if (group.taken.some((seat) => seat.userId === student.id)) throw createAlreadySeatedError();
    if (group.taken.length >= group.seats) throw createGroupFullError();
    await requireWithinRateLimit(tx, student);
    const reference = await uniquePaymentReference(bookings);
    const [stamp] = await bookings.takeStamps(1);
    const at = now.toISOString();
    const record: BookingRecord = {
      id: input.id,
      student: { id: student.id, name: student.name, email: student.email },
      moduleName: group.moduleName,
      moduleCategory: group.moduleCategory,
      priceCentsPerHour: Math.round(group.priceCents / group.hours),
      totalCents: group.priceCents,
      date: group.date,
      // A seat was never a request of three times: the group's time stands for them, as a staff move's does.
      slots: [group.start, group.start, group.start],
      confirmedSlot: group.start,
      ...confirmedTimes(group.date, group.start, now),
      hours: group.hours,
      concepts: input.concepts ?? '',
      status: 'Confirmed',
      lateCancellation: false,
      paymentReference: reference,
      createdAt: at,
      updatedAt: at,
      version: stamp!.version,
      tutor: group.tutor,
      group: { id: group.id },
    };
    const change = historyEntry(record.id, stamp!.version, at, student, null, 'Confirmed', group.start);
    await bookings.insert(record, stamp!);
    await bookings.addChange(change);
    await groups.setTaken(group.id, [...group.taken, { bookingId: record.id, userId: student.id }]);
    const booking = toBooking(record, [toChange(change)]);
    await tx.mail.enqueue(confirmedEmail(booking, group.start, mailArgsOf(tx, now)));
    await writeNotices(tx, confirmedNotices(booking, group.start), student.id);
    notify(tx, record, stamp!.version);
    return booking;
  });
  if (created) return { booking: created, created: true };
  const stored = await readBooking(deps.repos.bookings, input.id);
  if (stored.student.id !== student.id || stored.group?.id !== groupId) throw createIdReusedError();
  return { booking: stored, created: false };
}
