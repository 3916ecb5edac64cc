import type { Testimonial } from '../../../common/testimonials.ts';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import { useLocalData } from '../../offline/hooks.ts';
import type { ShownTestimonial } from './testimonials-shown.ts';
import { testimonialsSource, testimonialsTable } from './testimonials.sync.ts';

/**
 * The testimonials to show: the device's copy of the admin's list (IndexedDB, kept fresh by the engine) once it
 * holds one, and until then the build's copy, which the page was rendered with at build time (docs/decisions/0043).
 * A device that never reached the server, offline, shows the build's copy too.
 * Ordered by the `position` index, then by id: the server's order.
 */
export function useTestimonials(): { testimonials: readonly ShownTestimonial[]; fromDevice: boolean } {
  const local = useLocalData<Testimonial[]>(
    () => testimonialsTable.orderBy('position').toArray(),
    [],
    [testimonialsSource],
  );
  if (local.status === 'ready' || local.status === 'stale' || local.status === 'empty')
    return { testimonials: local.data ?? [], fromDevice: true };
  return { testimonials: testimonialSeed, fromDevice: false };
}
