// Apart from api.ts, which every page loads first: only the engine's sources and mutations read these.
import { readJson, type SuccessBody } from './api.ts';

/** The `If-None-Match` header that asks the server for a list only if it differs from the copy held (its ETag). */
export const ifNoneMatch = (etag: string | null): Record<string, string> => (etag ? { 'if-none-match': etag } : {});

/**
 * What a GET sent with `ifNoneMatch` found: the copy held is current (304), or the new body and its ETag. Both
 * say up to which version of its collection the answer reflects every change (`Synced-To`, null without one).
 */
export type Revalidated<T> = { syncedTo: number | null } & (
  { notModified: true } | { notModified: false; body: T; etag: string | null }
);

/** The `Synced-To` of an answer: the version of its collection up to which it reflects every change (docs/api.md). */
export function syncedToOf(response: Pick<Response, 'headers'>): number | null {
  const value = Number(response.headers.get('synced-to') ?? Number.NaN);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** `readJson` for a GET sent with `ifNoneMatch`: a 304 is the copy held still being current, not a refusal. */
export async function readRevalidated<R extends Pick<Response, 'ok' | 'status' | 'text' | 'headers'>>(
  response: R,
): Promise<Revalidated<SuccessBody<R>>> {
  const syncedTo = syncedToOf(response);
  if (response.status === 304) return { notModified: true, syncedTo };
  const body = await readJson(response);
  return { notModified: false, body, etag: response.headers.get('etag'), syncedTo };
}

/** The server's answer to a queued change (offline/outbox.ts): its body, and its `Synced-To`. */
export interface Sent<R> {
  result: R;
  syncedTo: number | null;
}

/** `readJson` for a queued change's answer: the typed body and the answer's `Synced-To`. */
export async function readSent<R extends Pick<Response, 'ok' | 'status' | 'text' | 'headers'>>(
  response: R,
): Promise<Sent<SuccessBody<R>>> {
  return { result: await readJson(response), syncedTo: syncedToOf(response) };
}
