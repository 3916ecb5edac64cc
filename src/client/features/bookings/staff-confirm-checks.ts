import {
  clashMessage,
  clashWith,
  isWithinAvailability,
  type Availability,
  type BusySession,
} from '../../../common/availability.ts';
import type { Booking } from '../../../common/bookings.ts';
import { formatSastDate } from '../../../common/sast.ts';

/**
 * What a staff card says before a time is confirmed (issue 36): whether it clashes with another session of the
 * tutor, and which requested times lie outside working hours. Worked out on the device from the bookings and the
 * category's tutors it holds, so offline too; the server checks again when the time is confirmed.
 */

/** A session a booking holds: whose it is, which booking, and whether it is confirmed (only then is it busy). */
export interface TutorSession extends BusySession {
  tutorId: string;
  bookingId: string;
  confirmed: boolean;
}

/** A tutor's confirmed session as the category's times list it: whose, when, but not which booking. */
export interface ListedSession extends BusySession {
  tutorId: string;
}

/** The sessions of `bookings` that have a tutor and a confirmed time (a cancelled one keeps them). */
export function tutorSessions(bookings: readonly Booking[]): TutorSession[] {
  return bookings.flatMap((b) =>
    b.confirmedSlot && b.tutor?.id
      ? [
          {
            tutorId: b.tutor.id,
            bookingId: b.id,
            date: b.date,
            start: b.confirmedSlot,
            hours: b.hours,
            confirmed: b.status === 'Confirmed',
          },
        ]
      : [],
  );
}

/**
 * The sessions of `tutorId` that a time of `booking` must keep clear of: the confirmed ones of the bookings the
 * device holds, this one left out, and those the category's times list (`listed`) that no held booking accounts
 * for: a session the device does not hold (beyond its first page of bookings, in another category). A listed
 * session a held booking does account for is read from the booking, this one included: it may be newer.
 */
export function busyFor(
  tutorId: string,
  booking: Booking,
  held: readonly TutorSession[],
  listed: readonly ListedSession[],
): BusySession[] {
  const own = held.filter((s) => s.tutorId === tutorId);
  const accounted = new Set(own.map((s) => `${s.date} ${s.start}`));
  return [
    ...own.filter((s) => s.confirmed && s.bookingId !== booking.id),
    ...listed.filter((s) => s.tutorId === tutorId && !accounted.has(`${s.date} ${s.start}`)),
  ];
}

/** The tutor a time would be confirmed for, and how a message names them ("your", "Musa Stats’s"). */
export interface SessionTutor {
  id: string;
  whose: string;
  /** The minutes they keep free around each session (their availability; 0 if unknown). */
  bufferMinutes: number;
}

export interface SlotClash {
  /** "14:00 overlaps your 13:30 session." */
  message: string;
  /** What the time's option says: "overlaps 13:30", "too close to 13:30". */
  note: string;
}

/** The clash of `slot` on the booking's date with one of `busy` (the tutor's other sessions: `busyFor`), or undefined. */
export function slotClash(
  booking: Booking,
  slot: string,
  tutor: SessionTutor,
  busy: readonly BusySession[],
): SlotClash | undefined {
  const candidate = { date: booking.date, start: slot, hours: booking.hours };
  const clash = clashWith(candidate, busy, tutor.bufferMinutes);
  if (!clash) return undefined;
  // Without the buffer it still clashes: the sessions themselves overlap.
  const overlaps = clashWith(candidate, [clash], 0) !== undefined;
  const day = clash.date === booking.date ? '' : ` on ${formatSastDate(clash.date)}`;
  return {
    message: `${clashMessage(candidate, clash, { whose: tutor.whose })}.`,
    note: `${overlaps ? 'overlaps' : 'too close to'} ${clash.start}${day}`,
  };
}

/** A tutor who set no weekly hours says nothing about which times suit them. */
const hasHours = (availability: Availability) => availability.weekly.some((day) => day.length > 0);

/**
 * The requested times that lie outside working hours: inside none of `availabilities` that has hours set (the
 * viewing tutor's own, or every tutor of the category for the admin). None when nobody has set hours.
 */
export function outsideHours(booking: Booking, availabilities: readonly Availability[]): string[] {
  const withHours = availabilities.filter(hasHours);
  if (withHours.length === 0) return [];
  return booking.slots.filter(
    (slot) => !withHours.some((a) => isWithinAvailability(a, booking.date, slot, booking.hours)),
  );
}

/** "18:00 is outside your working hours.", "09:00 and 18:00 are outside the tutors’ working hours." */
export function outsideHoursText(slots: readonly string[], whose: string): string {
  const list = slots.length === 1 ? slots[0]! : `${slots.slice(0, -1).join(', ')} and ${slots.at(-1)!}`;
  return `${list} ${slots.length === 1 ? 'is' : 'are'} outside ${whose} working hours.`;
}

/**
 * A requested time's option: "14:00 SAST (overlaps 13:30)", "18:00 SAST (outside hours)", or "10:00 SAST (free)"
 * once a tutor is known and nothing is in the way; without a tutor, only the time.
 */
export function slotOption(slot: string, clash: SlotClash | undefined, outside: boolean, tutorKnown: boolean): string {
  const notes = [clash?.note, outside ? 'outside hours' : undefined].filter(Boolean);
  const suffix = notes.length > 0 ? ` (${notes.join(', ')})` : tutorKnown ? ' (free)' : '';
  return `${slot} SAST${suffix}`;
}

/** The admin's first choice of tutor: the booking's, else the category's only one, else none (''). */
export function defaultTutorId(booking: Booking, tutors: readonly { tutorId: string }[]): string {
  if (booking.tutor?.id) return booking.tutor.id;
  return tutors.length === 1 ? tutors[0]!.tutorId : '';
}
