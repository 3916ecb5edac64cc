import { availabilitySchema } from './availability.ts';
import { categories } from './roles.ts';
import { z } from './zod.ts';

/**
 * What `/api/availability` answers (docs/api.md), beside the model in availability.ts: a tutor's own record for
 * their form, and a category's tutors for the booking page, which needs nothing of them but their id, name and
 * hours.
 */

export const availabilityApiMessages = {
  tutorNotFound: 'There is no tutor with this id.',
  categoryInvalid: `Choose a category: ${categories.join(', ')}.`,
} as const;

/**
 * `GET` and `PUT /api/availability/:tutorId`. `updatedAt` is null while the tutor has set nothing, and
 * `availability` is then `noAvailability`.
 */
export const tutorAvailabilitySchema = z.object({
  tutorId: z.string(),
  availability: availabilitySchema,
  updatedAt: z.string().nullable(),
});
export type TutorAvailability = z.infer<typeof tutorAvailabilitySchema>;

/** How many days from today the booking page offers free times for (issue 36: "the next few weeks"). */
export const freeTimesDays = 28;

/**
 * `GET /api/availability?category=…`: every tutor of the category, by name, those who set nothing included, and
 * when each is taken (their confirmed sessions' dates, starts and lengths; nothing of whose they are) from the day
 * before today to the day after the `freeTimesDays`: `from` and `to`, SAST, both included. With them a device
 * works out the free times (`freeTimes`) offline, for any length of session.
 */
export const categoryAvailabilitySchema = z.object({
  tutors: z.array(z.object({ tutorId: z.string(), name: z.string(), availability: availabilitySchema })),
  busy: z.array(z.object({ tutorId: z.string(), date: z.string(), start: z.string(), hours: z.number() })),
  from: z.string(),
  to: z.string(),
});
export type CategoryAvailability = z.infer<typeof categoryAvailabilitySchema>;

export const availabilityQuerySchema = z.strictObject({
  category: z.enum(categories, availabilityApiMessages.categoryInvalid),
});
