import { bookingCategories, bookingLimits, createBookingInputSchema, moveBookingInputSchema } from './bookings.ts';
import { formatRand } from './money.ts';
import { asLineFeeds, isMultiLine, textMessages } from './validation.ts';
import { z } from './zod.ts';

/**
 * Group sessions (issue 36, "group sessions offered"): staff open one for a module at a date and time, with a
 * number of seats and a price per student; each student who takes a seat has a confirmed booking of their own
 * (their payment reference, e-mails and invitation) that names the group.
 */
export const groupLimits = {
  seatsMin: 2,
  seatsMax: 20,
  /** R5,000 a student: a typo's extra zeros are refused. */
  priceCentsMax: 5_000_00,
} as const;

export const groupMessages = {
  seatsInvalid: `Seats must be a whole number from ${groupLimits.seatsMin} to ${groupLimits.seatsMax}.`,
  priceInvalid: `The price per student must be an amount from R0 to ${formatRand(groupLimits.priceCentsMax)}.`,
  notFound: 'This group session no longer exists.',
  full: 'This group session is full.',
  alreadySeated: 'You already have a seat in this group session.',
  started: 'This group session has started: seats can no longer be taken.',
  notOfCategory: 'Choose a module of your categories.',
  /** A seat keeps the group's time: it is not moved on its own. */
  seatNotMoved:
    'A seat in a group session keeps the group’s time. Cancel the seat instead if the time does not suit you.',
  seatTaken: 'Seat taken! Your confirmation and payment details are on their way by e-mail.',
  opened: 'Group session opened.',
  none: 'No group sessions open for this module yet.',
  seatsLeft: (left: number) => (left === 1 ? '1 seat left' : `${left} seats left`),
  takeSeatConfirm: (priceCents: number) =>
    `Take a seat in this group session for ${formatRand(priceCents)}? It is confirmed at once.`,
  offline: 'Taking a seat needs a connection: seats are counted on the server.',
} as const;

/** A group session as the API sends it to anyone: nothing of who took the seats. */
export const groupSessionSchema = z.object({
  id: z.string(),
  moduleName: z.string(),
  moduleCategory: z.enum(bookingCategories),
  /** `YYYY-MM-DD` and `HH:MM`, SAST. */
  date: z.string(),
  start: z.string(),
  hours: z.number().int(),
  seats: z.number().int(),
  taken: z.number().int(),
  priceCents: z.number().int(),
  tutorName: z.string(),
});
export type GroupSession = z.infer<typeof groupSessionSchema>;

/** `GET /api/groups?module=` (or `?category=`): the groups still to start, soonest first. */
export const groupListSchema = z.object({ groups: z.array(groupSessionSchema) });

export const groupListQuerySchema = z.strictObject({
  module: z.string().trim().min(1).max(200).optional(),
  category: z.enum(bookingCategories).optional(),
});

/**
 * `POST /api/groups` (a tutor of the module's category, for themself; the admin, naming one of its tutors when
 * it has several). The id is the client's, so a repeat opens nothing new.
 */
export const openGroupInputSchema = z.strictObject({
  id: z.uuid(),
  module: createBookingInputSchema.shape.module,
  date: createBookingInputSchema.shape.date,
  start: moveBookingInputSchema.shape.slot,
  hours: createBookingInputSchema.shape.hours,
  seats: z
    .number(groupMessages.seatsInvalid)
    .int(groupMessages.seatsInvalid)
    .min(groupLimits.seatsMin, groupMessages.seatsInvalid)
    .max(groupLimits.seatsMax, groupMessages.seatsInvalid),
  priceCents: z
    .number(groupMessages.priceInvalid)
    .int(groupMessages.priceInvalid)
    .min(0, groupMessages.priceInvalid)
    .max(groupLimits.priceCentsMax, groupMessages.priceInvalid),
  tutorId: z.string().min(1).max(200).optional(),
});
export type OpenGroupInput = z.input<typeof openGroupInputSchema>;

/** `POST /api/groups/:id/seats` (any signed-in user, for themself): the seat's booking id is the client's. */
export const takeSeatInputSchema = z.strictObject({
  id: z.uuid(),
  /** What the student would like covered; may be left empty. */
  concepts: z
    .string()
    .overwrite(asLineFeeds)
    .trim()
    .max(bookingLimits.conceptsMax)
    .refine((text) => text === '' || isMultiLine(text), textMessages.multiLine)
    .optional(),
});
export type TakeSeatInput = z.input<typeof takeSeatInputSchema>;
