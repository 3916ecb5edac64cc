// Apart from api.ts, which every page loads first: only the engine's sources revalidate.
import { readJson, type SuccessBody } from './api.ts';

/** The `If-None-Match` header that asks the server for a list only if it differs from the copy held (its ETag). */
export const ifNoneMatch = (etag: string | null): Record<string, string> => (etag ? { 'if-none-match': etag } : {});

/** What a GET sent with `ifNoneMatch` found: the copy held is current (304), or the new body and its ETag. */
export type Revalidated<T> = { notModified: true } | { notModified: false; body: T; etag: string | null };

/** `readJson` for a GET sent with `ifNoneMatch`: a 304 is the copy held still being current, not a refusal. */
export async function readRevalidated<R extends Pick<Response, 'ok' | 'status' | 'text' | 'headers'>>(
  response: R,
): Promise<Revalidated<SuccessBody<R>>> {
  if (response.status === 304) return { notModified: true };
  const body = await readJson(response);
  return { notModified: false, body, etag: response.headers.get('etag') };
}
