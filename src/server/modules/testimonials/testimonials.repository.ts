import type { Selectable, Updateable } from 'kysely';
import type { Testimonial } from '../../../common/testimonials.ts';
import type { Db, DbKind } from '../../db/create-db.ts';
import { moveInOrder } from './testimonials.order.ts';
import type { NewTestimonial, TestimonialChanges, TestimonialsRepository } from './testimonials.storage.ts';
import type { TestimonialsTable } from './testimonials.table.ts';

type TestimonialRow = Selectable<TestimonialsTable>;

const toTestimonial = (row: TestimonialRow): Testimonial => ({
  id: row.id,
  name: row.name,
  course: row.course,
  quote: row.quote,
  hidden: row.hidden === 1,
  position: row.position,
  updatedAt: row.updated_at,
});

/**
 * The testimonials on SQLite and PostgreSQL (`testimonials`). `kind`: a move locks the rows it reads on
 * PostgreSQL, whose transactions run side by side; SQLite's run one at a time already.
 */
export function createTestimonialsRepository(db: Db, kind: DbKind): TestimonialsRepository {
  const all = () => db.selectFrom('testimonials').selectAll().orderBy('position').orderBy('id');
  return {
    list: async () => (await all().execute()).map(toTestimonial),

    async findById(id) {
      const row = await db.selectFrom('testimonials').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toTestimonial(row);
    },

    async insert(testimonial: NewTestimonial) {
      const row = await db
        .insertInto('testimonials')
        .values({
          id: testimonial.id,
          name: testimonial.name,
          course: testimonial.course,
          quote: testimonial.quote,
          hidden: testimonial.hidden ? 1 : 0,
          position: testimonial.position,
          created_at: testimonial.createdAt,
          updated_at: testimonial.updatedAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toTestimonial(row);
    },

    async update(id, changes: TestimonialChanges) {
      const set: Updateable<TestimonialsTable> = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.course !== undefined ? { course: changes.course } : {}),
        ...(changes.quote !== undefined ? { quote: changes.quote } : {}),
        ...(changes.hidden !== undefined ? { hidden: changes.hidden ? 1 : 0 } : {}),
        updated_at: changes.updatedAt,
      };
      const row = await db.updateTable('testimonials').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toTestimonial(row);
    },

    async move(id, to, updatedAt) {
      // Locked until the transaction ends: a second move waits, then reads the order this one leaves. Locked by
      // id, which no move changes: in the order of positions, two moves would lock in two orders and deadlock.
      const rows = (
        await (
          kind === 'postgres' ? db.selectFrom('testimonials').selectAll().orderBy('id').forUpdate() : all()
        ).execute()
      ).map(toTestimonial);
      const moved = moveInOrder(rows, id, to);
      if (!moved) return undefined;
      for (const row of moved.changed)
        await db
          .updateTable('testimonials')
          .set({ position: row.position, updated_at: updatedAt })
          .where('id', '=', row.id)
          .execute();
      const changed = new Set(moved.changed);
      return moved.ordered.map((row) => (changed.has(row) ? { ...row, updatedAt } : row));
    },
  };
}
