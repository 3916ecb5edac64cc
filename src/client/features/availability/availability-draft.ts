import { availabilitySchema, type Availability } from '../../../common/availability.ts';

/**
 * What the working-hours form holds while it is being edited: the times as typed (a half-typed "9" too), the
 * buffer as the field's text, and a key for each range so React keeps each row's inputs when one is removed.
 */
export interface RangeDraft {
  key: number;
  start: string;
  end: string;
}

export interface AvailabilityDraft {
  weekly: RangeDraft[][];
  daysOff: string[];
  buffer: string;
}

let lastKey = 0;
export const newRange = (start = '', end = ''): RangeDraft => ({ key: ++lastKey, start, end });

export const draftOf = (availability: Availability): AvailabilityDraft => ({
  weekly: availability.weekly.map((day) => day.map((range) => newRange(range.start, range.end))),
  daysOff: [...availability.daysOff],
  buffer: String(availability.bufferMinutes),
});

/**
 * The draft as the server takes it. A buffer that is not a number stays text, so the schema names it rather
 * than `Number` turning "" into 0.
 */
export function bodyOf(draft: AvailabilityDraft): unknown {
  const buffer = draft.buffer.trim();
  return {
    weekly: draft.weekly.map((day) => day.map(({ start, end }) => ({ start: start.trim(), end: end.trim() }))),
    daysOff: draft.daysOff,
    bufferMinutes: /^\d+$/.test(buffer) ? Number(buffer) : buffer,
  };
}

/** Messages where the form shows them: a range's under the range, a day's under the day, the rest by their field. */
export interface AvailabilityErrors {
  form?: string | undefined;
  /** A message about the week that names no day (the server's, which says only "weekly"). */
  week?: string | undefined;
  /** By weekday index, Monday 0. */
  days: Record<number, string>;
  /** By `rangeId(day, index)`. */
  ranges: Record<string, string>;
  daysOff?: string | undefined;
  buffer?: string | undefined;
}

export const noErrors: AvailabilityErrors = { days: {}, ranges: {} };
export const rangeId = (day: number, index: number) => `${day}.${index}`;

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** Each problem the schema found, first message wins, placed by its path (`weekly.0.1.end`: Monday's second range). */
export function errorsOf(issues: readonly Issue[]): AvailabilityErrors {
  const errors: AvailabilityErrors = { days: {}, ranges: {} };
  for (const { path, message } of issues) {
    const [field, day, index] = path;
    if (field === 'weekly' && typeof day === 'number') {
      if (typeof index === 'number') errors.ranges[rangeId(day, index)] ??= message;
      else errors.days[day] ??= message;
    } else if (field === 'weekly') errors.week ??= message;
    else if (field === 'daysOff') errors.daysOff ??= message;
    else if (field === 'bufferMinutes') errors.buffer ??= message;
    else errors.form ??= message;
  }
  return errors;
}

/** The draft checked as the server will check it: the availability to send, or where each problem is. */
export function checkDraft(draft: AvailabilityDraft): { data: Availability } | { errors: AvailabilityErrors } {
  const parsed = availabilitySchema.safeParse(bodyOf(draft));
  return parsed.success ? { data: parsed.data } : { errors: errorsOf(parsed.error.issues) };
}

export const hasErrors = (errors: AvailabilityErrors) =>
  Boolean(
    errors.form ||
    errors.week ||
    errors.daysOff ||
    errors.buffer ||
    Object.keys(errors.days).length ||
    Object.keys(errors.ranges).length,
  );

/** Monday's ranges given to Tuesday to Friday as well (their own rows, to change one day without the others). */
export const copyMondayToWeekdays = (draft: AvailabilityDraft): AvailabilityDraft => ({
  ...draft,
  weekly: draft.weekly.map((day, i) =>
    i >= 1 && i <= 4 ? draft.weekly[0]!.map(({ start, end }) => newRange(start, end)) : day,
  ),
});

/** A date added to the dates off: kept in order, each once. */
export const withDayOff = (daysOff: readonly string[], date: string) => [...new Set([...daysOff, date])].sort();
