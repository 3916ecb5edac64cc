import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Me } from '../../common/session.ts';
import type { StreamHub } from './stream-hub.ts';

/**
 * `GET /api/events`: the live change notices as Server-Sent Events (docs/api.md). Visitors are welcome: they
 * hear the public notices. `readMe` is whatever gives the signed-in user for a request.
 */
export function createEventsRoutes(deps: { hub: StreamHub; readMe: (c: Context) => Promise<Me | undefined> }) {
  return new Hono().get('/', async (c) => {
    const me = await deps.readMe(c);
    const lastEventId = c.req.header('last-event-id') || undefined;
    const response = streamSSE(c, (stream) => deps.hub.serve(stream, { me, lastEventId }));
    // streamSSE says `no-cache`; nothing of a stream should be stored. Without X-Accel-Buffering, nginx
    // would hold events back until its buffer fills.
    response.headers.set('cache-control', 'no-store');
    response.headers.set('x-accel-buffering', 'no');
    return response;
  });
}
