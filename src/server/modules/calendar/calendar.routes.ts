import { Hono } from 'hono';
import type { SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { getCalendarFeed, readCalendarFeed, renewCalendarFeed } from './calendar.usecases.ts';

/** `/api/me/calendar-feed`: whether the user has a feed; make or renew it (its address, once). */
export function createCalendarFeedRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/', async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await getCalendarFeed(deps, c.get('me')));
    })
    .post('/', async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await renewCalendarFeed(deps, c.get('me')), 201);
    });
}

/** `GET /api/calendar/<secret>.ics`: the feed, for whoever holds the secret; no session is read. */
export function createCalendarRoutes(deps: Deps) {
  return new Hono().get('/:file', async (c) => {
    const file = c.req.param('file');
    const text = await readCalendarFeed(deps, file.endsWith('.ics') ? file.slice(0, -'.ics'.length) : '');
    return c.body(text, 200, {
      'content-type': 'text/calendar; charset=utf-8',
      // The user's sessions: kept by no cache between here and the calendar app, and never indexed.
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex',
      'content-disposition': 'inline; filename="tutorbook.ics"',
    });
  });
}
