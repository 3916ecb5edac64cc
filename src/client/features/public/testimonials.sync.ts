import type { Testimonial } from '../../../common/testimonials.ts';
import { client } from '../../lib/api-client.ts';
import { ifNoneMatch, readRevalidated } from '../../lib/revalidated.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { defineSource } from '../../offline/engine.ts';

/**
 * The testimonials the public pages show, kept for reading offline (DESIGN: "caches the catalogue, testimonials
 * and the user's bookings"). Public: `GET /api/testimonials` answers anyone and says nothing about who used the
 * device, so it stays after a log-out.
 */
export const testimonialsTable = defineLocalTable<Testimonial>({
  name: 'testimonials',
  schema: 'id, position',
  version: 1,
  scope: 'public',
});

/** The whole list in one answer: a snapshot, so one the admin hides leaves the device too. */
export const testimonialsSource = defineSource({
  name: 'testimonials',
  tables: ['testimonials'],
  needsUser: false,
  listensTo: ['testimonials'],
  pull: async ({ signal, etag }) => {
    const answer = await readRevalidated(
      await client.api.testimonials.$get({}, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    return answer.notModified
      ? answer
      : { put: { testimonials: answer.body.testimonials }, replace: true, etag: answer.etag };
  },
});
