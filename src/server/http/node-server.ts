import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';

type Fetch = Parameters<typeof getRequestListener>[0];

/**
 * How long a client may take to send a request. Node's defaults (60 s for the headers, 300 s for the whole
 * request, checked every 30 s) let a slow or stalled client hold a connection for minutes. Our requests are
 * small (bodies are limited to 64 KB, most are under 2 KB), so even a phone on a poor 2G link sends one well
 * within these. A stream the server sends (live events) is not limited: these time the request, not the answer.
 */
export const defaultTimeouts = {
  headersMs: 15_000,
  requestMs: 30_000,
  checkEveryMs: 2_000,
} as const;

export type Timeouts = { [K in keyof typeof defaultTimeouts]: number };

/**
 * The Node HTTP server for the app. Headers every response carries are set here with Node's own
 * `setHeader`, which costs a fraction of adding them to a fetch `Headers` object per response (the API's
 * hot path, see bench/run.ts). Node merges them with the app's own; the app's win, so pages replace the
 * default CSP (which lets an API answer load and frame nothing) with the page policy and add the rest
 * of the page headers. The set here is OWASP's for APIs (REST Security Cheat Sheet, "Security headers").
 */
export function createHttpServer(fetch: Fetch, options: { production: boolean; timeouts?: Partial<Timeouts> }): Server {
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  const headers: [string, string][] = [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ...(options.production ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as [string, string]] : []),
  ];
  const listener = getRequestListener(fetch);
  return createServer(
    { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    (req, res) => {
      for (const [name, value] of headers) res.setHeader(name, value);
      return listener(req, res);
    },
  );
}
