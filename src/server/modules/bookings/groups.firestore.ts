import type { CollectionReference } from 'firebase-admin/firestore';
import type { BookingCategory } from '../../../common/bookings.ts';
import { read, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type { GroupSeat, GroupSessionRecord, GroupSessionsRepository } from './groups.storage.ts';

/**
 * Group sessions on Firestore (docs/firestore-layout.md): `groupSessions/{id}`, with the seats taken inside
 * (`taken`). A seat's transaction reads the document and writes it with the seat's booking: of two students
 * taking the last seat, one commits and the other runs again and finds the group full. Listed by date with a
 * single-field range (no composite index).
 */
interface GroupDoc {
  moduleName: string;
  moduleCategory: BookingCategory;
  date: string;
  start: string;
  hours: number;
  seats: number;
  priceCents: number;
  tutorId: string | null;
  tutorName: string;
  taken: GroupSeat[];
  createdAt: string;
}

const toRecord = (id: string, doc: GroupDoc): GroupSessionRecord => ({
  id,
  moduleName: doc.moduleName,
  moduleCategory: doc.moduleCategory,
  date: doc.date,
  start: doc.start,
  hours: doc.hours,
  seats: doc.seats,
  priceCents: doc.priceCents,
  tutor: { id: doc.tutorId, name: doc.tutorName },
  taken: doc.taken.map((seat) => ({ ...seat })),
  createdAt: doc.createdAt,
});

export function createGroupSessionsFirestoreRepository(ctx: FirestoreContext): GroupSessionsRepository {
  const groups = ctx.db.collection('groupSessions') as CollectionReference<GroupDoc>;

  return {
    async find(id) {
      if (!isRecordId(id)) return undefined;
      const doc = (await read(ctx, groups.doc(id))).data();
      return doc && toRecord(id, doc);
    },

    async insert(group) {
      const doc: GroupDoc = {
        moduleName: group.moduleName,
        moduleCategory: group.moduleCategory,
        date: group.date,
        start: group.start,
        hours: group.hours,
        seats: group.seats,
        priceCents: group.priceCents,
        tutorId: group.tutor.id,
        tutorName: group.tutor.name,
        taken: group.taken.map((seat) => ({ ...seat })),
        createdAt: group.createdAt,
      };
      if (ctx.tx) ctx.tx.create(groups.doc(group.id), doc);
      else await groups.doc(group.id).create(doc);
    },

    async setTaken(id, taken) {
      const change = { taken: taken.map((seat) => ({ ...seat })) };
      if (ctx.tx) ctx.tx.update(groups.doc(id), change);
      else await groups.doc(id).update(change);
    },

    async listFrom(from) {
      const snapshot = await groups.where('date', '>=', from).orderBy('date').get();
      return snapshot.docs
        .map((doc) => toRecord(doc.id, doc.data()))
        .sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.id.localeCompare(b.id));
    },

    async ofTutor(tutorId) {
      const query = groups.where('tutorId', '==', tutorId);
      const snapshot = ctx.tx ? await ctx.tx.get(query) : await query.get();
      return snapshot.docs.map((doc) => toRecord(doc.id, doc.data()));
    },

    async setTutor(id, tutor) {
      const change = { tutorId: tutor.id, tutorName: tutor.name };
      if (ctx.tx) ctx.tx.update(groups.doc(id), change);
      else await groups.doc(id).update(change);
    },
  };
}
