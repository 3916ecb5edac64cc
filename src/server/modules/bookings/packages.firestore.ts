import type { CollectionReference, DocumentReference } from 'firebase-admin/firestore';
import { packageOfferSchema, type PackageOffer } from '../../../common/packages.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { read, readAll, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type { PackageRecord, PackagesRepository } from './packages.storage.ts';

/**
 * Monthly packages on Firestore (docs/firestore-layout.md): `packageOffers/{id}` (the offer whole) and
 * `packages/{id}` (the package whole, the student's id beside it to find theirs by a single-field query). A
 * session's transaction reads the package and writes it with the booking: of two sessions drawing the last hour,
 * one commits and the other runs again and finds it gone. `packagePaymentReferences/{reference}` holds each
 * reference, created with its package, as `bookingPaymentReferences` does for bookings.
 */
type PackageDoc = Omit<PackageRecord, 'id'> & { studentId: string | null };

const toRecord = (id: string, doc: PackageDoc): PackageRecord => ({
  id,
  offerId: doc.offerId,
  name: doc.name,
  category: doc.category,
  moduleName: doc.moduleName,
  minutes: doc.minutes,
  usedMinutes: doc.usedMinutes,
  priceCents: doc.priceCents,
  carryOver: doc.carryOver,
  lateCancel: doc.lateCancel,
  student: { ...doc.student },
  month: doc.month,
  validUntil: doc.validUntil,
  paymentReference: doc.paymentReference,
  payments: { ...doc.payments },
  createdAt: doc.createdAt,
});

/** Documents read in one round trip by `findByPaymentReferences`: a statement's packages in a few. */
const docsPerRead = 300;

const newestFirst = (a: PackageRecord, b: PackageRecord) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

export function createPackagesFirestoreRepository(ctx: FirestoreContext): PackagesRepository {
  const offers = ctx.db.collection('packageOffers') as CollectionReference<PackageOffer>;
  const packages = ctx.db.collection('packages') as CollectionReference<PackageDoc>;
  const referenceRef = (reference: string) =>
    ctx.db.doc(`packagePaymentReferences/${keyId(reference)}`) as DocumentReference<{ packageId: string }>;

  async function query(q: FirebaseFirestore.Query<PackageDoc>) {
    const snapshot = ctx.tx ? await ctx.tx.get(q) : await q.get();
    return snapshot.docs.map((doc) => toRecord(doc.id, doc.data()));
  }

  return {
    async listOffers() {
      return (await offers.get()).docs.map((doc) => packageOfferSchema.parse(doc.data()));
    },

    async findOffer(id) {
      if (!isRecordId(id)) return undefined;
      const doc = (await read(ctx, offers.doc(id))).data();
      return doc && packageOfferSchema.parse(doc);
    },

    async saveOffer(offer) {
      if (ctx.tx) ctx.tx.set(offers.doc(offer.id), { ...offer });
      else await offers.doc(offer.id).set({ ...offer });
    },

    async find(id) {
      if (!isRecordId(id)) return undefined;
      const doc = (await read(ctx, packages.doc(id))).data();
      return doc && toRecord(id, doc);
    },

    async isReferenceTaken(reference) {
      return (await read(ctx, referenceRef(reference))).exists;
    },

    async findByPaymentReferences(references) {
      // Each reference's document names its package: two reads of up to `docsPerRead` documents each, not a query
      // per reference (what bookings.firestore.ts does for the bookings' references).
      const ids: string[] = [];
      for (let i = 0; i < references.length; i += docsPerRead) {
        const held = await readAll(ctx, references.slice(i, i + docsPerRead).map(referenceRef));
        for (const doc of held) {
          const packageId = doc.data()?.packageId;
          if (packageId) ids.push(packageId);
        }
      }
      const found: PackageRecord[] = [];
      for (let i = 0; i < ids.length; i += docsPerRead) {
        const docs = await readAll(
          ctx,
          ids.slice(i, i + docsPerRead).map((id) => packages.doc(id)),
        );
        for (const doc of docs) {
          const data = doc.data();
          if (data) found.push(toRecord(doc.id, data));
        }
      }
      return found;
    },

    async insert(pkg) {
      const { id, ...rest } = pkg;
      const doc: PackageDoc = {
        ...rest,
        student: { ...pkg.student },
        payments: { ...pkg.payments },
        studentId: pkg.student.id,
      };
      if (ctx.tx) {
        ctx.tx.create(packages.doc(id), doc);
        ctx.tx.create(referenceRef(pkg.paymentReference), { packageId: id });
      } else {
        const batch = ctx.db.batch();
        batch.create(packages.doc(id), doc);
        batch.create(referenceRef(pkg.paymentReference), { packageId: id });
        await batch.commit();
      }
    },

    async ofStudent(studentId) {
      return (await query(packages.where('studentId', '==', studentId))).sort(newestFirst);
    },

    async list(limit) {
      return query(packages.orderBy('createdAt', 'desc').limit(limit)).then((all) => all.sort(newestFirst));
    },

    async update(id, change) {
      const fields = {
        ...(change.usedMinutes !== undefined ? { usedMinutes: change.usedMinutes } : {}),
        ...(change.payments ? { payments: { ...change.payments } } : {}),
      };
      if (ctx.tx) ctx.tx.update(packages.doc(id), fields);
      else await packages.doc(id).update(fields);
    },

    async setStudent(userId, student, forget) {
      const snapshot = await (ctx.tx
        ? ctx.tx.get(packages.where('studentId', '==', userId))
        : packages.where('studentId', '==', userId).get());
      for (const doc of snapshot.docs) {
        const data = doc.data();
        const change = {
          student: {
            id: forget ? null : data.student.id,
            name: student.name,
            email: student.email ?? data.student.email,
          },
          ...(forget ? { studentId: null } : {}),
        };
        if (ctx.tx) ctx.tx.update(doc.ref, change);
        else await doc.ref.update(change);
      }
    },
  };
}
