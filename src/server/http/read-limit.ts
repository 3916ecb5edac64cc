import type { MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { clientAddress } from './client-address.ts';
import { createError } from './errors.ts';

/**
 * Reads of the API per client address: at most `perMinute` a minute (READS_PER_MINUTE, 1,200: a busy page
 * asks for a handful, and a school's whole network may be one address), counted in this process, so that a
 * few clients polling as fast as they can do not starve everyone else. Writes have their own limits (the
 * board's and the bookings' per user, better-auth's per address on /api/auth). The health check (a load
 * balancer's, many a minute from one address) and the catalogue (one answer for everyone, kept ready:
 * catalogue.cache.ts) are not counted, however they are answered (http/prepared-answers.ts or the app). On only
 * where better-auth's limiter is (production, or RATE_LIMIT).
 */
const uncounted = new Set(['/api/health', '/api/modules']);

export function limitReads(options: { perMinute: number; trustProxy: boolean }): MiddlewareHandler {
  const limiter = new RateLimiterMemory({ points: options.perMinute, duration: 60 });
  return async (c, next) => {
    if (uncounted.has(c.req.path)) return next();
    try {
      await limiter.consume(clientAddress(c, options.trustProxy));
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw createError({
        code: 'request.rate_limited',
        message: 'Too many requests. Please wait a moment and try again.',
        status: 429,
        retryAfterSeconds: refusal.msBeforeNext / 1000,
      });
    }
    await next();
  };
}
