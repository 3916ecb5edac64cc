import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Me } from '../../common/session.ts';
import { limitKey } from './client-address.ts';
import { createError } from './errors.ts';

/**
 * Reads of the API, and the pages the server renders, counted in this process (docs/limits.md), so that a few
 * clients polling as fast as they can do not starve everyone else: at most `perMinute` a minute
 * (READS_PER_MINUTE, 1,200: a busy page asks for a handful) for each signed-in user, and for each visitor's
 * address (its IPv6 /64: `limitKey`). A signed-in request is counted against its user alone, so a student
 * shares no count with whoever else is on the school's, campus's or residence's one address; a cookie that
 * names no session is a visitor's.
 *
 * Writes have their own limits (the board's and the bookings' per user, better-auth's per address on
 * /api/auth). The health check (a load balancer's, many a minute from one address) and the catalogue (one
 * answer for everyone, kept ready: catalogue.cache.ts) are not counted, however they are answered
 * (http/prepared-answers.ts or the app). On only where better-auth's limiter is (production, or RATE_LIMIT).
 */
const uncounted = new Set(['/api/health', '/api/modules']);

/**
 * What a page the server renders counts as: the board's first page, a question with its answers, a signed-in
 * page filled in for its user each took about three API reads' time (median 7.1 ms against 1.9 ms, issue 33),
 * and each stands for reads the app would otherwise make itself. A visitor's board kept ready costs less, but a
 * request cannot be told apart from one that renders before it is answered.
 */
export const pageReads = 3;

export function createReadLimit(options: {
  perMinute: number;
  trustedProxies: number;
  /** The request's signed-in user, read once for the request (auth.middleware.ts `readSessionOnce`). */
  readMe: (c: Context) => Promise<Me | undefined>;
}) {
  const limiter = new RateLimiterMemory({ points: options.perMinute, duration: 60 });
  const count = async (c: Context, reads: number) => {
    const key = limitKey(await options.readMe(c), c, options.trustedProxies);
    try {
      await limiter.consume(key, reads);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw createError({
        code: 'request.rate_limited',
        message: 'Too many requests. Please wait a moment and try again.',
        status: 429,
        retryAfterSeconds: refusal.msBeforeNext / 1000,
      });
    }
  };
  return {
    /** For `GET /api/*`: one read each, but the uncounted. */
    reads: (async (c, next) => {
      if (!uncounted.has(c.req.path)) await count(c, 1);
      await next();
    }) satisfies MiddlewareHandler,
    /** For the pages the server renders: `pageReads` each. */
    pages: (async (c, next) => {
      await count(c, pageReads);
      await next();
    }) satisfies MiddlewareHandler,
  };
}
