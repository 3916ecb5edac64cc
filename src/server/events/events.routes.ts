import { Hono } from 'hono';
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
