import { dateAfter } from '../../../common/availability.ts';
import type { Booking } from '../../../common/bookings.ts';
import { byCodeUnits } from '../../../common/locale.ts';

/** One day of a tutor's week: their confirmed sessions and the requests waiting in their subjects, by time. */
export interface WeekDay {
  date: string;
  sessions: Booking[];
  requests: Booking[];
}

/** "15:30": when a session that starts at `start` and lasts `hours` ends (past midnight, the next day's time). */
export function sessionEnd(start: string, hours: number): string {
  const minutes = (Number(start.slice(0, 2)) * 60 + Number(start.slice(3, 5)) + hours * 60) % (24 * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const earliestSlot = (b: Booking) => b.confirmedSlot ?? [...b.slots].sort()[0] ?? '';

/**
 * The tutor's `days` days from `today` (issue 36, "a tutor's week at a glance"): on each, the confirmed
 * sessions that are theirs (or whose tutor was never recorded: those confirmed before the app kept one) and
 * the requests waiting for a time, each by its earliest time. Their own bookings as a student are not theirs to
 * tutor, and are left out.
 */
export function tutorWeek(
  bookings: readonly Booking[],
  { tutorId, today, days = 7 }: { tutorId: string; today: string; days?: number },
): WeekDay[] {
  const week = Array.from({ length: days }, (_, i): WeekDay => ({
    date: dateAfter(today, i),
    sessions: [],
    requests: [],
  }));
  const byDate = new Map(week.map((day) => [day.date, day]));
  for (const booking of bookings) {
    const day = byDate.get(booking.date);
    if (!day || booking.student.id === tutorId) continue;
    if (booking.status === 'Confirmed' && (!booking.tutor || booking.tutor.id === tutorId)) day.sessions.push(booking);
    else if (booking.status === 'Pending') day.requests.push(booking);
  }
  const byTime = (a: Booking, b: Booking) => byCodeUnits(earliestSlot(a), earliestSlot(b)) || byCodeUnits(a.id, b.id);
  for (const day of week) {
    day.sessions.sort(byTime);
    day.requests.sort(byTime);
  }
  return week;
}
