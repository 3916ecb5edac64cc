import type { CollectionReference, Query } from 'firebase-admin/firestore';
import type { SessionOffer } from '../../../common/session-notes.ts';
import { atomically, read, type FirestoreContext } from '../../storage/firestore/context.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { deleteFound, query } from '../../storage/firestore/queries.ts';
import type { SessionOffersRepository } from './offers.storage.ts';

/**
 * The offers on Firestore (docs/firestore-layout.md): `sessionOffers/{question id}:{tutor id}`, so one tutor's
 * second offer on a question finds the first by its id. Lists filter on one field (the question's, or the
 * tutor's) and are ordered here: a question has a few offers, so no composite index is needed.
 */
interface OfferDoc {
  questionId: string;
  tutorId: string;
  tutorName: string;
  createdAt: string;
}

const toOffer = (doc: OfferDoc): SessionOffer => ({
  questionId: doc.questionId,
  tutor: { id: doc.tutorId, name: doc.tutorName },
  createdAt: doc.createdAt,
});

const oldestFirst = (a: SessionOffer, b: SessionOffer) =>
  a.createdAt.localeCompare(b.createdAt) ||
  a.tutor.id.localeCompare(b.tutor.id) ||
  a.questionId.localeCompare(b.questionId);

export function createSessionOffersFirestoreRepository(ctx: FirestoreContext): SessionOffersRepository {
  const offers = ctx.db.collection('sessionOffers') as CollectionReference<OfferDoc>;
  const list = async (q: Query<OfferDoc>) => (await query(ctx, q)).docs.map((d) => toOffer(d.data())).sort(oldestFirst);
  return {
    insertOnce: (offer) =>
      atomically(ctx, async ({ tx }) => {
        const ref = offers.doc(keyId(offer.questionId, offer.tutor.id));
        if ((await read({ db: ctx.db, tx }, ref)).exists) return false;
        tx.set(ref, {
          questionId: offer.questionId,
          tutorId: offer.tutor.id,
          tutorName: offer.tutor.name,
          createdAt: offer.createdAt,
        });
        return true;
      }),
    listFor: (questionId) => list(offers.where('questionId', '==', questionId)),
    listBy: (tutorId) => list(offers.where('tutorId', '==', tutorId)),
    async renameTutor(tutorId, name) {
      // Looked up outside the transaction, as deleteFound does: a rename's other parts have written by now.
      const found = await offers.where('tutorId', '==', tutorId).get();
      if (ctx.tx) for (const doc of found.docs) ctx.tx.update(doc.ref, { tutorName: name });
      else await Promise.all(found.docs.map((doc) => doc.ref.update({ tutorName: name })));
    },
    async deleteBy(tutorId) {
      await deleteFound(ctx, offers.where('tutorId', '==', tutorId));
    },
  };
}
