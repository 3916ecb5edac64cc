import { Hono } from 'hono';
import {
  createTestimonialInputSchema,
  moveTestimonialInputSchema,
  updateTestimonialInputSchema,
} from '../../../common/testimonials.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { answerJson } from '../../http/etag.ts';
import { jsonBody } from '../../http/json-body.ts';
import {
  createTestimonial,
  listAllTestimonials,
  listVisibleTestimonials,
  moveTestimonial,
  requireTestimonialsAdmin,
  updateTestimonial,
} from './testimonials.usecases.ts';

/**
 * `/api/testimonials`: anyone reads the ones shown; the admin reads them all and curates them. The admin's
 * routes need the session middleware (app.ts).
 */
export function createTestimonialsRoutes(deps: Deps) {
  // A student's write is refused as not allowed, whatever its body.
  const adminFirst = checkFirst(requireTestimonialsAdmin);

  return (
    new Hono<SessionEnv>()
      // The same for everyone, so any cache may keep it, provided it asks again each time (a 304 while unchanged).
      .get('/', async (c) => {
        c.header('cache-control', 'no-cache');
        return answerJson(c, { testimonials: await listVisibleTestimonials(deps) });
      })
      .get('/all', async (c) => {
        // Hidden ones are the admin's business: no cache keeps them.
        c.header('cache-control', 'private, no-store');
        return answerJson(c, { testimonials: await listAllTestimonials(deps, c.get('me')) });
      })
      .post('/', adminFirst, jsonBody(createTestimonialInputSchema), async (c) =>
        c.json(await createTestimonial(deps, c.get('me'), c.req.valid('json')), 201),
      )
      .patch('/:id', adminFirst, jsonBody(updateTestimonialInputSchema), async (c) =>
        c.json(await updateTestimonial(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .post('/:id/move', adminFirst, jsonBody(moveTestimonialInputSchema), async (c) =>
        c.json({
          testimonials: await moveTestimonial(deps, c.get('me'), c.req.param('id'), c.req.valid('json')),
        }),
      )
  );
}
