import { Hono } from 'hono';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { personal } from '../../http/etag.ts';
import { listOffers, offerSession } from './sessions.usecases.ts';

/** `/api/questions/:id/offers` (issue 39 §4): sessions offered on a board question. */
export function createSessionOfferRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/:id/offers', checkFirst(requireUser), async (c) => {
      c.header('cache-control', personal);
      return c.json(await listOffers(deps, c.get('me'), c.req.param('id')));
    })
    .post('/:id/offers', checkFirst(requireUser), async (c) => {
      const { offer, created } = await offerSession(deps, c.get('me'), c.req.param('id'));
      return c.json(offer, created ? 201 : 200);
    });
}
