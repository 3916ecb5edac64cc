/**
 * South African Standard Time: every session time is typed, stored and shown in SAST. Africa/Johannesburg has
 * kept UTC+02:00 all year since 1944, so a date and a time of day name one instant, and an instant's SAST date
 * and time are its UTC ones two hours on: the text is right wherever the device is. Formatted here rather than
 * with Intl, whose first use on a page loads the browser's locale data (20–90 ms on a fast machine, several
 * times that on a cheap phone); the texts are those of Intl's `en-ZA`, which the tests check them against.
 */
export const sastZone = 'Africa/Johannesburg';
const sastOffset = '+02:00';

/** `YYYY-MM-DD`, a date that exists on the calendar. */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

/** `HH:MM` on the 24-hour clock. */
export const isTimeOfDay = (time: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(time);

/** The instant a session starting at `time` on `date` (both SAST) begins. */
export const sastInstant = (date: string, time: string) => new Date(`${date}T${time}:00${sastOffset}`);

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The instant's date and time on a clock at UTC+02:00, read with the UTC getters. */
const onSastClock = (instant: Date) => new Date(instant.getTime() + 2 * 60 * 60 * 1000);

/** Today's date in SAST, as `YYYY-MM-DD` (what a date input's `min` takes). */
export function sastDate(now: Date): string {
  const clock = onSastClock(now);
  return `${clock.getUTCFullYear()}-${pad(clock.getUTCMonth() + 1)}-${pad(clock.getUTCDate())}`;
}

/** The instant's time of day in SAST, `HH:MM` (seconds dropped). */
export function sastTime(instant: Date): string {
  const clock = onSastClock(instant);
  return `${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())}`;
}

/** "05 Mar 2026" ("Sept" for September, as en-ZA has it): the day, month and year on the SAST clock. */
const dayMonthYear = (clock: Date) =>
  `${pad(clock.getUTCDate())} ${months[clock.getUTCMonth()]} ${clock.getUTCFullYear()}`;

/** "Tue, 24 Nov 2026" for a `YYYY-MM-DD` date. */
export function formatSastDate(date: string): string {
  const clock = onSastClock(sastInstant(date, '12:00'));
  return `${weekdays[clock.getUTCDay()]}, ${dayMonthYear(clock)}`;
}

/** "05 Mar 2026, 14:05 SAST": when something happened (an ISO instant), in South African time. */
export function formatSastDateTime(iso: string): string {
  const clock = onSastClock(new Date(iso));
  return `${dayMonthYear(clock)}, ${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())} SAST`;
}

/** "Tue, 24 Nov 2026, 14:00 SAST": a session's time as every page and e-mail shows it. */
export const formatSastSlot = (date: string, time: string) => `${formatSastDate(date)}, ${time} SAST`;

/**
 * "Tue, 08 Dec 2026, 14:00–15:00 SAST": a session of `hours` from `time` on `date`, where a message has room for
 * one line (a WhatsApp notice, a shared confirmation). An end past midnight is the next day's time on the clock.
 */
export function formatSastSession(date: string, time: string, hours: number): string {
  const end = sastTime(new Date(sastInstant(date, time).getTime() + hours * 60 * 60 * 1000));
  return `${formatSastDate(date)}, ${time}–${end} SAST`;
}
