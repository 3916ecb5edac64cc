/**
 * South African Standard Time: every session time is typed, stored and shown in SAST. Africa/Johannesburg has
 * kept UTC+02:00 all year since 1944, so a date and a time of day name one instant; showing an instant goes
 * through Intl with the zone's name, so the text is right wherever the device is.
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

/** Today's date in SAST, as `YYYY-MM-DD` (what a date input's `min` takes). */
export function sastDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: sastZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** "Tue, 24 Nov 2026" for a `YYYY-MM-DD` date. */
export function formatSastDate(date: string): string {
  return new Intl.DateTimeFormat('en-ZA', {
    timeZone: sastZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(sastInstant(date, '12:00'));
}

/** "Tue, 24 Nov 2026, 14:00 SAST": a session's time as every page and e-mail shows it. */
export const formatSastSlot = (date: string, time: string) => `${formatSastDate(date)}, ${time} SAST`;
