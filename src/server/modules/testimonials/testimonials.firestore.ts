import type { CollectionReference } from 'firebase-admin/firestore';
import { byPosition, type Testimonial } from '../../../common/testimonials.ts';
import { atomically, read, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import { moveInOrder } from './testimonials.order.ts';
import type { NewTestimonial, TestimonialChanges, TestimonialsRepository } from './testimonials.storage.ts';

/**
 * The testimonials on Firestore (docs/firestore-layout.md): `testimonials/{id}`, one document each. A list
 * reads the whole collection (a dozen documents) and orders it here, so no index is needed. A move reads the
 * collection in its transaction and writes the positions that change: two moves at once conflict, and the
 * loser runs again on the order the winner left.
 *
 * An id no document can have (`/api/testimonials/a%2Fb`) names no testimonial, as on SQL.
 */
interface TestimonialDoc {
  name: string;
  course: string;
  quote: string;
  hidden: boolean;
  position: number;
  createdAt: string;
  updatedAt: string;
}

const toTestimonial = (id: string, doc: TestimonialDoc): Testimonial => ({
  id,
  name: doc.name,
  course: doc.course,
  quote: doc.quote,
  hidden: doc.hidden,
  position: doc.position,
  updatedAt: doc.updatedAt,
});

export function createTestimonialsFirestoreRepository(ctx: FirestoreContext): TestimonialsRepository {
  const testimonials = ctx.db.collection('testimonials') as CollectionReference<TestimonialDoc>;
  const listAt = async (at: FirestoreContext) => {
    const snapshot = await (at.tx ? at.tx.get(testimonials) : testimonials.get());
    return snapshot.docs.map((d) => toTestimonial(d.id, d.data())).sort(byPosition);
  };

  return {
    list: () => listAt(ctx),

    async findById(id) {
      if (!isRecordId(id)) return undefined;
      const doc = (await read(ctx, testimonials.doc(id))).data();
      return doc && toTestimonial(id, doc);
    },

    insert: (testimonial: NewTestimonial) =>
      atomically(ctx, async ({ tx }) => {
        const doc: TestimonialDoc = {
          name: testimonial.name,
          course: testimonial.course,
          quote: testimonial.quote,
          hidden: testimonial.hidden,
          position: testimonial.position,
          createdAt: testimonial.createdAt,
          updatedAt: testimonial.updatedAt,
        };
        tx.create(testimonials.doc(testimonial.id), doc);
        return toTestimonial(testimonial.id, doc);
      }),

    update: (id, changes: TestimonialChanges) =>
      atomically(ctx, async ({ tx }) => {
        if (!isRecordId(id)) return undefined;
        const before = (await tx.get(testimonials.doc(id))).data();
        if (!before) return undefined;
        const after: TestimonialDoc = {
          ...before,
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.course !== undefined ? { course: changes.course } : {}),
          ...(changes.quote !== undefined ? { quote: changes.quote } : {}),
          ...(changes.hidden !== undefined ? { hidden: changes.hidden } : {}),
          updatedAt: changes.updatedAt,
        };
        tx.set(testimonials.doc(id), after);
        return toTestimonial(id, after);
      }),

    move: (id, to, updatedAt) =>
      atomically(ctx, async (at) => {
        const moved = moveInOrder(await listAt(at), id, to);
        if (!moved) return undefined;
        for (const row of moved.changed) at.tx.update(testimonials.doc(row.id), { position: row.position, updatedAt });
        const changed = new Set(moved.changed);
        return moved.ordered.map((row) => (changed.has(row) ? { ...row, updatedAt } : row));
      }),
  };
}
