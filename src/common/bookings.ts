import { categories } from './roles.ts';
import { formatSastDate, isCalendarDate, isTimeOfDay, sastDate, sastInstant, sastTime } from './sast.ts';
import { packageDrawSchema } from './package-draw.ts';
import { z } from './zod.ts';
import { formatCount } from './locale.ts';
import { asLineFeeds, isMultiLine, isOneLine, textMessages } from './validation.ts';
import { formatRand } from './money.ts';
import { paymentKinds, paymentMethods, paymentTotalsSchema } from './payment-kinds.ts';
import { bookingQuestionSchema, questionIdSchema, sessionNotesSchema } from './session-notes.ts';

/** Spec §4 Booking status. */
export const bookingStatuses = ['Pending', 'Confirmed', 'Completed', 'Cancelled'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** A module the catalogue does not know is a custom subject (spec §3 "module info"). */
export const uncategorized = 'Uncategorized';
export const bookingCategories = [...categories, uncategorized] as const;
export type BookingCategory = (typeof bookingCategories)[number];

const weekdays: Record<string, string> = {
  Mon: 'Monday',
  Tue: 'Tuesday',
  Wed: 'Wednesday',
  Thu: 'Thursday',
  Fri: 'Friday',
  Sat: 'Saturday',
  Sun: 'Sunday',
};
/** "Thursday": a date's weekday in SAST. */
const weekdayOf = (date: string) => weekdays[formatSastDate(date).slice(0, 3)] ?? '';

export const bookingLimits = {
  hoursMin: 1,
  hoursMax: 8,
  hoursDefault: 1,
  slots: 3,
  conceptsMax: 2000,
  /** A student may cancel up to this long before the session; later, the late-cancellation fee applies. */
  lateCancelHours: 24,
  lateFeePercent: 50,
  /** A custom subject has no catalogue rate: it is charged at the live session fee (spec §9, R100). */
  customRateCents: 100_00,
  /** The furthest a session can be booked ahead, in days: a year (a typo such as 9999 is refused). */
  maxDaysAhead: 365,
  /** The reminder e-mail goes this long before a confirmed session. */
  reminderHours: 24,
  pageSize: 50,
  /** Booking requests one user may send in an hour (a repeat of one already stored does not count; a weekly series counts once). */
  requestsPerHour: 10,
  /** A weekly series: the same time every week for up to a term's teaching weeks (issue 36). */
  weeksMax: 14,
} as const;

/** "1 hour", "48 hours": the lead time is configured (BOOKING_MIN_LEAD_HOURS) and may be 1. */
const hoursText = (hours: number) => `${hours} ${hours === 1 ? 'hour' : 'hours'}`;

/** Spec §5 and §8 (Booking, Tutor, Admin), word for word, plus what the spec leaves open. */
export const bookingMessages = {
  confirmSubmit: 'Are you sure you want to submit?',
  sending: 'Sending...',
  sent: 'Booking request sent! Check your email shortly.',
  failed: 'Failed to send booking request. Please try again.',
  queued: 'You are offline: your booking request is saved and will be sent when you are back online.',
  retrying:
    'Not sent yet: the server could not take your booking request just now. It is saved and will be sent again by itself.',
  loading: 'Loading bookings...',
  empty: 'No sessions booked yet.',
  selectSlot: 'Please select a timeslot to confirm.',
  /** `reference`: the booking's payment reference (TB-…), the id people read; never the internal UUID. */
  timeConfirmedTutor: (reference: string, slot: string) => `Time confirmed for booking ${reference}: ${slot}`,
  timeConfirmedAdmin: (slot: string) => `Time confirmed: ${slot}`,
  statusFailed: 'Failed to update booking status.',
  confirmFailed: 'Failed to confirm timeslot.',
  fetchFailed: 'Failed to fetch bookings.',
  notAssigned: 'You are not assigned to any module. Please contact support.',
  customSubject: 'This is a custom subject: you can request any concept you need help with.',
  leadTime: (hours: number) => `Sessions must be booked at least ${hoursText(hours)} in advance.`,
  dateInvalid: 'Choose a valid date.',
  slotsRequired: 'Please choose all three time slots.',
  slotInvalid: 'Choose a time as HH:MM (24-hour clock, SAST).',
  slotsDistinct: 'Choose three different time slots.',
  hoursInvalid: `Hours must be a whole number from ${bookingLimits.hoursMin} to ${bookingLimits.hoursMax}.`,
  conceptsRequired: 'Please describe the concepts you need help with.',
  conceptsTooLong: `Concepts can be at most ${formatCount(bookingLimits.conceptsMax)} characters.`,
  moduleRequired: 'Choose a module to book.',
  statusInvalid: 'Choose one of Pending, Confirmed, Completed or Cancelled.',
  slotNotRequested: 'Choose one of the three requested time slots.',
  changedMeanwhile: 'Someone else changed this booking meanwhile. Look at it again and retry.',
  notFound: 'This booking no longer exists.',
  idReused: 'This booking request was already sent with different details.',
  cancelConfirm: 'Cancel this booking?',
  cancelLateConfirm: (feeCents: number) =>
    `This session starts within ${bookingLimits.lateCancelHours} hours: cancelling now is a late cancellation and ${bookingLimits.lateFeePercent}% of the fee (${formatRand(feeCents)}) applies. Cancel anyway?`,
  cancelled: 'Your booking has been cancelled.',
  /** Says the fee in rand as the dialog did, not only the percentage (issue 19, point 6). */
  cancelledLate: (feeCents: number) =>
    `Your booking has been cancelled. As it was within ${bookingLimits.lateCancelHours} hours of the session, the late-cancellation fee (${bookingLimits.lateFeePercent}%, ${formatRand(feeCents)}) applies.`,
  cannotCancel: 'Only a pending or confirmed booking can be cancelled.',
  notATutor: 'Choose a tutor of this booking’s category.',
  cannotConfirm: 'A cancelled or completed booking cannot be confirmed. Set its status to Pending first.',
  ownBooking: 'You booked this session yourself: another tutor or the admin confirms it and sets its status.',
  /** Staff marking a session completed before it has started are asked first (the student is e-mailed). */
  notStartedYet: (when: string) => `This session has not started yet (${when}). Mark it as completed anyway?`,
  tooFar: (lastDate: string) =>
    `Sessions can be booked at most a year ahead: choose a date up to ${formatSastDate(lastDate)}.`,
  dateRangeReversed: 'The "From" date is after the "To" date: the range is reversed.',
  cancelFailed: 'Failed to cancel the booking. Please try again.',
  rateLimited: 'You have sent many booking requests in the last hour. Please wait a while before sending another.',
  /** The student's name on a booking (and a person's in its history) once their account is deleted. */
  deletedUser: 'Deleted user',
  /** Moving a session (issue 36): the student proposes three new times; staff move a confirmed one. */
  cannotMove: 'Only a pending or confirmed session can be moved.',
  staffMoveConfirmedOnly: 'Only a confirmed session can be moved to a new time. Confirm one of its times instead.',
  tooLateToMove: (hours: number, when: string) =>
    `A session can be moved up to ${hoursText(hours)} before it starts, and this one starts ${when}. You can still cancel it.`,
  /** On the card, once the cut-off has passed. */
  moveClosed: (hours: number) =>
    `A session can be moved up to ${hoursText(hours)} before it starts. You can still cancel this one.`,
  moveInPast: 'Choose a time that is still to come.',
  nothingToKeep:
    'The student has not asked to move this session from a confirmed time: there is no earlier time to keep.',
  moveFailed: 'Failed to move the session.',
  weeksInvalid: `Weeks must be a whole number from 1 to ${bookingLimits.weeksMax}.`,
  /** "Weekly, 6 sessions: every Thursday from 03 Dec 2026 to 07 Jan 2027, R1,500.00 in all." */
  series: (count: number, firstDate: string, lastDate: string, totalCents: number) =>
    `Weekly, ${count} sessions: every ${weekdayOf(firstDate)} from ${formatSastDate(firstDate).slice(5)} to ${formatSastDate(lastDate).slice(5)}, ${formatRand(totalCents)} in all.`,
  moveConfirm:
    'Ask your tutor to move this session to one of these three times? Until they confirm one, the session is pending.',
} as const;

/** A session's date and times as they were, or as they became: a move's two ends. */
const bookingTimesSchema = z.object({
  date: z.string(),
  /** The confirmed time, null while pending. */
  slot: z.string().nullable(),
  slots: z.array(z.string()),
});

/** A move (issue 36): from the date and times it had to those it has since. */
export const bookingMoveSchema = z.object({ from: bookingTimesSchema, to: bookingTimesSchema });
export type BookingMove = z.infer<typeof bookingMoveSchema>;

/** One change to a booking, for the audit trail shown on the booking. */
export const bookingChangeSchema = z.object({
  at: z.string(),
  /** Null once the account that made the change is deleted. */
  by: z.object({ id: z.string().nullable(), name: z.string(), role: z.string().nullable() }),
  /** Null for the request itself. */
  from: z.enum(bookingStatuses).nullable(),
  to: z.enum(bookingStatuses),
  /** The slot set by a confirmation. */
  slot: z.string().nullable(),
  /** A move of the session to another date or time; absent for every other change. */
  move: bookingMoveSchema.optional(),
  /**
   * Money recorded against the booking (issue 37): what and how much; absent for every other change. `id`: the
   * payment's, whose receipt the student downloads (common/receipts.ts); absent on a device's copy from before
   * receipts.
   */
  payment: z
    .object({
      id: z.string().optional(),
      kind: z.enum(paymentKinds),
      method: z.enum(paymentMethods).nullable(),
      amountCents: z.number().int(),
    })
    .optional(),
});
export type BookingChange = z.infer<typeof bookingChangeSchema>;

export const bookingTutorSchema = z.object({ id: z.string().nullable(), name: z.string() });

/** A weekly series: its id (the first session's), this session's place from 0, and how many there are. */
export const bookingSeriesSchema = z.object({ id: z.string(), index: z.number().int(), count: z.number().int() });
export type BookingSeries = z.infer<typeof bookingSeriesSchema>;

export { seriesSessionId } from './booking-series.ts';
export type BookingTutor = z.infer<typeof bookingTutorSchema>;

/** A booking as the API sends it. Module, category and prices are kept as they were when booked. */
export const bookingSchema = z.object({
  id: z.string(),
  student: z.object({ id: z.string().nullable(), name: z.string(), email: z.string() }),
  moduleName: z.string(),
  moduleCategory: z.enum(bookingCategories),
  /** `YYYY-MM-DD`, SAST. */
  date: z.string(),
  /** Three `HH:MM` times, SAST, as requested. */
  slots: z.array(z.string()),
  confirmedSlot: z.string().nullable(),
  hours: z.number().int(),
  concepts: z.string(),
  status: z.enum(bookingStatuses),
  priceCentsPerHour: z.number().int(),
  totalCents: z.number().int(),
  /** Unique; the student quotes it when paying by EFT. */
  paymentReference: z.string(),
  /** True when the student cancelled within `lateCancelHours` of the session. */
  lateCancellation: z.boolean(),
  createdAt: z.string(),
  /** Grows with every change; staff changes send the version they read, and a stale one is a 409. */
  version: z.number().int(),
  history: z.array(bookingChangeSchema),
  /**
   * The tutor: who confirmed it, or whom the admin named; null until then (the id null once their account is
   * deleted). Optional: a device may hold bookings stored before bookings had one, which read as none.
   */
  tutor: bookingTutorSchema.nullable().optional(),
  /** One session of a weekly series (issue 36), its place in it; absent or null for a single session. */
  series: bookingSeriesSchema.nullable().optional(),
  /** A seat in a group session (issue 36, common/groups.ts): the group's id; absent or null for a session of one. */
  group: z.object({ id: z.string() }).nullable().optional(),
  /**
   * The sums of the money recorded against it (issue 37, common/payments.ts `bookingStanding`); absent on a
   * device that stored the booking before money was kept, which reads as nothing recorded.
   */
  payments: paymentTotalsSchema.optional(),
  /**
   * What the session took from the student's monthly package (issue 37 §3, common/packages.ts); absent or null
   * when it is paid for in money.
   */
  package: packageDrawSchema.nullable().optional(),
  /** The board question it was booked from (issue 39 §4, common/session-notes.ts); absent or null for none. */
  question: bookingQuestionSchema.nullable().optional(),
  /** The tutor's notes after the session; absent or null until written. */
  notes: sessionNotesSchema.nullable().optional(),
  /** When the student agreed to a summary of the notes on her question; absent or null until she does. */
  summaryConsentAt: z.string().nullable().optional(),
  /** When the summary was posted on the question (its answer's id is the booking's); absent or null before. */
  summaryPostedAt: z.string().nullable().optional(),
});
export type Booking = z.infer<typeof bookingSchema>;

/** `GET /api/bookings?status=&category=&from=&to=&cursor=`: newest session first, `pageSize` at a time. */
export const bookingPageSchema = z.object({ bookings: z.array(bookingSchema), nextCursor: z.string().nullable() });
export type BookingPage = z.infer<typeof bookingPageSchema>;

/**
 * `GET /api/bookings?since=<version>`: every booking the caller may see that changed after `version`, oldest
 * change first, at most a page; `more` says there is another page from the returned `version`.
 */
export const bookingChangesSchema = z.object({
  bookings: z.array(bookingSchema),
  /** A position's text on Firestore (`12-0-7`), SQL's whole number as it always was (common/positions.ts). */
  version: z.union([z.number().int(), z.string()]),
  more: z.boolean(),
});
export type BookingChanges = z.infer<typeof bookingChangesSchema>;

const slot = z.string(bookingMessages.slotsRequired).refine(isTimeOfDay, bookingMessages.slotInvalid);

/**
 * `POST /api/bookings`. The id is made by the client, so a repeat creates nothing new. `module` is the module's
 * name as the booking page shows it; a name the catalogue does not know books a custom subject. The lead time
 * is checked on the server against its clock and configuration (`bookingMessages.leadTime`).
 */
export const createBookingInputSchema = z.strictObject({
  id: z.uuid(),
  module: z
    .string(bookingMessages.moduleRequired)
    .trim()
    .min(1, bookingMessages.moduleRequired)
    .max(200, bookingMessages.moduleRequired)
    .refine(isOneLine, textMessages.oneLine),
  date: z.string(bookingMessages.dateInvalid).refine(isCalendarDate, bookingMessages.dateInvalid),
  slots: z
    .array(slot, bookingMessages.slotsRequired)
    .length(bookingLimits.slots, bookingMessages.slotsRequired)
    .refine((slots) => new Set(slots).size === slots.length, bookingMessages.slotsDistinct),
  hours: z
    .number(bookingMessages.hoursInvalid)
    .int(bookingMessages.hoursInvalid)
    .min(bookingLimits.hoursMin, bookingMessages.hoursInvalid)
    .max(bookingLimits.hoursMax, bookingMessages.hoursInvalid),
  concepts: z
    .string(bookingMessages.conceptsRequired)
    .overwrite(asLineFeeds)
    .trim()
    .min(1, bookingMessages.conceptsRequired)
    .max(bookingLimits.conceptsMax, bookingMessages.conceptsTooLong)
    .refine(isMultiLine, textMessages.multiLine),
  /** The same time every week for this many weeks (issue 36); one session when left out. */
  weeks: z
    .number(bookingMessages.weeksInvalid)
    .int(bookingMessages.weeksInvalid)
    .min(1, bookingMessages.weeksInvalid)
    .max(bookingLimits.weeksMax, bookingMessages.weeksInvalid)
    .optional(),
  /** The board question a tutor offered a session on (issue 39 §4): the student's own. */
  questionId: questionIdSchema.optional(),
});
export type CreateBookingInput = z.input<typeof createBookingInputSchema>;

/** `POST /api/bookings/:id/confirm` (tutor of the category, admin): one of the three requested slots. */
export const confirmBookingInputSchema = z.strictObject({
  slot: z.string(bookingMessages.selectSlot).min(1, bookingMessages.selectSlot),
  version: z.number().int(),
  /**
   * The admin names the session's tutor (one of the category's); without it, the category's only tutor if it
   * has exactly one. A tutor who confirms is the tutor.
   */
  tutorId: z.string(bookingMessages.notATutor).min(1, bookingMessages.notATutor).max(200).optional(),
  /** Every pending session of the booking's weekly series at this time, at once (issue 36). */
  series: z.boolean().optional(),
});

/**
 * `POST /api/bookings/:id/reschedule` (the booking's student): three new times, as a request has, at least the
 * reschedule cut-off before the session; `version`: the booking as the student saw it. Queued offline.
 */
export const rescheduleBookingInputSchema = z.strictObject({
  date: createBookingInputSchema.shape.date,
  slots: createBookingInputSchema.shape.slots,
  version: z.number().int(),
});
export type RescheduleBookingInput = z.input<typeof rescheduleBookingInputSchema>;

/** `POST /api/bookings/:id/move` (tutor of the category, admin): a confirmed session to a new date and time. */
export const moveBookingInputSchema = z.strictObject({
  date: createBookingInputSchema.shape.date,
  slot,
  version: z.number().int(),
});

/** `POST /api/bookings/:id/keep-time` (tutor of the category, admin): the time it had before the student's move. */
export const keepBookingTimeInputSchema = z.strictObject({ version: z.number().int() });

/** `PUT /api/bookings/:id/status` (tutor of the category, admin): any of the four, in any order (spec §4). */
export const setBookingStatusInputSchema = z.strictObject({
  status: z.enum(bookingStatuses, bookingMessages.statusInvalid),
  version: z.number().int(),
  /** Completed for a session that has not started yet: staff were warned and said so (else 409). */
  beforeStart: z.boolean().optional(),
});

/** `GET /api/bookings` filters (staff; a student's list is always their own). */
export const bookingListQuerySchema = z.object({
  status: z.enum(bookingStatuses, bookingMessages.statusInvalid).optional(),
  category: z.enum(bookingCategories).optional(),
  /** Session dates from and to, inclusive, `YYYY-MM-DD`. */
  from: z.string().refine(isCalendarDate, bookingMessages.dateInvalid).optional(),
  to: z.string().refine(isCalendarDate, bookingMessages.dateInvalid).optional(),
  cursor: z.string().optional(),
});

/** A session-date range reads from earlier to later: a reversed one is refused (on `to`), not an empty list. */
export const dateRangeInOrder = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;

/** The late-cancellation fee: `lateFeePercent` of the total, to the cent. */
export const lateFeeCents = (totalCents: number) => Math.round((totalCents * bookingLimits.lateFeePercent) / 100);

const hourMs = 3_600_000;
const minuteMs = 60_000;
const listed = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The last date a session can be on (SAST): `maxDaysAhead` from today. */
export const latestBookableDate = (now: Date) =>
  sastDate(new Date(now.getTime() + bookingLimits.maxDaysAhead * 24 * hourMs));

/**
 * Which requested times start sooner than the lead time allows, and the message that names them and the
 * earliest time that would be accepted: "09:00 on Thu, 26 Nov 2026 is less than 48 hours away; the earliest
 * is 17:50 SAST." When no time on the date could do (`field: 'date'`), the message is about the date. The
 * server and the form both use it, so the student reads the same words before and after sending.
 */
export function leadTimeProblem(
  date: string,
  slots: readonly string[],
  rules: { now: Date; leadHours: number },
): { field: 'date' | 'slots'; tooSoon: number[]; message: string } | undefined {
  // Times are whole minutes: the earliest acceptable one is the first whole minute at or after the limit.
  const earliest = new Date(Math.ceil((rules.now.getTime() + rules.leadHours * hourMs) / minuteMs) * minuteMs);
  const tooSoon = slots.flatMap((slot, i) =>
    isTimeOfDay(slot) && sastInstant(date, slot).getTime() < earliest.getTime() ? [i] : [],
  );
  const wholeDay = sastInstant(date, '23:59').getTime() < earliest.getTime();
  if (!wholeDay && tooSoon.length === 0) return undefined;
  const earliestDate = sastDate(earliest);
  const earliestText = `${sastTime(earliest)}${earliestDate === date ? '' : ` on ${formatSastDate(earliestDate)}`} SAST`;
  const away = `less than ${hoursText(rules.leadHours)} away; the earliest is ${earliestText}.`;
  if (wholeDay) {
    const passed = date < sastDate(rules.now);
    const message = passed
      ? `${formatSastDate(date)} has passed; the earliest is ${earliestText}.`
      : `${formatSastDate(date)} is ${away}`;
    return { field: 'date', tooSoon, message };
  }
  const times = tooSoon.map((i) => slots[i]!);
  return {
    field: 'slots',
    tooSoon,
    message: `${listed(times)} on ${formatSastDate(date)} ${times.length === 1 ? 'is' : 'are'} ${away}`,
  };
}

/** What a student pays: hours × the rate they booked at. */
export const bookingTotalCents = (hours: number, priceCentsPerHour: number) => hours * priceCentsPerHour;
