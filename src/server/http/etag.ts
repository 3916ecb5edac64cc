import { createHash } from 'node:crypto';
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { chooseEncoding, compress, compressAbove } from './compression.ts';

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
 * A route's JSON answer with its ETag, finished in one response: `304 Not Modified` when the client holds it
 * already (`If-None-Match`), else the text, compressed as `compressJson` would (which then leaves it alone). A
 * list a phone asks for again and again costs a few hundred bytes instead of the whole list; the answer is
 * still computed. The routes say how it may be cached (`cache-control`).
 *
 * Made from the value, not from a finished answer: reading a finished answer's text back (as a middleware
 * must) made @hono/node-server build a whole fetch `Response` for it, twice with compression (issue 22).
 * Typed as `c.json`'s answer, so `hc` clients still see the body's type.
 */
export function answerJson<T>(c: Context, value: T): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  const text = JSON.stringify(value);
  const etag = etagOf(text);
  c.header('etag', etag);
  c.header('vary', 'accept-encoding', { append: true });
  const answer = (): Response => {
    if (isFresh(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    c.header('content-type', 'application/json');
    const encoding =
      Buffer.byteLength(text) > compressAbove ? chooseEncoding(c.req.header('accept-encoding')) : undefined;
    if (!encoding) return c.body(text, 200);
    c.header('content-encoding', encoding);
    return c.body(compress(text, encoding), 200);
  };
  return answer() as Response & TypedResponse<JSONParsed<T>, 200, 'json'>;
}
