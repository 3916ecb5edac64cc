import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createAdmission } from './admission.ts';
import type { PreparedAnswers } from './prepared-answers.ts';

type Fetch = Parameters<typeof getRequestListener>[0];

/** How long a client may take to send a request, not to read the answer (docs/decisions/0007-api-headers-at-the-node-level.md). */
export const defaultTimeouts = {
  headersMs: 15_000,
  requestMs: 30_000,
  checkEveryMs: 2_000,
  /**
   * How long an idle kept-alive connection stays open: longer than any proxy in front keeps one. Google's load
   * balancers keep theirs 600 s and say the server's must be longer
   * (https://cloud.google.com/load-balancing/docs/https#timeouts_and_retries); with Node's 5 s, a proxy reusing
   * a connection the server was just closing gets "other side closed" and answers 502 (issue 33).
   */
  keepAliveMs: 620_000,
} as const;

export type Timeouts = { [K in keyof typeof defaultTimeouts]: number };

/**
 * The Node HTTP server for the app. The API's security headers are set on the Node response, the cheap
 * place; the app's own win. `prepared` answers the busiest public GETs before the app is asked
 * (docs/decisions/0007-api-headers-at-the-node-level.md).
 */
export function createHttpServer(
  fetch: Fetch,
  options: {
    production: boolean;
    timeouts?: Partial<Timeouts>;
    prepared?: PreparedAnswers;
    /**
     * At saturation, requests wait in a queue served one a turn of the event loop, and those that would wait past
     * `maxWaitMs` are refused at once with 503 (admission.ts). Off unless given: main.ts turns it on; on a test
     * server on a loaded machine the refusals would come at random.
     */
    admission?: { sliceMs: number; maxWaitMs: number; refused?: () => void };
  },
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
  const admission = options.admission && createAdmission({ ...options.admission, headers: flatHeaders });
  return createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
      keepAliveTimeout: timeouts.keepAliveMs,
    },
    (req, res) => {
      // A prepared answer is written with these headers and its own in one call, which costs less than setting them
      // first; it costs less than waiting in the queue too, so it is given at once even when the server is busy.
      if (options.prepared?.(req, res, flatHeaders)) return;
      const serve = () => {
        for (const [name, value] of headers) res.setHeader(name, value);
        void listener(req, res);
      };
      if (admission) admission.admit(req, res, serve);
      else serve();
    },
  );
}
