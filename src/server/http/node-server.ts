import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';

type Fetch = Parameters<typeof getRequestListener>[0];

/**
 * The Node HTTP server for the app. Headers every response carries are set here with Node's own
 * `setHeader`, which costs a fraction of adding them to a fetch `Headers` object per response (the API's
 * hot path, see bench/run.ts). Node merges them with the app's own; the app's win, so pages replace the
 * default CSP (which lets an API answer load and frame nothing) with the page policy and add the rest
 * of the page headers. The set here is OWASP's for APIs (REST Security Cheat Sheet, "Security headers").
 */
export function createHttpServer(fetch: Fetch, options: { production: boolean }): Server {
  const headers: [string, string][] = [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ...(options.production ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as [string, string]] : []),
  ];
  const listener = getRequestListener(fetch);
  return createServer((req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    return listener(req, res);
  });
}
