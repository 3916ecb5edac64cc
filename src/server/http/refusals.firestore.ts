import type { CollectionReference } from 'firebase-admin/firestore';
import { atomically, read, type FirestoreContext } from '../storage/firestore/context.ts';
import { deleteFound } from '../storage/firestore/queries.ts';
import type { ChangeRefusal, RefusalsRepository } from './refusals.storage.ts';

/**
 * Refusals on Firestore (docs/firestore-layout.md): `changeRefusals/{userId}:{changeId}`, named by the pair SQL
 * keeps unique, so the same change sent twice at once meets on one document: the transaction that stores it
 * reads it first, and of two at once the second runs again and finds the first's.
 */
type RefusalDoc = ChangeRefusal;

export function createRefusalsFirestoreRepository(ctx: FirestoreContext): RefusalsRepository {
  const refusals = ctx.db.collection('changeRefusals') as CollectionReference<RefusalDoc>;
  const refOf = (userId: string, changeId: string) =>
    refusals.doc(`${encodeURIComponent(userId)}:${encodeURIComponent(changeId)}`);

  return {
    async find(userId, changeId, since) {
      const doc = (await read(ctx, refOf(userId, changeId))).data();
      return doc && doc.createdAt >= since ? { status: doc.status, body: doc.body } : undefined;
    },

    async store(refusal, expiredBefore) {
      // Refusals are rare and `createdAt <` one field's index finds none cheaply; outside the transaction, so
      // that it holds one document only. An expired refusal of this very change is replaced below anyway.
      await deleteFound({ db: ctx.db }, refusals.where('createdAt', '<', expiredBefore));
      const ref = refOf(refusal.userId, refusal.changeId);
      return atomically(ctx, async ({ tx }) => {
        const stored = (await tx.get(ref)).data();
        if (stored && stored.createdAt >= expiredBefore) return false;
        tx.set(ref, {
          userId: refusal.userId,
          changeId: refusal.changeId,
          status: refusal.status,
          body: refusal.body,
          createdAt: refusal.createdAt,
        });
        return true;
      });
    },

    async deleteOf(userId) {
      await deleteFound(ctx, refusals.where('userId', '==', userId));
    },
  };
}
