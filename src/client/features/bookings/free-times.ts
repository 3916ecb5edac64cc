import { freeTimes, type FreeDate, type TutorTime } from '../../../common/availability.ts';
import { freeTimesDays } from '../../../common/availability-api.ts';
import { bookingLimits } from '../../../common/bookings.ts';
import { sastDate } from '../../../common/sast.ts';
import type { BookingFormValues } from './booking-rules.ts';
import type { CategoryTimesRow } from './free-times.sync.ts';

type Slots = BookingFormValues['slots'];

/** The hours the form says, or the default while what is typed is not a length a session can have. */
export function sessionHours(typed: string): number {
  const hours = Number(typed);
  return Number.isInteger(hours) && hours >= bookingLimits.hoursMin && hours <= bookingLimits.hoursMax
    ? hours
    : bookingLimits.hoursDefault;
}

/** Each tutor of the row with their own busy times. */
export const tutorTimesOf = (row: CategoryTimesRow): TutorTime[] =>
  row.tutors.map((tutor) => ({
    availability: tutor.availability,
    busy: row.busy.filter((session) => session.tutorId === tutor.tutorId),
  }));

/** Whether any tutor of the row has set working hours: without any, there are no free times to offer. */
export const anyHoursSet = (row: CategoryTimesRow) =>
  row.tutors.some((tutor) => tutor.availability.weekly.some((ranges) => ranges.length > 0));

/**
 * The category's free starts from today for the free times' weeks, as far as the row's busy times reach: a
 * later date would be offered times whose sessions the device does not know of.
 */
export function categoryFreeDates(
  row: CategoryTimesRow,
  { hours, now, leadHours }: { hours: number; now: Date; leadHours: number },
): FreeDate[] {
  const from = sastDate(now);
  const dates = freeTimes({ tutors: tutorTimesOf(row), from, days: freeTimesDays, hours, now, leadHours });
  // The busy times end on `to`, the day after the last date they cover fully.
  return dates.filter((d) => d.date < row.to);
}

/**
 * A free time pressed: taken out of the slots when it is in them, else put in the first empty one. With three
 * chosen already nothing changes (the student unpicks one first).
 */
export function toggleSlot(slots: Slots, time: string): Slots {
  const at = slots.indexOf(time);
  if (at >= 0) return slots.map((s, i) => (i === at ? '' : s)) as Slots;
  const empty = slots.indexOf('');
  if (empty < 0) return slots;
  return slots.map((s, i) => (i === empty ? time : s)) as Slots;
}
