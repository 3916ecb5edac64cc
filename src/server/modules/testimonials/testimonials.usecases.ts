import type { z } from 'zod';
import type {
  createTestimonialInputSchema,
  moveTestimonialInputSchema,
  Testimonial,
  updateTestimonialInputSchema,
} from '../../../common/testimonials.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import type { ChangeNotice } from '../../events/events.ts';
import { createTestimonialNotFoundError } from './testimonials.errors.ts';

/**
 * What clients call the testimonials in change notices: every device holding the public list refreshes it. For
 * everyone, hidden ones too: a notice names ids only, and a testimonial just hidden must leave visitors' copies.
 */
const changed = (ids: readonly string[]): ChangeNotice => ({ table: 'testimonials', ids, audience: 'everyone' });

/** Only the admin curates the testimonials. Routes call it before reading the body (`checkFirst`). */
export function requireTestimonialsAdmin(me: Me | undefined): Me {
  return requireRole(me, 'admin');
}

/** What the public pages show: the testimonials not hidden, in order. */
export async function listVisibleTestimonials({ repos }: Uses<'testimonials'>): Promise<Testimonial[]> {
  return (await repos.testimonials.list()).filter((t) => !t.hidden);
}

/** Every testimonial, hidden ones included, in order: the admin's list. */
export async function listAllTestimonials({ repos }: Uses<'testimonials'>, me: Me | undefined): Promise<Testimonial[]> {
  requireTestimonialsAdmin(me);
  return repos.testimonials.list();
}

/** Adds a testimonial after all the others. */
export async function createTestimonial(
  deps: Uses<'testimonials', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  input: z.output<typeof createTestimonialInputSchema>,
): Promise<Testimonial> {
  requireTestimonialsAdmin(me);
  const now = deps.clock.now().toISOString();
  return withTransaction(deps, async (tx) => {
    const last = (await tx.repos.testimonials.list()).at(-1);
    const created = await tx.repos.testimonials.insert({
      id: crypto.randomUUID(),
      ...input,
      position: last ? last.position + 1 : 0,
      createdAt: now,
      updatedAt: now,
    });
    tx.events.publish(changed([created.id]));
    return created;
  });
}

/** Changes any of name, course, quote and hidden; fields left out stay. Hiding takes it off the public pages. */
export async function updateTestimonial(
  deps: Uses<'testimonials', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  id: string,
  input: z.output<typeof updateTestimonialInputSchema>,
): Promise<Testimonial> {
  requireTestimonialsAdmin(me);
  return withTransaction(deps, async (tx) => {
    const updated = await tx.repos.testimonials.update(id, { ...input, updatedAt: deps.clock.now().toISOString() });
    if (!updated) throw createTestimonialNotFoundError();
    tx.events.publish(changed([id]));
    return updated;
  });
}

/** Puts a testimonial at another place in the order (from 0); returns every testimonial in the new order. */
export async function moveTestimonial(
  deps: Uses<'testimonials', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  id: string,
  input: z.output<typeof moveTestimonialInputSchema>,
): Promise<Testimonial[]> {
  requireTestimonialsAdmin(me);
  const now = deps.clock.now().toISOString();
  return withTransaction(deps, async (tx) => {
    const ordered = await tx.repos.testimonials.move(id, input.position, now);
    if (!ordered) throw createTestimonialNotFoundError();
    // Moved to where it was, nothing changed: no notice. Devices read the whole list again on any notice.
    if (ordered.some((t) => t.updatedAt === now)) tx.events.publish(changed([id]));
    return ordered;
  });
}
