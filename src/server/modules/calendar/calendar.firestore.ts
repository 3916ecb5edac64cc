import type { CollectionReference } from 'firebase-admin/firestore';
import { read, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type { CalendarFeedRecord, CalendarFeedsRepository } from './calendar.storage.ts';

/**
 * The users' calendar feeds on Firestore (docs/firestore-layout.md): `calendarFeeds/{userId}`, one document per
 * user, found by id, or by its secret's hash with an equality query (Firestore's automatic single-field index:
 * no composite index). A save replaces the document, so the old hash is gone in the same write.
 *
 * An id no document can have names nobody, as on SQL.
 */
interface CalendarFeedDoc {
  secretHash: string;
  createdAt: string;
}

const toRecord = (userId: string, doc: CalendarFeedDoc): CalendarFeedRecord => ({
  userId,
  secretHash: doc.secretHash,
  createdAt: doc.createdAt,
});

export function createCalendarFeedsFirestoreRepository(ctx: FirestoreContext): CalendarFeedsRepository {
  const feeds = ctx.db.collection('calendarFeeds') as CollectionReference<CalendarFeedDoc>;

  return {
    async find(userId) {
      if (!isRecordId(userId)) return undefined;
      const doc = (await read(ctx, feeds.doc(userId))).data();
      return doc && toRecord(userId, doc);
    },

    async findBySecretHash(secretHash) {
      const query = feeds.where('secretHash', '==', secretHash).limit(1);
      const snapshot = ctx.tx ? await ctx.tx.get(query) : await query.get();
      const found = snapshot.docs[0];
      return found && toRecord(found.id, found.data());
    },

    async save({ userId, secretHash, createdAt }) {
      const ref = feeds.doc(userId);
      const doc: CalendarFeedDoc = { secretHash, createdAt };
      if (ctx.tx) ctx.tx.set(ref, doc);
      else await ref.set(doc);
    },

    async delete(userId) {
      if (!isRecordId(userId)) return;
      const ref = feeds.doc(userId);
      if (ctx.tx) ctx.tx.delete(ref);
      else await ref.delete();
    },
  };
}
