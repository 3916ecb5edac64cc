import { Hono } from 'hono';
import { groupListQuerySchema, openGroupInputSchema, takeSeatInputSchema } from '../../../common/groups.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { jsonBody, queryOf } from '../../http/json-body.ts';
import { requireBookingStaff } from './bookings.access.ts';
import { listGroupSessions, openGroupSession, takeSeat } from './bookings.groups.ts';

/**
 * `/api/groups` (issue 36): the groups still to start, for anyone (a visitor reads them on a module's page);
 * staff open one; a signed-in user takes a seat, which is a booking (`/api/bookings` then has it).
 */
export function createGroupRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/', queryOf(groupListQuerySchema), async (c) => {
      // Seats change as students take them: never stored by a cache.
      c.header('cache-control', 'no-store');
      return c.json(await listGroupSessions(deps, c.req.valid('query')));
    })
    .post('/', checkFirst(requireBookingStaff), jsonBody(openGroupInputSchema), async (c) => {
      const { group, created } = await openGroupSession(deps, c.get('me'), c.req.valid('json'));
      return c.json(group, created ? 201 : 200);
    })
    .post('/:id/seats', checkFirst(requireUser), jsonBody(takeSeatInputSchema), async (c) => {
      const { booking, created } = await takeSeat(deps, c.get('me'), c.req.param('id'), c.req.valid('json'));
      return c.json(booking, created ? 201 : 200);
    });
}
