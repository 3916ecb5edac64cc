import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { availabilitySchema } from '../../../common/availability.ts';
import { availabilityQuerySchema } from '../../../common/availability-api.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { answerJson, personal } from '../../http/etag.ts';
import { jsonBody, queryOf } from '../../http/json-body.ts';
import {
  getTutorAvailability,
  listCategoryAvailability,
  requireAvailabilityAccess,
  setTutorAvailability,
} from './availability.usecases.ts';

/**
 * `/api/availability`: a tutor's own (or, for the admin, any tutor's) to read and replace, and a category's
 * tutors' for any signed-in user. Needs the session middleware (app.ts).
 */
export function createAvailabilityRoutes(deps: Deps) {
  // Another's availability is refused as not allowed, whatever the body.
  const accessFirst = createMiddleware<SessionEnv>((c, next) => {
    requireAvailabilityAccess(c.get('me'), c.req.param('tutorId') ?? '');
    return next();
  });

  return new Hono<SessionEnv>()
    .get('/', checkFirst(requireUser), queryOf(availabilityQuerySchema), async (c) => {
      c.header('cache-control', personal);
      return answerJson(c, await listCategoryAvailability(deps, c.get('me'), c.req.valid('query').category));
    })
    .get('/:tutorId', async (c) => {
      c.header('cache-control', personal);
      return answerJson(c, await getTutorAvailability(deps, c.get('me'), c.req.param('tutorId')));
    })
    .put('/:tutorId', accessFirst, jsonBody(availabilitySchema), async (c) =>
      c.json(await setTutorAvailability(deps, c.get('me'), c.req.param('tutorId'), c.req.valid('json'))),
    );
}
