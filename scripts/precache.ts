import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import type { ManifestTransform } from 'workbox-build';
import { publicPageModules, readPageChunks } from './page-chunks.ts';

/**
 * What the service worker downloads (docs/decisions/0011-precache-budget.md, 0044): as a version installs, it
 * precaches what any page needs to open offline, the pages' HTML and the chunks every page loads; then
 * src/client/sw-assets.js, which it imports, fetches the public pages' own chunks, and the other chunks unless
 * the connection saves data. Used by vite.config.ts and bench/visit-bytes.ts.
 */

/** The files the worker may precache, before `pagesAndEntry` picks among them. */
export const precacheGlobPatterns = ['**/*.{js,css,html,svg,png,ico,webmanifest}'];
/** The worker's own files, which it never precaches. */
export const workerFiles = ['sw.js', 'workbox-*.js', 'assets/sw-assets-*.js', 'assets/outbox-worker-*.js'];

/**
 * Every HTML document, the CSS, the favicon and the web manifest, the chunks the entry loads at once (every
 * page loads them), and the public pages' boot script (src/client/boot.ts). Workbox precaches one file after
 * another, each a round trip on a slow connection: the rest comes after, several at a time (sw-assets.js). The
 * PNG icons are for installing the app, which the browser does online: not cached.
 */
function isPrecached(clientDir: string): (url: string) => boolean {
  const { entry } = readPageChunks(clientDir);
  return (url) =>
    url.startsWith('assets/') ? url.endsWith('.css') || entry.has(url) || isBootScript(url) : !url.endsWith('.png');
}

/** The prerendered pages' one script, emitted by vite.config.ts as `assets/boot-<hash>.js`. */
export const isBootScript = (file: string) => /^assets\/boot-[\w-]+\.js$/.test(file);

export function pagesAndEntry(clientDir: string): ManifestTransform {
  return (entries) => {
    const precached = isPrecached(clientDir);
    return { manifest: entries.filter(({ url }) => precached(url)) };
  };
}

/**
 * What sw-assets.js fetches, as `/lazy-chunks.json` lists it: `always` the public pages' own chunks (what they
 * load at once beyond the entry's), which open offline even when the connection saves data;
 * `unlessSavingData` every other chunk.
 */
export interface LazyChunks {
  always: string[];
  unlessSavingData: string[];
}

/**
 * Emits src/client/sw-assets.js under a hashed name in /assets/, so that the browser's update check, which
 * fetches the worker's imported scripts too, reads it from its HTTP cache; and adds that name to
 * `importScripts`, the array given to vite-plugin-pwa, which reads it only when it writes the worker.
 */
export function workerAddition(importScripts: string[]): Plugin {
  return {
    name: 'tutorbook:sw-assets',
    apply: 'build',
    generateBundle() {
      const source = readFileSync(path.join(import.meta.dirname, '../src/client/sw-assets.js'), 'utf8');
      importScripts.push(`/${this.getFileName(this.emitFile({ type: 'asset', name: 'sw-assets.js', source }))}`);
      // The queue's sender for Background Sync (src/client/app/outbox-worker.ts), built before by
      // vite.worker.config.ts.
      const sender = readFileSync(path.join(import.meta.dirname, '../dist/worker/outbox-worker.js'), 'utf8');
      importScripts.push(
        `/${this.getFileName(this.emitFile({ type: 'asset', name: 'outbox-worker.js', source: sender }))}`,
      );
    },
  };
}

/** Writes `lazy-chunks.json` (`LazyChunks`): every JavaScript chunk the worker does not precache, for sw-assets.js. */
export function lazyChunksList(clientDir: string): Plugin {
  return {
    name: 'tutorbook:lazy-chunks',
    apply: 'build',
    // After the files are written, Vite's manifest with them, and before vite-plugin-pwa writes the worker.
    writeBundle(_, bundle) {
      const precached = isPrecached(clientDir);
      const chunks = readPageChunks(clientDir);
      const publicPages = new Set(Object.values(publicPageModules).flatMap((module) => [...chunks.closure(module)]));
      const list: LazyChunks = { always: [], unlessSavingData: [] };
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || precached(output.fileName)) continue;
        (publicPages.has(output.fileName) ? list.always : list.unlessSavingData).push(`/${output.fileName}`);
      }
      writeFileSync(path.join(clientDir, 'lazy-chunks.json'), JSON.stringify(list));
    },
  };
}
