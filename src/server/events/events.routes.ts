import { Hono, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { SessionEnv } from '../auth/auth.middleware.ts';
import type { StreamHub } from './stream-hub.ts';

/**
 * `GET /api/events`: the live change notices as Server-Sent Events (docs/api.md). Visitors are welcome: they
 * hear the public notices; the session middleware tells who else is listening (`c.var.me`).
 */
export function createEventsRoutes(deps: { hub: StreamHub }) {
  return new Hono<SessionEnv>().get('/', (c) => {
    const me = c.var.me;
    const lastEventId = c.req.header('last-event-id') || undefined;
    const response = streamSSE(c, (stream) => deps.hub.serve(stream, { me, lastEventId }));
    // streamSSE says `no-cache`; nothing of a stream should be stored. Without X-Accel-Buffering, nginx
    // would hold events back until its buffer fills.
    response.headers.set('cache-control', 'no-store');
    response.headers.set('x-accel-buffering', 'no');
    return response;
  });
}

/**
 * Every read of the API says where the live notices stood when it began (`Live-Position`, docs/api.md): the
 * position is taken before the route reads anything, so a change it missed came with a later notice.
 */
export function livePosition(hub: Pick<StreamHub, 'position'>): MiddlewareHandler {
  return async (c, next) => {
    const position = hub.position();
    await next();
    c.res.headers.set('live-position', position);
  };
}
