import { Hono, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { SessionEnv } from '../auth/auth.middleware.ts';
import type { ReadMe } from '../auth/auth.session.ts';
import { limitKey } from '../http/client-address.ts';
import { createError } from '../http/errors.ts';
import type { StreamHub } from './stream-hub.ts';

/**
 * How many event streams this process holds at once for one signed-in user, and for the visitors of one client
 * address (its IPv6 /64; a school's or a home's network may be one address for many people):
 * EVENT_STREAMS_PER_USER (10) and EVENT_STREAMS_PER_ADDRESS (200). Each stream holds a connection and a file
 * descriptor for as long as it is open; without a bound one client could hold thousands. A person's tabs share
 * one stream (client/offline/live-events.ts), so a user needs about one per browser. A signed-in stream counts
 * against its user alone: visitors filling their address's share never cost a student their live updates
 * (docs/decisions/0040).
 */
export interface StreamLimits {
  perUser: number;
  perAddress: number;
}

/**
 * The app reopens a refused stream by itself, later and later (client/offline/live-events.ts); any other
 * client is told a minute.
 */
const tooManyStreams = () =>
  createError({
    code: 'events.too_many_streams',
    message: 'Too many live connections are open. Close some tabs or devices and try again.',
    status: 429,
    retryAfterSeconds: 60,
  });

/** Counts of open streams by key; a key at 0 is forgotten. */
function createCounts() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    add(key: string) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    remove(key: string) {
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else counts.delete(key);
    },
  };
}

/**
 * `GET /api/events`: the live change notices as Server-Sent Events (docs/api.md). Visitors are welcome: they
 * hear the public notices; the session middleware tells who else is listening (`c.get('me')`). The hub reads the
 * request's session again when the holder's access may have changed, and ends the stream if it has.
 */
export function createEventsRoutes(deps: {
  hub: StreamHub;
  readMe: ReadMe;
  limits: StreamLimits;
  trustedProxies: number;
}) {
  const open = createCounts();
  return new Hono<SessionEnv>().get('/', (c) => {
    const me = c.get('me');
    const key = limitKey(me, c, deps.trustedProxies);
    if (open.of(key) >= (me ? deps.limits.perUser : deps.limits.perAddress)) throw tooManyStreams();
    const lastEventId = c.req.header('last-event-id') || undefined;
    // Only the cookie: the rest of the request (and its body) need not be kept for as long as the stream.
    const cookie = c.req.header('cookie');
    const recheck = () => deps.readMe(new Headers(cookie === undefined ? {} : { cookie }), { recheck: true });
    open.add(key);
    const response = streamSSE(c, async (stream) => {
      try {
        await deps.hub.serve(stream, { me, lastEventId, recheck });
      } finally {
        open.remove(key);
      }
    });
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
  // Set before the route runs: every answer made from the context carries it, an error's and a 304 too.
  return (c, next) => {
    c.header('live-position', hub.position(c.get('me')));
    return next();
  };
}
