import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address the request came from. Headers can be forged by any client, so X-Forwarded-For is read
 * only behind our own proxy (TRUST_PROXY), and then its last entry: the one that proxy added.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  // In-process requests (app.request) have no socket.
  return (c.env as { incoming?: unknown } | undefined)?.incoming
    ? (getConnInfo(c).remote.address ?? 'unknown')
    : 'unknown';
}
