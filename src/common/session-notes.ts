import { z } from './zod.ts';
import { asLineFeeds, isMultiLine, textMessages } from './validation.ts';

/**
 * From a question to a session (issue 39 §4): a tutor offers a session on a board question; the asker books it
 * with the question linked; after the session the tutor writes notes the student sees with the booking; with
 * her consent, the tutor posts a summary of them as an answer to the question. The shapes both sides use.
 */

export const sessionNotesLimits = { textMax: 4000 } as const;

export const sessionMessages = {
  offer: 'Offer a session',
  offered: 'You offered a session on this question.',
  offeredBy: (name: string) => `${name} offered a session on your question.`,
  bookOffer: 'Book this session',
  offerStudentOnly: 'Only tutors and the admin can offer a session.',
  offerOwnQuestion: 'This is your own question: a session is offered to the person who asked.',
  offerOtherSubject: 'You can offer a session only on a question about a module in your subjects.',
  booked: 'You booked a session from this question.',
  seeBooking: 'See it on your dashboard',
  fromQuestion: 'From your question:',
  fromQuestionStaff: 'From the question:',
  notesTitle: 'Session notes',
  covered: 'What was covered',
  practise: 'What to practise',
  notesRequired: 'Write what was covered and what to practise.',
  notesTooLong: `Notes can be at most ${sessionNotesLimits.textMax.toLocaleString('en-ZA')} characters each.`,
  notesBeforeCompleted: 'Notes are written after the session: set the booking to Completed first.',
  notesSaved: 'Your notes are saved. The student sees them with the booking.',
  consentLabel: 'Let my tutor post a summary on my question',
  consentNeedsNotesAndQuestion: 'A summary can only be posted once the session has notes and came from a question.',
  consentStudentOnly: 'Only the student of this booking can agree to a summary on her question.',
  postSummary: 'Post summary to the question',
  awaitingConsent: 'The student has not agreed to a summary on her question yet.',
  summaryPosted: 'The summary is posted on the question.',
  summaryPostedOn: 'Summary posted on the question.',
  noQuestion: 'This booking did not come from a question: there is nowhere to post a summary.',
  noNotes: 'Write the session notes first: the summary is made from them.',
  noConsent: 'The student has not agreed to a summary on her question. Ask her to tick the box on her booking.',
  questionGone: 'The question this booking came from no longer exists.',
  questionNotYours: 'A booking can only be linked to a question you asked.',
} as const;

const notesText = z
  .string(sessionMessages.notesRequired)
  .overwrite(asLineFeeds)
  .trim()
  .min(1, sessionMessages.notesRequired)
  .max(sessionNotesLimits.textMax, sessionMessages.notesTooLong)
  .refine(isMultiLine, textMessages.multiLine);

/** The tutor's notes on a session, as stored with the booking and shown to its student. */
export const sessionNotesSchema = z.object({
  covered: z.string(),
  practise: z.string(),
  /** Who wrote them last, and when (UTC ISO). */
  by: z.object({ id: z.string().nullable(), name: z.string() }),
  at: z.string(),
});
export type SessionNotes = z.infer<typeof sessionNotesSchema>;

/** The board question a booking came from: its id and its title as it was when booked. */
export const bookingQuestionSchema = z.object({ id: z.string(), title: z.string() });
export type BookingQuestion = z.infer<typeof bookingQuestionSchema>;

/** A question's id as a booking request carries it (not only UUIDs: the old site's questions keep theirs). */
export const questionIdSchema = z.string().min(1).max(128);

/** `PUT /api/bookings/:id/notes` (a tutor of the category, the admin), once the booking is Completed. */
export const sessionNotesInputSchema = z.strictObject({
  covered: notesText,
  practise: notesText,
  version: z.number().int(),
});
export type SessionNotesInput = z.input<typeof sessionNotesInputSchema>;

/** `PUT /api/bookings/:id/summary-consent` (the booking's student): set, not toggled, so a repeat is harmless. */
export const summaryConsentInputSchema = z.strictObject({ consent: z.boolean(), version: z.number().int() });

/** `POST /api/bookings/:id/summary` (a tutor of the category, the admin): the booking as they read it. */
export const postSummaryInputSchema = z.strictObject({ version: z.number().int() });

/** `POST /api/questions/:id/offers`: a session offered on a question (tutors, the admin). */
export const sessionOfferSchema = z.object({
  questionId: z.string(),
  tutor: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
});
export type SessionOffer = z.infer<typeof sessionOfferSchema>;

/**
 * `GET /api/questions/:id/offers`: the asker sees every offer, a tutor or the admin their own. `mayOffer`: the
 * caller may offer one (staff, not the asker; a tutor, on a question about a module in their subjects or about
 * none). `booked`: the asker has a booking from this question that is not cancelled.
 */
export const sessionOffersSchema = z.object({
  offers: z.array(sessionOfferSchema),
  mayOffer: z.boolean(),
  booked: z.boolean(),
});
export type SessionOffers = z.infer<typeof sessionOffersSchema>;

/**
 * The booking page's address for an offer: the question linked and, once questions carry a module (issue 39 §3),
 * that module chosen. The notice opens it, so the draft is one tap away.
 */
export function offerBookingPath(questionId: string, moduleName?: string | null): string {
  const module = moduleName ? `module=${encodeURIComponent(moduleName)}&` : '';
  return `/booking?${module}question=${encodeURIComponent(questionId)}`;
}

/** The answer a summary posts: the notes as the student agreed to share them. */
export function summaryAnswerText(notes: Pick<SessionNotes, 'covered' | 'practise'>, tutorName: string): string {
  return `**Summary of a tutoring session with ${tutorName}**\n\n**Covered:** ${notes.covered}\n\n**To practise:** ${notes.practise}`;
}
