import { asLineFeeds, isMultiLine, isOneLine, textMessages } from './validation.ts';
import { z } from './zod.ts';

export type { TestimonialText } from './testimonials-seed.ts';

/**
 * A quote is a few sentences on a card; a name and a course fit one line of it. Above these, a paste went
 * wrong (a whole review, an e-mail thread) rather than a longer quote.
 */
export const testimonialLimits = { nameMax: 80, courseMax: 80, quoteMax: 600, positionMax: 9_999 } as const;

export const testimonialMessages = {
  nameRequired: 'Enter the student’s name.',
  nameTooLong: `The name must be at most ${testimonialLimits.nameMax} characters.`,
  courseRequired: 'Enter the course or module, for example COMP102.',
  courseTooLong: `The course must be at most ${testimonialLimits.courseMax} characters.`,
  quoteRequired: 'Enter what the student said.',
  quoteTooLong: `The quote must be at most ${testimonialLimits.quoteMax} characters.`,
  hiddenNotBoolean: 'Hidden must be true or false.',
  position: `The position must be a whole number from 0 to ${testimonialLimits.positionMax}.`,
  nothingToChange: 'Nothing to change.',
  notFound: 'Testimonial not found.',
  fetchFailed: 'Failed to load the testimonials.',
  added: 'Testimonial added.',
  addFailed: 'Failed to add the testimonial.',
  updated: 'Testimonial saved.',
  updateFailed: 'Failed to save the testimonial.',
  hidden: 'Testimonial hidden.',
  shown: 'Testimonial shown.',
  moved: 'Order saved.',
  moveFailed: 'Failed to change the order.',
  hideConfirm: (name: string) =>
    `Hide the testimonial of ${name}? The testimonials page stops showing it on every device; you can show it again later.`,
  offline: 'You are offline. Connect to the internet to change the testimonials.',
} as const;

/** A testimonial as the API returns it. `position` orders them, smallest first; ties go by id. */
export const testimonialSchema = z.object({
  id: z.string(),
  name: z.string(),
  course: z.string(),
  quote: z.string(),
  hidden: z.boolean(),
  position: z.number().int(),
  updatedAt: z.string(),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

const name = z
  .string(testimonialMessages.nameRequired)
  .trim()
  .min(1, testimonialMessages.nameRequired)
  .max(testimonialLimits.nameMax, testimonialMessages.nameTooLong)
  .refine(isOneLine, textMessages.oneLine);
const course = z
  .string(testimonialMessages.courseRequired)
  .trim()
  .min(1, testimonialMessages.courseRequired)
  .max(testimonialLimits.courseMax, testimonialMessages.courseTooLong)
  .refine(isOneLine, textMessages.oneLine);
// A quote may keep its line breaks (the card shows them); nothing else invisible.
const quote = z
  .string(testimonialMessages.quoteRequired)
  .overwrite(asLineFeeds)
  .trim()
  .min(1, testimonialMessages.quoteRequired)
  .max(testimonialLimits.quoteMax, testimonialMessages.quoteTooLong)
  .refine(isMultiLine, textMessages.multiLine);
const hidden = z.boolean(testimonialMessages.hiddenNotBoolean);

/** `POST /api/testimonials` (admin): it goes last; shown unless `hidden`. */
export const createTestimonialInputSchema = z.strictObject({ name, course, quote, hidden: hidden.default(false) });
export type CreateTestimonialInput = z.input<typeof createTestimonialInputSchema>;

/** `PATCH /api/testimonials/:id` (admin): any of the fields; those left out stay. `{}` is refused. */
export const updateTestimonialInputSchema = z
  .strictObject({
    name: name.optional(),
    course: course.optional(),
    quote: quote.optional(),
    hidden: hidden.optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: testimonialMessages.nothingToChange,
  });
export type UpdateTestimonialInput = z.input<typeof updateTestimonialInputSchema>;

/**
 * `POST /api/testimonials/:id/move` (admin): the place, from 0, the testimonial takes among all of them (hidden
 * ones included); the others keep their order around it. A place past the end is the end.
 */
export const moveTestimonialInputSchema = z.strictObject({
  position: z
    .number(testimonialMessages.position)
    .int(testimonialMessages.position)
    .min(0, testimonialMessages.position)
    .max(testimonialLimits.positionMax, testimonialMessages.position),
});
export type MoveTestimonialInput = z.input<typeof moveTestimonialInputSchema>;

/** The order the pages show: by position, then by id (two added at once may share a position). */
export const byPosition = (a: Pick<Testimonial, 'position' | 'id'>, b: Pick<Testimonial, 'position' | 'id'>) =>
  a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
