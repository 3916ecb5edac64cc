import type { Testimonial } from '../../../common/testimonials.ts';

/** A testimonial as stored: the API's record plus when it was made. */
export interface NewTestimonial extends Testimonial {
  createdAt: string;
}

/** Fields an edit may change; those left out stay. `updatedAt` is always set. */
export type TestimonialChanges = Partial<Pick<Testimonial, 'name' | 'course' | 'quote' | 'hidden'>> & {
  updatedAt: string;
};

/**
 * The testimonials' storage, in their words (docs/decisions/0026): testimonials.repository.ts on SQL,
 * testimonials.firestore.ts on Firestore. Twelve or so rows that only the admin writes: lists are whole.
 */
export interface TestimonialsRepository {
  /** Every testimonial, hidden ones included, by position then id. */
  list(): Promise<Testimonial[]>;
  findById(id: string): Promise<Testimonial | undefined>;
  insert(testimonial: NewTestimonial): Promise<Testimonial>;
  /** Applies `changes`; undefined when there is no such testimonial. */
  update(id: string, changes: TestimonialChanges): Promise<Testimonial | undefined>;
  /**
   * Puts testimonial `id` at place `to` (from 0; past the end is the end) and numbers them all 0, 1, 2… in
   * their new order; undefined when there is no such testimonial. Run it in a transaction (`Storage.transaction`):
   * the order is read and written there, so two moves at once are one after the other, never a mix of both.
   * Only the rows whose position changes are written, with `updatedAt`.
   */
  move(id: string, to: number, updatedAt: string): Promise<Testimonial[] | undefined>;
}
