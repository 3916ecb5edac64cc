import { offerBookingPath, type SessionOffer, type SessionOffers } from '../../../common/session-notes.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { writeNotices } from '../../notices/notify.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import type { Module } from '../../../common/catalogue.ts';
import {
  createNotStaffError,
  createOtherSubjectError,
  createOwnQuestionError,
  createQuestionNotFoundError,
} from './sessions.errors.ts';

/**
 * From a question to a session (issue 39 §4): a tutor or the admin offers a session on a board question; its
 * asker hears of it (a notice that opens the booking page with the question linked, common/session-notes.ts
 * `offerBookingPath`) and sees who offered on the question's page. One offer per tutor and question: a second
 * is answered with the first and tells nobody again. What follows the session (notes, consent, the summary) is
 * the bookings' (bookings.session-notes.ts).
 */

type OfferDeps = Uses<'qa' | 'catalogue' | 'sessionOffers' | 'notices', 'storage' | 'events' | 'clock'>;

function requireStaff(me: Me | undefined): Me {
  const user = requireUser(me);
  if (user.role !== 'tutor' && user.role !== 'admin') throw createNotStaffError();
  return user;
}

async function requireAskedQuestion(deps: Uses<'qa'>, questionId: string) {
  const question = await deps.repos.qa.findQuestion(questionId);
  if (!question || question.deletedAt !== null || question.userId === null) throw createQuestionNotFoundError();
  return { ...question, userId: question.userId };
}

/** The catalogue module a question is about; none for "Other" or a module deleted since. */
async function moduleOf(deps: Uses<'catalogue'>, slug: string | null): Promise<Module | undefined> {
  return slug === null ? undefined : (await deps.repos.catalogue.list()).find((m) => m.slug === slug);
}

/**
 * Whether a member of staff's offer is theirs to make: the admin's always; a tutor's on a question about a module
 * of their subjects (its booking is theirs to confirm), or about none ("Other": the student chooses the module).
 */
const inTheirSubjects = (user: Me, module: Module | undefined) =>
  user.role === 'admin' || module === undefined || user.categories.includes(module.category);

/** Offers a session on a question: stored once per tutor, and the asker told the first time. */
export async function offerSession(
  deps: OfferDeps,
  me: Me | undefined,
  questionId: string,
): Promise<{ offer: SessionOffer; created: boolean }> {
  const tutor = requireStaff(me);
  return withTransaction(deps, async (tx) => {
    const question = await requireAskedQuestion(tx, questionId);
    if (question.userId === tutor.id) throw createOwnQuestionError();
    const module = await moduleOf(tx, question.moduleSlug);
    if (!inTheirSubjects(tutor, module)) throw createOtherSubjectError();
    const offer: SessionOffer = {
      questionId,
      tutor: { id: tutor.id, name: tutor.name },
      createdAt: tx.clock.now().toISOString(),
    };
    if (!(await tx.repos.sessionOffers.insertOnce(offer))) {
      const before = (await tx.repos.sessionOffers.listFor(questionId)).find((o) => o.tutor.id === tutor.id);
      return { offer: before ?? offer, created: false };
    }
    await writeNotices(
      tx,
      [
        {
          userId: question.userId,
          kind: 'session-offered',
          title: `A session offered: ${question.title}`,
          body: `${tutor.name} offered you a tutoring session on your question. Tap to book it.`,
          // The booking page with the question linked and its module chosen.
          path: offerBookingPath(questionId, module?.name),
          params: { author: tutor.name, question: question.title },
        },
      ],
      tutor.id,
    );
    return { offer, created: true };
  });
}

/**
 * The offers on a question: its asker sees them all, and whether she booked a session from it; a tutor or the
 * admin their own (to not offer twice), and whether they may offer. Anyone else is refused: a visitor 401,
 * another student 403.
 */
export async function listOffers(
  deps: Uses<'qa' | 'catalogue' | 'sessionOffers' | 'bookings'>,
  me: Me | undefined,
  questionId: string,
): Promise<SessionOffers> {
  const user = requireUser(me);
  const question = await requireAskedQuestion(deps, questionId);
  const offers = await deps.repos.sessionOffers.listFor(questionId);
  if (question.userId === user.id) {
    const booked = (await deps.repos.bookings.listOf(user.id)).some(
      (b) => b.student.id === user.id && b.question?.id === questionId && b.status !== 'Cancelled',
    );
    return { offers, mayOffer: false, booked };
  }
  if (user.role !== 'tutor' && user.role !== 'admin') throw createNotStaffError();
  return {
    offers: offers.filter((o) => o.tutor.id === user.id),
    mayOffer: inTheirSubjects(user, await moduleOf(deps, question.moduleSlug)),
    booked: false,
  };
}

/** The offers a tutor made are theirs: in their export, gone with their account, renamed with them. */
export const sessionsPersonalData: PersonalDataPart = {
  async exportFor(deps, me) {
    return { sessionOffers: await deps.repos.sessionOffers.listBy(me.id) };
  },
  async eraseFor(tx, userId) {
    await tx.repos.sessionOffers.deleteBy(userId);
  },
  async renameFor(tx, userId, name) {
    await tx.repos.sessionOffers.renameTutor(userId, name);
  },
};
