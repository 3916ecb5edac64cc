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
 * The catalogue in memory, dropped on every `modules` or `resync` notice; the next read loads afresh
 * (docs/decisions/0006-catalogue-cache.md).
 */
export function createCatalogueCache(load: () => Promise<Module[]>) {
  let current: Promise<CatalogueSnapshot> | undefined;
  let loaded: CatalogueSnapshot | undefined;
  return {
    get(): Promise<CatalogueSnapshot> {
      if (!current) {
        const loading = load().then(toSnapshot);
        current = loading;
        loading.then(
          (snapshot) => {
            if (current === loading) loaded = snapshot;
          },
          // A failed load (database unreachable) is not kept: the next request tries again.
          () => {
            if (current === loading) current = undefined;
          },
        );
      }
      return current;
    },
    /** The snapshot if one is loaded and still current, without waiting or loading. */
    peek(): CatalogueSnapshot | undefined {
      return loaded;
    },
    invalidate(): void {
      current = undefined;
      loaded = undefined;
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
    compressed:
      Buffer.byteLength(json) > compressAbove ? { br: compress(json, 'br'), gzip: compress(json, 'gzip') } : undefined,
  };
}
