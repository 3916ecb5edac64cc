import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/**
 * How public lists are cached (the catalogue, the board as a visitor reads it): not `no-store`, since a
 * browser sends `If-None-Match` only for an answer it has kept; `private` and `no-cache`, so the browser asks
 * again every time and gets a 304 while the list is unchanged.
 */
export const revalidatePrivately = 'private, no-cache';

/**
 * A reader's own lists (bookings, votes, enrolments, the board with their votes) are never kept by the
 * browser's HTTP cache: log-out clears the device's copy of them (IndexedDB), and the HTTP cache cannot be
 * cleared from a page. They still carry an ETag, so a client that keeps the ETag with its copy and sends it
 * back (`If-None-Match`) gets a 304.
 */
export const personal = 'private, no-store';

/**
 * A weak validator for a JSON text: weak, because the same answer is sent gzip- or brotli-compressed or not
 * (compression.ts), which a strong ETag would have to tell apart.
 */
export function etagOf(text: string): string {
  return `W/"${createHash('sha1').update(text).digest('base64url')}"`;
}

/** Whether the request's `If-None-Match` names this ETag (weak comparison, RFC 9110 §13.1.2). */
export function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/**
 * A 304 carrying what the 200 would have carried that matters to a cache (RFC 9110 §15.4.5), and any cookie
 * set on the way (a refreshed session).
 */
export function notModified(etag: string, headers: Headers | Record<string, string>): Response {
  const all = new Headers(headers);
  const kept = new Headers({ etag });
  for (const name of ['cache-control', 'vary', 'content-location', 'expires']) {
    const value = all.get(name);
    if (value) kept.set(name, value);
  }
  for (const cookie of all.getSetCookie()) kept.append('set-cookie', cookie);
  return new Response(null, { status: 304, headers: kept });
}

/**
 * `ETag` on a route's 200 JSON answer, and `304 Not Modified` when the client already holds it: a list a
 * phone asks for again and again costs a few hundred bytes instead of the whole list. The answer is still
 * computed; what is saved is the data sent. The routes say how it may be cached (`cache-control`).
 */
export function withEtag(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET' || c.res.status !== 200 || c.res.headers.has('etag')) return;
    const res = c.res;
    const text = await res.text();
    const etag = etagOf(text);
    const headers = new Headers(res.headers);
    headers.set('etag', etag);
    // Unset first: Hono would otherwise copy the spent answer's headers onto the new one.
    c.res = undefined;
    c.res = isFresh(c.req.header('if-none-match'), etag)
      ? notModified(etag, headers)
      : new Response(text, { status: 200, headers });
  };
}
