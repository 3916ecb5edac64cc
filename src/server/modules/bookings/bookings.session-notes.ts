import type { z } from 'zod';
import { questionTopic } from '../../../common/notices.ts';
import type { Stamp } from '../../../common/positions.ts';
import {
  summaryAnswerText,
  type postSummaryInputSchema,
  type sessionNotesInputSchema,
  type summaryConsentInputSchema,
} from '../../../common/session-notes.ts';
import type { Booking } from '../../../common/bookings.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createForbiddenError } from '../../http/errors.ts';
import { writeFollowersNotice } from '../../notices/notify.ts';
import { requireBookingStaff, requireManageable, requireVisible } from './bookings.access.ts';
import {
  createChangedMeanwhileError,
  createNoConsentError,
  createNoNotesError,
  createNoQuestionError,
  createNotesBeforeCompletedError,
  createNothingToConsentToError,
  createQuestionGoneError,
} from './bookings.errors.ts';
import { notify, readBooking } from './bookings.records.ts';
import type { BookingRecord, BookingUpdate } from './bookings.storage.ts';

/**
 * After a session (issue 39 §4): the tutor's notes, which the student sees with her booking; her consent to a
 * summary on the question the booking came from; and the summary itself, posted as the tutor's answer. Who may
 * do what: notes and the summary, a tutor of the booking's category or the admin (bookings.access.ts, as a
 * status is set); the consent, the booking's student alone. A booking another student cannot see does not exist
 * for her (404). None of these is a status change, so none adds to the booking's history; each gives it a new
 * version, so every device holding the booking hears of it and pulls it (offline too, from then on).
 */

type NotesDeps = Uses<'bookings', 'storage' | 'events' | 'clock'>;

/** Applies `update` to a booking read in this transaction, if it is still at `atVersion` (else 409). */
async function changeBooking(
  tx: Uses<'bookings', 'events'>,
  row: BookingRecord,
  atVersion: number,
  update: (stamp: Stamp) => BookingUpdate,
) {
  const [stamp] = (await tx.repos.bookings.takeStamps(1, [row.version])) as [Stamp];
  if (!(await tx.repos.bookings.updateIfAtVersion(row.id, atVersion, update(stamp))))
    throw createChangedMeanwhileError();
  notify(tx, row, stamp.version);
}

/** The tutor writes (or rewrites) the notes of a Completed session: what was covered, what to practise. */
export async function writeSessionNotes(
  deps: NotesDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof sessionNotesInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    // "After the session": Completed is what says it took place (a cancelled one has nothing to note).
    if (row.status !== 'Completed') throw createNotesBeforeCompletedError();
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const at = tx.clock.now().toISOString();
    const notes = { covered: input.covered, practise: input.practise, by: { id: staff.id, name: staff.name }, at };
    await changeBooking(tx, row, input.version, (stamp) => ({ notes, updatedAt: at, stamp }));
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * The student agrees (or no longer agrees) to a summary of the notes on her question, with its time kept (as a
 * notice's choice is: POPIA wants consent kept with its time). Set, not toggled: a repeat changes nothing.
 */
export async function setSummaryConsent(
  deps: NotesDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof summaryConsentInputSchema>,
): Promise<Booking> {
  const user = requireUser(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    const row = await requireVisible(tx, user, id);
    // Staff see the booking, but the consent is hers alone to give.
    if (row.student.id !== user.id) throw createForbiddenError();
    if (!row.notes || !row.question) throw createNothingToConsentToError();
    if (Boolean(row.summaryConsentAt) === input.consent) return;
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const at = tx.clock.now().toISOString();
    await changeBooking(tx, row, input.version, (stamp) => ({
      summaryConsentAt: input.consent ? at : null,
      updatedAt: at,
      stamp,
    }));
  });
  return readBooking(deps.repos.bookings, id);
}

/**
 * A summary posted from a session is an answer endorsed by its tutor (issue 39 §4, decision 0062's endorsement), in
 * the summary's own transaction: a blind write, as Firestore's transactions allow after the answer's insert. The
 * tutor is its author, so nobody is told of it.
 */
export async function endorseSessionSummary(
  tx: Uses<'qa'>,
  summary: { questionId: string; answerId: string; by: Me; at: string },
): Promise<void> {
  await tx.repos.qa.setEndorsement(summary.answerId, { userId: summary.by.id, at: summary.at });
}

/**
 * The tutor posts a summary of the notes as their answer to the booking's question, once, with the student's
 * consent. The answer's id is the booking's: a repeat (its response lost) finds it posted and changes nothing.
 */
export async function postSessionSummary(
  deps: Uses<'bookings' | 'qa' | 'notices', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  id: string,
  input: z.output<typeof postSummaryInputSchema>,
): Promise<Booking> {
  const staff = requireBookingStaff(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.bookings.beginChanges();
    await tx.repos.qa.beginChanges();
    const row = await requireVisible(tx, staff, id);
    requireManageable(staff, row);
    if (row.summaryPostedAt) return;
    if (!row.question) throw createNoQuestionError();
    if (!row.notes) throw createNoNotesError();
    if (!row.summaryConsentAt) throw createNoConsentError();
    if (row.version !== input.version) throw createChangedMeanwhileError();
    const question = await tx.repos.qa.findQuestion(row.question.id);
    if (!question || question.deletedAt !== null) throw createQuestionGoneError();
    const [stamp] = (await tx.repos.qa.takeStamps(1, [question.version])) as [Stamp];
    const at = tx.clock.now().toISOString();
    await changeBooking(tx, row, input.version, (bookingStamp) => ({
      summaryPostedAt: at,
      updatedAt: at,
      stamp: bookingStamp,
    }));
    const text = summaryAnswerText(row.notes, row.tutor?.name ?? staff.name);
    await tx.repos.qa.insertAnswer({ id: row.id, questionId: question.id, userId: staff.id, text, createdAt: at });
    await endorseSessionSummary(tx, { questionId: question.id, answerId: row.id, by: staff, at });
    await tx.repos.qa.setVersion(question.id, stamp);
    await writeFollowersNotice(tx, {
      topic: questionTopic(question.id),
      exceptUserId: staff.id,
      kind: 'question-answered',
      title: `New answer: ${question.title}`,
      body: `${staff.name} posted a summary of a tutoring session.`,
      path: `/qa/${question.id}`,
      params: { author: staff.name, question: question.title },
    });
    tx.events.publish({ table: 'questions', ids: [question.id], audience: 'everyone', version: stamp.version });
  });
  return readBooking(deps.repos.bookings, id);
}
