import type { Module } from '../../../common/catalogue.ts';
import { compress, compressAbove } from '../../http/compression.ts';
import { etagOf } from '../../http/etag.ts';

export interface CatalogueSnapshot {
  /** By category, then name. */
  modules: readonly Module[];
  bySlug: ReadonlyMap<string, Module>;
  /** `{ modules }` as JSON: what GET /api/modules sends, serialised once per change rather than per request. */
  json: string;
  /** Its validator, and its compressed forms when it is worth compressing: made once per change too. */
  etag: string;
  compressed?: { br: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };
}

export type CatalogueCache = ReturnType<typeof createCatalogueCache>;

/**
 * The catalogue in memory. Every page load of the app asks for it, as do /modules/<slug> page loads, while
 * it changes only when the admin edits it: reading ten rows and serialising them on every request cost
 * GET /api/modules most of its throughput (bench/run.ts).
 *
 * Every write to `modules` goes through catalogue.usecases.ts, which invalidates this copy once the write is
 * committed and publishes a `modules` notice on the event bus; every process's copy subscribes to the bus
 * (catalogue.usecases.ts `createCatalogueDeps`) and is invalidated by any `modules` notice, and by a
 * `resync` (notices may have been missed), so a write in another process sharing the database is seen here
 * as soon as its notice arrives. The next read loads afresh. A read that was loading during the write
 * answers the callers that asked before it finished, and is not kept.
 */
export function createCatalogueCache(load: () => Promise<Module[]>) {
  let current: Promise<CatalogueSnapshot> | undefined;
  return {
    get(): Promise<CatalogueSnapshot> {
      if (!current) {
        const loading = load().then(toSnapshot);
        current = loading;
        // A failed load (database unreachable) is not kept: the next request tries again.
        loading.catch(() => {
          if (current === loading) current = undefined;
        });
      }
      return current;
    },
    invalidate(): void {
      current = undefined;
    },
  };
}

function toSnapshot(modules: Module[]): CatalogueSnapshot {
  const json = JSON.stringify({ modules });
  return {
    modules,
    bySlug: new Map(modules.map((m) => [m.slug, m])),
    json,
    etag: etagOf(json),
    compressed: Buffer.byteLength(json) > compressAbove ? { br: compress(json, 'br'), gzip: compress(json, 'gzip') } : undefined,
  };
}
