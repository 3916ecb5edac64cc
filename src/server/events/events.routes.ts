import { Hono, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { SessionEnv } from '../auth/auth.middleware.ts';
import type { AccountsRepository } from '../auth/accounts.storage.ts';
import type { Auth } from '../auth/auth.ts';
import { readMe } from '../auth/auth.session.ts';
import type { StreamHub } from './stream-hub.ts';

/**
 * `GET /api/events`: the live change notices as Server-Sent Events (docs/api.md). Visitors are welcome: they
 * hear the public notices; the session middleware tells who else is listening (`c.var.me`). The hub reads the
 * request's session again when the holder's access may have changed, and ends the stream if it has.
 */
export function createEventsRoutes(deps: { hub: StreamHub; auth: Auth; accounts: AccountsRepository }) {
  return new Hono<SessionEnv>().get('/', (c) => {
    const me = c.var.me;
    const lastEventId = c.req.header('last-event-id') || undefined;
    // Only the cookie: the rest of the request (and its body) need not be kept for as long as the stream.
    const cookie = c.req.header('cookie');
    const recheck = () => readMe(deps, new Headers(cookie === undefined ? {} : { cookie }), { recheck: true });
    const response = streamSSE(c, (stream) => deps.hub.serve(stream, { me, lastEventId, recheck }));
    // streamSSE says `no-cache`; nothing of a stream should be stored. Without X-Accel-Buffering, nginx
    // would hold events back until its buffer fills.
    response.headers.set('cache-control', 'no-store');
    response.headers.set('x-accel-buffering', 'no');
    return response;
  });
}

/**
 * Every read of the API says where the live notices its reader may hear stood when it began (`Live-Position`,
 * docs/api.md): the position is taken before the route reads anything, so a change it missed came with a
 * later notice. It runs after the session middleware, where a route has one: a route without it answers
 * public data, with a visitor's position.
 */
export function livePosition(hub: Pick<StreamHub, 'position'>): MiddlewareHandler<SessionEnv> {
  return async (c, next) => {
    const position = hub.position(c.var.me);
    await next();
    c.res.headers.set('live-position', position);
  };
}
