import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { logRequest } from './request-log.ts';

/** An answer made before the request came: status, headers (with the body's length) and body. */
export interface PreparedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The same headers flat (name, value, name…), as Node takes them at least cost. */
  flatHeaders: readonly string[];
  body?: string | Uint8Array<ArrayBuffer>;
}

/** A GET's answer from the request's headers, or undefined to leave the request to the app. */
export type PreparedRoute = (headers: IncomingHttpHeaders) => PreparedAnswer | undefined;

/**
 * Answers a request on the Node response, with the API's headers (node-server.ts, flat: name, value, name…)
 * and the answer's own, and returns true; or returns false for the app (Hono) to answer it.
 */
export type PreparedAnswers = (req: IncomingMessage, res: ServerResponse, apiHeaders: readonly string[]) => boolean;

/**
 * The busiest public GETs, answered on the Node response before Hono builds a request for them
 * (docs/decisions/0007-api-headers-at-the-node-level.md). Matched by exact path, so a query, a HEAD or any
 * other method goes to the app, which has the same routes; so does a request whose route returns undefined
 * (a cold cache, a check under way). Each answer gets the same request line as the app's (request-log.ts).
 */
export function createPreparedAnswers(
  logger: Logger,
  routes: Record<string, PreparedRoute>,
  /** Headers of the moment (flat), taken before the answer is: the live position (events.routes.ts). */
  momentHeaders: () => readonly string[] = () => [],
): PreparedAnswers {
  const byPath = new Map(Object.entries(routes));
  const logging = logger.isLevelEnabled('info');
  return (req, res, apiHeaders) => {
    const route = req.method === 'GET' ? byPath.get(req.url!) : undefined;
    if (!route) return false;
    const started = performance.now();
    const moment = momentHeaders();
    const answer = route(req.headers);
    if (!answer) return false;
    res.writeHead(answer.status, apiHeaders.concat(moment, answer.flatHeaders));
    res.end(answer.body);
    if (logging) logRequest(logger, 'GET', req.url!, answer.status, started);
    return true;
  };
}

/** An answer with its headers, and `content-length` when it has a body. */
export function preparedAnswer(
  status: number,
  headers: Record<string, string>,
  body?: string | Uint8Array<ArrayBuffer>,
): PreparedAnswer {
  const all = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return { status, headers: all, flatHeaders: Object.entries(all).flat(), body };
}

/** A JSON answer, serialised once. */
export function preparedJson(status: number, value: unknown): PreparedAnswer {
  return preparedAnswer(status, { 'content-type': 'application/json' }, JSON.stringify(value));
}
