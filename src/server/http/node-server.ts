import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { PreparedAnswers } from './prepared-answers.ts';

type Fetch = Parameters<typeof getRequestListener>[0];

/** How long a client may take to send a request, not to read the answer (docs/decisions/0007-api-headers-at-the-node-level.md). */
export const defaultTimeouts = {
  headersMs: 15_000,
  requestMs: 30_000,
  checkEveryMs: 2_000,
} as const;

export type Timeouts = { [K in keyof typeof defaultTimeouts]: number };

/**
 * The Node HTTP server for the app. The API's security headers are set on the Node response, the cheap
 * place; the app's own win. `prepared` answers the busiest public GETs before the app is asked
 * (docs/decisions/0007-api-headers-at-the-node-level.md).
 */
export function createHttpServer(
  fetch: Fetch,
  options: { production: boolean; timeouts?: Partial<Timeouts>; prepared?: PreparedAnswers },
): Server {
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  const headers: [string, string][] = [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ...(options.production
      ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as [string, string]]
      : []),
  ];
  const flatHeaders = headers.flat();
  const listener = getRequestListener(fetch);
  return createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    (req, res) => {
      // A prepared answer is written with these headers and its own in one call, which costs less than setting them first.
      if (options.prepared?.(req, res, flatHeaders)) return;
      for (const [name, value] of headers) res.setHeader(name, value);
      return listener(req, res);
    },
  );
}
