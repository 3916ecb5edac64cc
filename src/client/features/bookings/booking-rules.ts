/**
 * The booking rules as the pages apply them before anything is sent: which module is booked and at what
 * rate, the form's checks (the shared schema plus the lead time), the quote, which times a booking shows, and
 * whether a cancellation is late. The server applies the same rules; these only spare a round trip.
 */
import {
  bookingLimits,
  bookingMessages,
  createBookingInputSchema,
  latestBookableDate,
  leadTimeProblem,
  uncategorized,
  type Booking,
  type BookingCategory,
  type BookingStatus,
} from '../../../common/bookings.ts';
import type { Module } from '../../../common/catalogue.ts';
import { formatSastDate, isCalendarDate, sastDate, sastInstant } from '../../../common/sast.ts';
import { fieldErrors } from '../../../common/validation.ts';
import type { z } from '../../../common/zod.ts';

const hourMs = 3_600_000;

/** What the booking page shows about the module, and the rate the quote uses. */
export interface ModuleInfo {
  name: string;
  category: BookingCategory;
  rateCents: number;
  description: string;
  topics: string[];
  slug?: string;
  /** Not in the catalogue: any concept can be asked for (spec §2 Booking page). */
  custom: boolean;
}

/** The catalogue's module of that name, or a custom subject (Uncategorized, at the live-session fee). */
export function moduleInfo(name: string, modules: readonly Module[]): ModuleInfo {
  const trimmed = name.trim();
  const known = modules.find((m) => m.name.trim() === trimmed);
  if (known) {
    return {
      name: known.name,
      category: known.category,
      rateCents: known.priceCents,
      description: known.description,
      topics: known.topics,
      slug: known.slug,
      custom: false,
    };
  }
  return {
    name: trimmed,
    category: uncategorized,
    rateCents: bookingLimits.customRateCents,
    description: '',
    topics: [],
    custom: true,
  };
}

/** The form as typed: hours stay text so that "1.5" or "" reach the schema and get its message. */
export interface BookingFormValues {
  date: string;
  slots: [string, string, string];
  hours: string;
  concepts: string;
  /** How many weeks at the same times (issue 36): "1" for one session. Absent in drafts saved before. */
  weeks?: string;
  /** The board question a tutor offered this session on (issue 39 §4); absent or null for none. */
  questionId?: string | null;
}

export const emptyBookingForm: BookingFormValues = {
  date: '',
  slots: ['', '', ''],
  hours: String(bookingLimits.hoursDefault),
  concepts: '',
  weeks: '1',
};

export type BookingField = 'module' | 'date' | 'slots' | 'hours' | 'concepts' | 'weeks';
export type BookingFormErrors = Partial<Record<BookingField, string>>;

/** What `POST /api/bookings` takes, as the schema leaves it (trimmed). */
export type BookingRequestInput = z.output<typeof createBookingInputSchema>;

/** The first date a session can be on: the lead time from now, in SAST (the date input's `min`). */
export const earliestBookableDate = (now: Date, leadHours: number) =>
  sastDate(new Date(now.getTime() + leadHours * hourMs));

/**
 * The date input's value as the app writes dates ("Thu, 03 Dec 2026"): a phone shows the input in its own
 * locale's order (mm/dd/yyyy, say). Nothing while the year is still being typed: a date input passes through
 * 0002, 0020 and 0202 on the way to 2026.
 */
export const dateInWords = (date: string): string | undefined =>
  isCalendarDate(date) && !date.startsWith('0') ? formatSastDate(date) : undefined;

/**
 * The times the lead-time message is about (`leadTimeProblem`), to mark those fields and no others; none when
 * the message is about the date or the form has no such problem.
 */
export function tooSoonSlots(values: BookingFormValues, rules: { now: Date; leadHours: number }): number[] {
  if (!values.date) return [];
  const problem = leadTimeProblem(values.date, values.slots, rules);
  return problem?.field === 'slots' ? problem.tooSoon : [];
}

/** The weeks asked for, 1 while the field is empty or not a number yet (the check names it). */
export const weeksOf = (values: Pick<BookingFormValues, 'weeks'>) => {
  const weeks = Number(values.weeks ?? '1');
  return Number.isInteger(weeks) && weeks >= 1 ? weeks : 1;
};

/** The date of a weekly series' last session (the date itself for one session). */
const lastWeekOf = (values: BookingFormValues) =>
  sastDate(new Date(Date.parse(`${values.date}T12:00:00Z`) + 7 * (weeksOf(values) - 1) * 24 * hourMs));

/**
 * The form checked as the server will check it: the shared schema, then the lead time, whose message names
 * the times too soon and the earliest accepted one (`leadTimeProblem`), and the year ahead. A date too close
 * is said next to the date even before the times are chosen: no time on it could be far enough ahead.
 */
export function checkBookingForm(
  input: { id: string; module: string; values: BookingFormValues },
  rules: { now: Date; leadHours: number },
): { data: BookingRequestInput; errors?: undefined } | { data?: undefined; errors: BookingFormErrors } {
  const { values } = input;
  const candidate = {
    id: input.id,
    module: input.module,
    date: values.date,
    slots: values.slots,
    hours: values.hours.trim() === '' ? undefined : Number(values.hours),
    concepts: values.concepts,
    // One week is a single session: the request says nothing of weeks then.
    ...(values.weeks === undefined || values.weeks.trim() === '1' ? {} : { weeks: Number(values.weeks) }),
    ...(values.questionId ? { questionId: values.questionId } : {}),
  };
  const parsed = createBookingInputSchema.safeParse(candidate);
  const errors: BookingFormErrors = parsed.success ? {} : (fieldErrors(parsed.error) as BookingFormErrors);
  // An empty time is a missing one, whatever else is wrong with the others.
  if (values.slots.some((slot) => slot === '')) errors.slots = bookingMessages.slotsRequired;
  if (!errors.date && values.date) {
    const problem = leadTimeProblem(values.date, errors.slots ? [] : values.slots, rules);
    if (problem) errors[problem.field] = problem.message;
    const latest = latestBookableDate(rules.now);
    if (values.date > latest) errors.date = bookingMessages.tooFar(latest);
    else if (!errors.weeks && lastWeekOf(values) > latest) errors.weeks = bookingMessages.tooFar(latest);
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { data: parsed.data };
}

/** hours × rate once the hours are a whole number in range; otherwise there is no quote yet. */
export function quoteCents(hours: string, rateCents: number): number | undefined {
  const n = Number(hours);
  if (hours.trim() === '' || !Number.isInteger(n) || n < bookingLimits.hoursMin || n > bookingLimits.hoursMax)
    return undefined;
  return n * rateCents;
}

/** Spec §4: a Confirmed booking with a confirmed slot shows only that time; otherwise every requested one. */
export const shownSlots = (booking: Pick<Booking, 'status' | 'confirmedSlot' | 'slots'>): string[] =>
  booking.status === 'Confirmed' && booking.confirmedSlot ? [booking.confirmedSlot] : booking.slots;

/** When the session starts: the confirmed time, or the earliest requested one while none is confirmed. */
export function sessionStart(booking: Pick<Booking, 'date' | 'confirmedSlot' | 'slots'>): Date | undefined {
  const time = booking.confirmedSlot ?? [...booking.slots].sort()[0];
  return time ? sastInstant(booking.date, time) : undefined;
}

/** Only a booking that is still to happen can be cancelled. */
export const canCancel = (booking: Pick<Booking, 'status'>) =>
  booking.status === 'Pending' || booking.status === 'Confirmed';

/**
 * Whether the student may still move the session (issue 36): pending or confirmed, and starting at least the
 * cut-off from now. Later, only cancelling is open (the server decides; this picks what the card offers).
 */
export function canMove(
  booking: Pick<Booking, 'status' | 'date' | 'confirmedSlot' | 'slots'>,
  now: Date,
  cutOffHours: number,
): boolean {
  const start = sessionStart(booking);
  return canCancel(booking) && start !== undefined && start.getTime() - now.getTime() >= cutOffHours * hourMs;
}

/** Cancelling now would be inside the late-cancellation window (the server decides; this picks the question asked). */
export function cancelIsLate(booking: Pick<Booking, 'date' | 'confirmedSlot' | 'slots'>, now: Date): boolean {
  const start = sessionStart(booking);
  return start !== undefined && start.getTime() - now.getTime() < bookingLimits.lateCancelHours * hourMs;
}

/**
 * The student's list order: the sessions still to come first, the next one at the top, then the others (past,
 * cancelled, completed), the latest first; the latest request first on the same time.
 */
export function byNextSessionFirst(now: Date) {
  const startOf = (b: Booking) => sessionStart(b)?.getTime() ?? 0;
  const upcoming = (b: Booking) => canCancel(b) && startOf(b) >= now.getTime();
  return (a: Booking, b: Booking): number => {
    const [ua, ub] = [upcoming(a), upcoming(b)];
    if (ua !== ub) return ua ? -1 : 1;
    const [sa, sb] = [startOf(a), startOf(b)];
    if (sa !== sb) return ua ? sa - sb : sb - sa;
    return a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? 1 : -1;
  };
}

/** Spec §4: the status label is styled by its lowercase name. */
export const statusClassName = (status: BookingStatus) => status.toLowerCase();
