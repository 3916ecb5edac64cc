import type { CollectionReference } from 'firebase-admin/firestore';
import { atomically, type FirestoreContext } from '../../storage/firestore/context.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { alreadyExists, deleteFound, hasCode, query } from '../../storage/firestore/queries.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import { createAlreadyEnrolledError } from './profile.errors.ts';
import type { ProfileRepository, StoredEnrolment } from './profile.storage.ts';

/**
 * The profile on Firestore (docs/firestore-layout.md): `enrolments/{userId}:{moduleId}` holds the enrolment,
 * its own id a field. The document's name is the pair SQL keeps unique, so of two enrolments of one user in one
 * module at once (a double click) the second `create` fails, as the INSERT does on the unique index. A module
 * deleted while someone enrols has no foreign key here to refuse the enrolment: the profile lists it as a
 * module no longer offered, under the name it had (profile.usecases.ts), as it lists an older one.
 */
type EnrolmentDoc = StoredEnrolment;

const byAge = (a: StoredEnrolment, b: StoredEnrolment) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function createProfileFirestoreRepository(ctx: FirestoreContext): ProfileRepository {
  const enrolments = ctx.db.collection('enrolments') as CollectionReference<EnrolmentDoc>;
  const pairRef = (userId: string, moduleId: string) => enrolments.doc(keyId(userId, moduleId));

  return {
    async enrolmentsOf(userId) {
      // One user's few enrolments, sorted here: no composite index for `userId ==` ordered by time.
      const found = await query(ctx, enrolments.where('userId', '==', userId));
      return found.docs.map((d) => d.data()).sort(byAge);
    },

    async insertEnrolment(enrolment) {
      const doc: EnrolmentDoc = {
        id: enrolment.id,
        userId: enrolment.userId,
        moduleId: enrolment.moduleId,
        moduleName: enrolment.moduleName,
        createdAt: enrolment.createdAt,
      };
      const ref = pairRef(enrolment.userId, enrolment.moduleId);
      if (!ctx.tx) {
        // One write: `create` refuses an existing pair on its own.
        await ref.create(doc).catch((error: unknown) => {
          throw hasCode(error, alreadyExists) ? createAlreadyEnrolledError() : error;
        });
        return;
      }
      // In a usecase's transaction a failed `create` would only fail its commit: read first, to refuse in words.
      await atomically(ctx, async ({ tx }) => {
        if ((await tx.get(ref)).exists) throw createAlreadyEnrolledError();
        tx.create(ref, doc);
      });
    },

    async insertImportedEnrolment(enrolment) {
      // A module the catalogue lacks is named in the pair by its name, lower-cased, so the pair stays unique.
      const ref = pairRef(enrolment.userId, enrolment.moduleId ?? `name:${enrolment.moduleName.toLowerCase()}`);
      const doc: EnrolmentDoc = { ...enrolment };
      if (ctx.tx) ctx.tx.create(ref, doc);
      else await ref.create(doc);
    },

    async findEnrolment(id) {
      // An id from the URL no enrolment can have (over 1,500 bytes: Firestore refuses the query) finds none.
      if (!isRecordId(id)) return undefined;
      const found = await query(ctx, enrolments.where('id', '==', id).limit(1));
      return found.docs[0]?.data();
    },

    async deleteEnrolment(id, userId) {
      if (!isRecordId(id)) return;
      await deleteFound(ctx, enrolments.where('id', '==', id).where('userId', '==', userId));
    },

    async deleteEnrolmentsOf(userId) {
      await deleteFound(ctx, enrolments.where('userId', '==', userId));
    },
  };
}
