import type { CollectionReference } from 'firebase-admin/firestore';
import { weekdayNames, type Availability, type TimeRange } from '../../../common/availability.ts';
import { read, readAll, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type { AvailabilityRepository, TutorAvailabilityRecord } from './availability.storage.ts';

/**
 * The tutors' availability on Firestore (docs/firestore-layout.md): `availability/{tutorId}`, one document per
 * tutor, read by id (a category's tutors in one `getAll`), so no index is needed. Firestore holds no list
 * inside a list: the week is a map from the weekday's name to its ranges.
 *
 * An id no document can have names no tutor, as on SQL.
 */
interface AvailabilityDoc {
  weekly: Record<(typeof weekdayNames)[number], TimeRange[]>;
  daysOff: string[];
  bufferMinutes: number;
  updatedAt: string;
}

const toRecord = (tutorId: string, doc: AvailabilityDoc): TutorAvailabilityRecord => ({
  tutorId,
  availability: {
    weekly: weekdayNames.map((day) => doc.weekly[day].map(({ start, end }) => ({ start, end }))),
    daysOff: doc.daysOff,
    bufferMinutes: doc.bufferMinutes,
  },
  updatedAt: doc.updatedAt,
});

const toDoc = (availability: Availability, updatedAt: string): AvailabilityDoc => ({
  weekly: Object.fromEntries(
    weekdayNames.map((day, i) => [day, (availability.weekly[i] ?? []).map(({ start, end }) => ({ start, end }))]),
  ) as AvailabilityDoc['weekly'],
  daysOff: availability.daysOff,
  bufferMinutes: availability.bufferMinutes,
  updatedAt,
});

export function createAvailabilityFirestoreRepository(ctx: FirestoreContext): AvailabilityRepository {
  const availability = ctx.db.collection('availability') as CollectionReference<AvailabilityDoc>;

  return {
    async find(tutorId) {
      if (!isRecordId(tutorId)) return undefined;
      const doc = (await read(ctx, availability.doc(tutorId))).data();
      return doc && toRecord(tutorId, doc);
    },

    async findMany(tutorIds) {
      const ids = [...new Set(tutorIds)].filter(isRecordId);
      const snapshots = await readAll(
        ctx,
        ids.map((id) => availability.doc(id)),
      );
      // getAll answers in the order asked.
      return snapshots.flatMap((snapshot) => {
        const doc = snapshot.data();
        return doc ? [toRecord(snapshot.id, doc)] : [];
      });
    },

    async save({ tutorId, availability: hours, updatedAt }) {
      const ref = availability.doc(tutorId);
      const doc = toDoc(hours, updatedAt);
      if (ctx.tx) ctx.tx.set(ref, doc);
      else await ref.set(doc);
    },

    async delete(tutorId) {
      if (!isRecordId(tutorId)) return;
      const ref = availability.doc(tutorId);
      if (ctx.tx) ctx.tx.delete(ref);
      else await ref.delete();
    },
  };
}
