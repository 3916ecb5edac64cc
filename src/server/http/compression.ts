import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** Below this a compressed answer saves less than its headers and the work cost. */
export const compressAbove = 1024;

export type Encoding = 'br' | 'gzip';

/** The encoding to send, brotli first (smaller), from the request's `Accept-Encoding`. */
export function chooseEncoding(accepted: string | undefined): Encoding | undefined {
  if (!accepted) return undefined;
  const offers = new Map(
    accepted.split(',').map((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return [name, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  const allowed = (name: Encoding) => (offers.get(name) ?? offers.get('*') ?? 0) > 0;
  return allowed('br') ? 'br' : allowed('gzip') ? 'gzip' : undefined;
}

/**
 * Brotli at quality 5 and gzip at level 6: close to their best ratio on JSON for a fraction of the time of
 * their highest levels. Synchronous: our answers are tens of KB at most, less work than a trip through
 * libuv's thread pool would add.
 */
export function compress(text: string | Buffer, encoding: Encoding): Uint8Array<ArrayBuffer> {
  const out =
    encoding === 'br'
      ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : gzipSync(text, { level: 6 });
  // zlib's output never lives in a SharedArrayBuffer, which is all that keeps a Buffer from being a BodyInit.
  return out as Uint8Array<ArrayBuffer>;
}

/**
 * JSON answers over 1 KB compressed for a client that accepts it, `Vary: Accept-Encoding` on every JSON answer
 * so a cache keeps the variants apart: for the routes app.ts names (the lists answer through `answerJson`, which
 * does the same itself). Only JSON: the live event stream (text/event-stream) must reach
 * the client event by event, and the static files are compressed at build time (static.ts).
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // Finished by `answerJson` (etag.ts), compression and `Vary` included.
    if (res.headers.has('etag')) return;
    if (res.status === 304) res.headers.append('vary', 'accept-encoding');
    if (!res.headers.get('content-type')?.startsWith('application/json') || res.headers.has('content-encoding')) return;
    res.headers.append('vary', 'accept-encoding');
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding || !res.body) return;
    const body = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    c.res = undefined;
    if (body.byteLength <= compressAbove) {
      c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, headers });
      return;
    }
    headers.set('content-encoding', encoding);
    headers.delete('content-length');
    c.res = new Response(compress(body, encoding), { status: res.status, headers });
  };
}
