import type { ApiErrorBody } from '../../common/api-error.ts';

/** The server refused the request: `code` is the stable dotted code, `message` is for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** The request never reached the server (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor() {
    super('You appear to be offline. Check your connection and try again.');
    this.name = 'NetworkError';
  }
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

export async function apiRequest<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new NetworkError();
  }
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) throw refusal(response.status, json);
  return json as T;
}

/** The error a refused request becomes; a session that has ended is announced to the listeners as well. */
function refusal(status: number, json: unknown): ApiError {
  if (!isApiErrorBody(json)) return new ApiError(status, 'unknown', 'Something went wrong. Please try again later.');
  const error = new ApiError(status, json.error.code, json.error.message, json.error.fields);
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

/** Downloads a file the server names (Content-Disposition), with the same errors as any other call. */
export async function download(path: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new NetworkError();
  }
  if (!response.ok) throw refusal(response.status, safeJson(await response.text()));
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** True when the browser knows it has no connection: writes that need the server say so instead of trying. */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
