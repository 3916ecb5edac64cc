import type { ClientResponse } from 'hono/client';
import type { ApiErrorBody } from '../../common/api-error.ts';

/** The server refused the request: `code` is the stable dotted code, `message` is for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** The server's `Retry-After` (a busy server, a limit): how long to wait before asking again. */
  readonly retryAfterMs?: number;
  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** The request never reached the server (offline, DNS, connection reset), or its answer never arrived whole. */
export class NetworkError extends Error {
  constructor(message = 'You appear to be offline. Check your connection and try again.') {
    super(message);
    this.name = 'NetworkError';
  }
}

/**
 * No answer within the time allowed. A kind of NetworkError, so whatever retries on a lost connection retries
 * on a timeout too; the server may still have done the work, which is why writes carry their own ids.
 */
export class TimeoutError extends NetworkError {
  constructor() {
    super('The server took too long to answer. Please try again.');
    this.name = 'TimeoutError';
  }
}

/** Long enough for a slow mobile connection, short enough that a stuck request does not keep a form busy. */
export const defaultTimeoutMs = 15_000;

export interface RequestOptions {
  /** How long the request may take, body included; `defaultTimeoutMs` when left out. */
  timeoutMs?: number;
  /** The caller's own cancel: its abort is thrown as it is, not as a NetworkError. */
  signal?: AbortSignal | null;
}

/** The codes a 401 carries when the session has ended (as opposed to, say, a wrong password at login). */
const sessionEndedCodes = new Set(['auth.unauthenticated', 'auth.unauthorized']);

/** True for a refusal that means "your session has ended": the app then offers to log in again. */
export const isSessionEnded = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 401 && sessionEndedCodes.has(error.code);

const sessionEndedListeners = new Set<() => void>();

/** Called whenever any request finds the session ended; returns the unsubscribe function. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

const answeredListeners = new Set<() => void>();

/**
 * Called whenever the server answers a request of this page, whatever it says (a refusal is an answer too);
 * returns the unsubscribe function. The offline engine counts the user's own requests as news that the server
 * is reachable, not only its background ones: a page whose live stream a network blocks still hears a 409.
 */
export function onServerAnswered(listener: () => void): () => void {
  answeredListeners.add(listener);
  return () => answeredListeners.delete(listener);
}

/**
 * Where the live notices stood as each read (GET) of this page began: the `Live-Position` of its answer, null
 * without one. Kept until the page's first live stream takes them (offline/live-events.ts), then no more.
 */
let pageReads: Promise<string | null>[] | undefined = [];

/** The positions of this page's reads so far, once: later calls get undefined, and reads are no longer kept. */
export function takePageReads(): Promise<string | null>[] | undefined {
  const reads = pageReads;
  pageReads = undefined;
  return reads;
}

/**
 * `fetch` for our API (and for hono's typed client: `hc<ApiRoutes>('/', { fetch: apiFetch })`): same-origin
 * cookie, asks for JSON, gives up after `timeoutMs` (also while the body is read) and fails with
 * TimeoutError or NetworkError. A refusal (4xx, 5xx) is still a Response: `readJson` turns it into ApiError.
 */
export async function apiFetch(input: RequestInfo | URL, init: RequestInit & RequestOptions = {}): Promise<Response> {
  const { timeoutMs = defaultTimeoutMs, signal, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const answer = fetch(input, {
      ...rest,
      headers,
      credentials: 'same-origin',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (pageReads && (rest.method ?? 'GET').toUpperCase() === 'GET')
      pageReads.push(
        answer.then(
          (response) => response.headers.get('live-position'),
          () => null,
        ),
      );
    const response = await answer;
    for (const listener of [...answeredListeners]) listener();
    return response;
  } catch (error) {
    throw signal?.aborted ? signal.reason : failure(error);
  }
}

/**
 * A file the server makes (a receipt's PDF), not JSON: not through the typed client; a refusal is read as any other
 * (ApiError), a failed fetch or body read as `failure` says.
 */
export async function fetchPdf(path: string): Promise<Blob> {
  const response = await apiFetch(path, { headers: { accept: 'application/pdf' }, timeoutMs: 30_000 });
  if (!response.ok) await readJson(response);
  try {
    return await response.blob();
  } catch (error) {
    throw failure(error);
  }
}

/** `apiFetch` with its own time allowed, for one call of hono's client: `$post(args, { fetch: fetchWithin(60_000) })`. */
export const fetchWithin =
  (timeoutMs: number): typeof fetch =>
  (input, init) =>
    apiFetch(input, { ...init, timeoutMs });

/**
 * What a failed fetch or body read becomes. Both fail with the abort reason of the request's signal: the
 * timeout's is a DOMException named TimeoutError; the caller's own cancel is passed on unchanged.
 */
export function failure(error: unknown): unknown {
  if (error instanceof DOMException && error.name === 'TimeoutError') return new TimeoutError();
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  return new NetworkError();
}

/**
 * The body of an answer in the 2xx range, as hono's typed client declares it for that route: the members of
 * the response union whose `ok` can be true (hono types `ok` from the route's status codes). A plain
 * Response's body is `unknown`.
 */
export type SuccessBody<R> =
  R extends ClientResponse<infer T, number, string> ? (true extends R['ok'] ? T : never) : unknown;

/**
 * The typed body of a 2xx answer (undefined when empty), or the ApiError a refusal carries; a session that has
 * ended is announced to the `onSessionEnded` listeners as well.
 * `const modules = await readJson(await client.api.modules.$get())`.
 */
export async function readJson<R extends Pick<Response, 'ok' | 'status' | 'text'> & { headers?: Headers }>(
  response: R,
): Promise<SuccessBody<R>> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw failure(error);
  }
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) throw refusal(response.status, json, retryAfterMs(response.headers?.get('retry-after')));
  return json as SuccessBody<R>;
}

/** `Retry-After` in seconds (what our server sends; an HTTP date is read too), capped at ten minutes. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 600_000) : undefined;
}

/** The error a refused request becomes; a session that has ended is announced to the listeners as well. */
function refusal(status: number, json: unknown, retryAfter?: number): ApiError {
  if (!isApiErrorBody(json))
    return new ApiError(status, 'unknown', 'Something went wrong. Please try again later.', {}, retryAfter);
  const error = new ApiError(status, json.error.code, json.error.message, json.error.fields, retryAfter);
  if (isSessionEnded(error)) for (const listener of sessionEndedListeners) listener();
  return error;
}

/** A plain check rather than the zod schema: this module is in the first bundle every page loads. */
function isApiErrorBody(json: unknown): json is ApiErrorBody {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A call outside our API's types (better-auth's endpoints under /api/auth): the same errors as the typed
 * client (`api-client.ts`, for everything else), and a body the caller must check before trusting it.
 */
export async function apiRequest(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<unknown> {
  const response = await apiFetch(path, {
    ...options,
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readJson(response);
}

/** True when the browser knows it has no connection: writes that need the server say so instead of trying. */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
