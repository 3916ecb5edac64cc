// Apart from api.ts, which every page loads first: only the engine's sources and mutations read these.
import { formatPosition, parsePosition, type Position } from '../../common/positions.ts';
import { readJson, type SuccessBody } from './api.ts';

/** The `If-None-Match` header that asks the server for a list only if it differs from the copy held (its ETag). */
export const ifNoneMatch = (etag: string | null): Record<string, string> => (etag ? { 'if-none-match': etag } : {});

/**
 * What a GET sent with `ifNoneMatch` found: the copy held is current (304), or the new body and its ETag. Both
 * say up to which position of its collection the answer reflects every change (`Synced-To`, null without one).
 */
export type Revalidated<T> = { syncedTo: Position | null } & (
  { notModified: true } | { notModified: false; body: T; etag: string | null }
);

/**
 * The `Synced-To` of an answer: the position of its collection up to which it reflects every change
 * (docs/api.md): SQL's whole number as a one-shard position, Firestore's shards joined by `-` (0027).
 */
export function syncedToOf(response: Pick<Response, 'headers'>): Position | null {
  return parsePosition(response.headers.get('synced-to'));
}

/**
 * Where a source's changes start after its first page: the page's `Synced-To` (the page holds every change the
 * position covers to the rows it returned), kept as the text the server wrote. Without one, the newest version
 * on the page, as before; not a position on Firestore, where a row's version counts in its shard only (0027).
 */
export function firstCursor(syncedTo: Position | null, rows: readonly { version: number }[]): string {
  return syncedTo ? formatPosition(syncedTo) : String(Math.max(0, ...rows.map((row) => row.version)));
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
  syncedTo: Position | null;
}

/** `readJson` for a queued change's answer: the typed body and the answer's `Synced-To`. */
export async function readSent<R extends Pick<Response, 'ok' | 'status' | 'text' | 'headers'>>(
  response: R,
): Promise<Sent<SuccessBody<R>>> {
  return { result: await readJson(response), syncedTo: syncedToOf(response) };
}
