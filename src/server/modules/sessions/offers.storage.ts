import type { SessionOffer } from '../../../common/session-notes.ts';

/**
 * The sessions offered on board questions (issue 39 §4), in their own words (docs/decisions/0026):
 * offers.repository.ts on SQL, offers.firestore.ts on Firestore. One offer per tutor and question.
 */
export interface SessionOffersRepository {
  /** Stores the offer unless this tutor offered on this question already: true when it was stored now. */
  insertOnce(offer: SessionOffer): Promise<boolean>;
  /** The offers on a question, oldest first. */
  listFor(questionId: string): Promise<SessionOffer[]>;
  /** A tutor's offers, oldest first (the data export). */
  listBy(tutorId: string): Promise<SessionOffer[]>;
  /** A rename: the tutor's name on their offers. */
  renameTutor(tutorId: string, name: string): Promise<void>;
  /** The tutor's account's deletion: their offers go. */
  deleteBy(tutorId: string): Promise<void>;
}
