import { formatSastDate, isCalendarDate, isTimeOfDay } from './sast.ts';
import { z } from './zod.ts';

/**
 * A tutor's availability (issue 36): weekly working hours in SAST, dates off, and a buffer kept free around each
 * confirmed session. The free start times a booking page offers are worked out from it here, by pure functions
 * the server answers with and the client runs offline on what it last synced (DESIGN "Availability and
 * clashes"). SAST has no daylight saving (sast.ts), so a date and a time of day name one instant.
 */

/** Monday first, as a South African week is read. `weekly[0]` is Monday's ranges, `weekly[6]` Sunday's. */
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A range of a day, SAST: `start` before `end`, both `HH:MM`; `end` may be `24:00` (the day's end). */
export interface TimeRange {
  start: string;
  end: string;
}

export interface Availability {
  /** Seven lists of ranges, Monday first; each list in order, its ranges not overlapping. */
  weekly: TimeRange[][];
  /** Dates with no working hours at all (leave, exams), `YYYY-MM-DD`, SAST, in order, each once. */
  daysOff: string[];
  /** Minutes kept free before and after each confirmed session of the tutor. */
  bufferMinutes: number;
}

/** A tutor who has set nothing offers no free times: students then type their times, as before. */
export const noAvailability: Availability = {
  weekly: weekdayNames.map(() => []),
  daysOff: [],
  bufferMinutes: 0,
};

/** A confirmed session of a tutor, as it takes their time: its date and start (SAST) and its length. */
export interface BusySession {
  date: string;
  start: string;
  hours: number;
}

export const availabilityLimits = {
  /** Ranges in one weekday: a split shift or two, with room to spare. */
  rangesPerDay: 6,
  /** Dates off kept at once: a year of them. */
  daysOffMax: 366,
  bufferMaxMinutes: 120,
  /** Free start times fall on the half hour: 09:00, 09:30, … */
  stepMinutes: 30,
  /** How far ahead the booking page offers free times. */
  weeksAhead: 4,
} as const;

export const availabilityMessages = {
  rangeInvalid: 'Each range needs a start and an end time, such as 09:00 to 13:00.',
  rangeOrder: 'A range must end after it starts.',
  rangesOverlap: 'The ranges of one day must not overlap.',
  tooManyRanges: `A day can have at most ${availabilityLimits.rangesPerDay} ranges.`,
  weekInvalid: 'Give the ranges of all seven days, Monday first.',
  dayOffInvalid: 'Each date off must be a date, such as 2026-12-24.',
  tooManyDaysOff: `At most ${availabilityLimits.daysOffMax} dates off can be kept.`,
  bufferInvalid: `The buffer must be a whole number of minutes from 0 to ${availabilityLimits.bufferMaxMinutes}.`,
  /** A time a tutor confirms against one of their sessions (`session`: "your 13:30 session", dated if need be). */
  overlaps: (time: string, session: string) => `${time} overlaps ${session}`,
  tooClose: (time: string, session: string) =>
    `${time} is too close to ${session}, within the buffer kept between sessions`,
} as const;

/** `HH:MM` as minutes since midnight; `24:00` is 1440. */
export const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const isRangeEnd = (time: string) => time === '24:00' || isTimeOfDay(time);

const rangeSchema = z
  .strictObject({
    start: z.string(availabilityMessages.rangeInvalid).refine(isTimeOfDay, availabilityMessages.rangeInvalid),
    end: z.string(availabilityMessages.rangeInvalid).refine(isRangeEnd, availabilityMessages.rangeInvalid),
  })
  .refine((range) => minutesOfDay(range.start) < minutesOfDay(range.end), availabilityMessages.rangeOrder);

const dayRangesSchema = z
  .array(rangeSchema, availabilityMessages.weekInvalid)
  .max(availabilityLimits.rangesPerDay, availabilityMessages.tooManyRanges)
  .overwrite((ranges) => [...ranges].sort((a, b) => minutesOfDay(a.start) - minutesOfDay(b.start)))
  .refine(
    (ranges) => ranges.every((range, i) => i === 0 || minutesOfDay(ranges[i - 1]!.end) <= minutesOfDay(range.start)),
    availabilityMessages.rangesOverlap,
  );

/** `PUT` of a tutor's availability: the whole of it, as the tutor's form holds it. */
export const availabilitySchema = z.strictObject({
  weekly: z.array(dayRangesSchema, availabilityMessages.weekInvalid).length(7, availabilityMessages.weekInvalid),
  daysOff: z
    .array(z.string(availabilityMessages.dayOffInvalid).refine(isCalendarDate, availabilityMessages.dayOffInvalid))
    .max(availabilityLimits.daysOffMax, availabilityMessages.tooManyDaysOff)
    .overwrite((dates) => [...new Set(dates)].sort()),
  bufferMinutes: z
    .number(availabilityMessages.bufferInvalid)
    .int(availabilityMessages.bufferInvalid)
    .min(0, availabilityMessages.bufferInvalid)
    .max(availabilityLimits.bufferMaxMinutes, availabilityMessages.bufferInvalid),
}) satisfies z.ZodType<Availability>;

/*
 * The free times. Every time below is a whole minute on one line through all days, the SAST clock's minutes since
 * 1970-01-01 00:00 (SAST never changes its offset), so a session or a buffer that runs past midnight is one span
 * like any other. Spans are half-open, [start, end): a session ending at 14:00 and one starting at 14:00 touch
 * without overlapping.
 */

interface Span {
  start: number;
  end: number;
}

const minuteMs = 60_000;
const dayMinutes = 24 * 60;
const dayMs = dayMinutes * minuteMs;
const sastOffsetMinutes = 2 * 60;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
const dayNumber = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / dayMs;

const dateOfDay = (day: number) => new Date(day * dayMs).toISOString().slice(0, 10);

/** The date `days` after `date` (before it, when negative). */
export const dateAfter = (date: string, days: number) => dateOfDay(dayNumber(date) + days);

/** The index into `weekly`: 1970-01-01 was a Thursday, Monday-first index 3. */
const weekdayOf = (day: number) => (day + 3) % 7;

const pad = (n: number) => String(n).padStart(2, '0');
const timeOfMinutes = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** The minutes a session takes, to the minute it ends. `day`: `dayNumber`, or one that remembers its answers. */
const sessionSpan = (session: BusySession, day = dayNumber): Span => {
  const start = day(session.date) * dayMinutes + minutesOfDay(session.start);
  return { start, end: start + session.hours * 60 };
};

/** `dayNumber` remembering its answers: a tutor's sessions share a few dozen dates, and `Date.UTC` is slow. */
function rememberedDayNumber(): (date: string) => number {
  const known = new Map<string, number>();
  return (date) => known.get(date) ?? known.set(date, dayNumber(date)).get(date)!;
}

/** The first SAST minute a session may start at: rounded up to a whole minute, as `leadTimeProblem` does. */
const earliestMinute = (now: Date, leadHours: number) =>
  Math.ceil((now.getTime() + leadHours * 60 * minuteMs) / minuteMs) + sastOffsetMinutes;

/** Spans in order of start, those that overlap or touch made one: 09:00–12:00 and 12:00–15:00 are 09:00–15:00. */
function mergeSpans(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans.sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The date's working hours as minutes of the day, merged; none on a day off. */
function workingSpans(availability: Availability, date: string, daysOff: ReadonlySet<string>): Span[] {
  if (daysOff.has(date)) return [];
  const ranges = availability.weekly[weekdayOf(dayNumber(date))] ?? [];
  return mergeSpans(ranges.map((range) => ({ start: minutesOfDay(range.start), end: minutesOfDay(range.end) })));
}

/** The tutor's sessions widened by the buffer on both sides, merged: the time no new session may touch. */
function blockedSpans(busy: readonly BusySession[], bufferMinutes: number): Span[] {
  const day = rememberedDayNumber();
  return mergeSpans(
    busy.map((session) => {
      const { start, end } = sessionSpan(session, day);
      return { start: start - bufferMinutes, end: end + bufferMinutes };
    }),
  );
}

/** Whether `span` misses every one of `blocked` (in order, disjoint): a binary search, O(log B). */
function isFree(blocked: readonly Span[], span: Span): boolean {
  let low = 0;
  let high = blocked.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (blocked[middle]!.end <= span.start) low = middle + 1;
    else high = middle;
  }
  return low === blocked.length || blocked[low]!.start >= span.end;
}

/** A tutor's availability and sessions, prepared once for any number of dates. */
interface TutorPlan {
  availability: Availability;
  daysOff: ReadonlySet<string>;
  blocked: Span[];
}

export interface TutorTime {
  availability: Availability;
  /**
   * The tutor's confirmed sessions from the day before the first date to the day after the last: one of at most
   * 8 hours with a buffer of at most 2 reaches no further.
   */
  busy: readonly BusySession[];
}

const planOf = ({ availability, busy }: TutorTime): TutorPlan => ({
  availability,
  daysOff: new Set(availability.daysOff),
  blocked: blockedSpans(busy, availability.bufferMinutes),
});

/** The free starts on `date` as minutes of the day, in order, on the grid, from `earliest` on. */
function startsOn(plan: TutorPlan, date: string, hours: number, earliest: number): number[] {
  const step = availabilityLimits.stepMinutes;
  const midnight = dayNumber(date) * dayMinutes;
  const length = hours * 60;
  const starts: number[] = [];
  for (const range of workingSpans(plan.availability, date, plan.daysOff)) {
    const first = Math.ceil(Math.max(range.start, earliest - midnight) / step) * step;
    for (let start = first; start + length <= range.end; start += step)
      if (isFree(plan.blocked, { start: midnight + start, end: midnight + start + length })) starts.push(start);
  }
  return starts;
}

export interface FreeTimesRules {
  /** The session's length in whole hours. */
  hours: number;
  now: Date;
  /** BOOKING_MIN_LEAD_HOURS: no start earlier than this long after `now`. */
  leadHours: number;
}

/**
 * The `HH:MM` starts (SAST) on `date` that a tutor can take a session of `hours` at: on the half-hour grid, the
 * whole session inside one stretch of that weekday's working hours (a range ending 24:00 takes a session ending
 * at midnight; none runs past it), not on a day off, clear of every busy session and its buffer on both sides,
 * even one on the day before or after, and at least `leadHours` after `now`. O(B log B) for the B sessions, then
 * O(log B) for each of the day's at most 48 grid steps.
 */
export function freeStarts(input: TutorTime & FreeTimesRules & { date: string }): string[] {
  const earliest = earliestMinute(input.now, input.leadHours);
  return startsOn(planOf(input), input.date, input.hours, earliest).map(timeOfMinutes);
}

export interface FreeDate {
  date: string;
  /** `HH:MM`, SAST, in order; empty when no tutor is free that day. */
  starts: string[];
}

/**
 * The free starts of `days` dates from `from`, each the union over the tutors (a category's student can book
 * whichever of its tutors is free). Every date is in the answer, one without a free start with `starts` empty, so
 * a page can say "no free times" for it. Each tutor's sessions are sorted once: O(T·(B log B + days·48·log B)).
 */
export function freeTimes(
  input: FreeTimesRules & { tutors: readonly TutorTime[]; from: string; days: number },
): FreeDate[] {
  const plans = input.tutors.map(planOf);
  const earliest = earliestMinute(input.now, input.leadHours);
  const first = dayNumber(input.from);
  return Array.from({ length: input.days }, (_, i): FreeDate => {
    const date = dateOfDay(first + i);
    const starts = new Set(plans.flatMap((plan) => startsOn(plan, date, input.hours, earliest)));
    return { date, starts: [...starts].sort((a, b) => a - b).map(timeOfMinutes) };
  });
}

/**
 * The earliest of `busy` that `candidate` overlaps once `bufferMinutes` is kept free on both sides of each, or
 * undefined; with no buffer, one ending as the other starts is no clash. The caller leaves the candidate's own
 * booking out of `busy`. O(B).
 */
export function clashWith(
  candidate: BusySession,
  busy: readonly BusySession[],
  bufferMinutes: number,
): BusySession | undefined {
  const wanted = sessionSpan(candidate);
  let clash: { session: BusySession; start: number } | undefined;
  for (const session of busy) {
    const { start, end } = sessionSpan(session);
    const overlaps = start - bufferMinutes < wanted.end && wanted.start < end + bufferMinutes;
    if (overlaps && (!clash || start < clash.start)) clash = { session, start };
  }
  return clash?.session;
}

/**
 * What staff read when `candidate` clashes with `clash` (from `clashWith`): "14:00 overlaps your 13:30
 * session", or, when only the buffer is in the way, that it is too close; the clash's date is said when it is
 * another day's session. `whose` names the tutor for the admin ("Musa Stats’s"); `onDate` says the candidate's
 * date too ("14:00 on Thu, 03 Dec 2026 overlaps …"), where nothing around the message shows it.
 */
export function clashMessage(
  candidate: BusySession,
  clash: BusySession,
  { whose = 'your', onDate = false }: { whose?: string; onDate?: boolean } = {},
): string {
  const wanted = sessionSpan(candidate);
  const other = sessionSpan(clash);
  const time = onDate ? `${candidate.start} on ${formatSastDate(candidate.date)}` : candidate.start;
  const day = clash.date === candidate.date ? '' : ` on ${formatSastDate(clash.date)}`;
  const session = `${whose} ${clash.start} session${day}`;
  const overlaps = other.start < wanted.end && wanted.start < other.end;
  return (overlaps ? availabilityMessages.overlaps : availabilityMessages.tooClose)(time, session);
}

/**
 * Whether a session of `hours` from `start` on `date` (a time typed, on the grid or not) lies inside the tutor's
 * working hours, not on a day off: a page marks one that does not "outside availability".
 */
export function isWithinAvailability(availability: Availability, date: string, start: string, hours: number): boolean {
  const from = minutesOfDay(start);
  const to = from + hours * 60;
  return workingSpans(availability, date, new Set(availability.daysOff)).some((s) => s.start <= from && to <= s.end);
}
