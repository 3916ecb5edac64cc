import { hc } from 'hono/client';
import type { ApiRoutes } from '../../server/app.ts';
import { apiFetch } from './api.ts';

/**
 * The typed client for our API: paths, inputs and answers come from the server's routes (`import type`, so no
 * server code reaches the bundle). Every call goes through `apiFetch` (timeouts, network errors); `readJson`
 * turns the answer into its typed body or an ApiError:
 * `const { modules } = await readJson(await client.api.modules.$get({}, { init: { signal } }))`.
 * A list asked for again with the ETag of the copy held answers 304 when unchanged; `readRevalidated` reads
 * that as "not modified" rather than as a refusal:
 * `const answer = await readRevalidated(await client.api.modules.$get({}, { init: { signal }, headers: ifNoneMatch(etag) }))`.
 */
export const client = hc<ApiRoutes>('/', { fetch: apiFetch });
