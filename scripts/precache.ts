import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import type { ManifestTransform } from 'workbox-build';
import { publicPageModules, readPageChunks } from './page-chunks.ts';

/**
 * What the service worker downloads when a version installs (docs/decisions/0011-precache-budget.md): it
 * precaches the shell and the public pages; src/client/sw-assets.js, which it imports, fetches the other
 * chunks, all of them or only those the device already used. Used by vite.config.ts and bench/visit-bytes.ts.
 */

/** The files the worker may precache, before `shellAndPublicPages` picks among them. */
export const precacheGlobPatterns = ['**/*.{js,css,html,svg,png,ico,webmanifest}'];
/** The worker's own files, which it never precaches. */
export const workerFiles = ['sw.js', 'workbox-*.js', 'assets/sw-assets-*.js'];

/**
 * Every HTML document, the CSS, what lies outside /assets/ (icons, the web manifest), the chunks the shell and
 * each public page load at once, and the public pages' boot script (src/client/boot.ts).
 */
function isPrecached(clientDir: string): (url: string) => boolean {
  const chunks = readPageChunks(clientDir);
  const needed = new Set(Object.values(publicPageModules).flatMap((module) => [...chunks.closure(module)]));
  return (url) => !url.startsWith('assets/') || url.endsWith('.css') || needed.has(url) || isBootScript(url);
}

/** The prerendered pages' one script, emitted by vite.config.ts as `assets/boot-<hash>.js`. */
export const isBootScript = (file: string) => /^assets\/boot-[\w-]+\.js$/.test(file);

export function shellAndPublicPages(clientDir: string): ManifestTransform {
  return (entries) => {
    const precached = isPrecached(clientDir);
    return { manifest: entries.filter(({ url }) => precached(url)) };
  };
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

/** Writes `lazy-chunks.json`, the URL of every JavaScript chunk the worker does not precache, for sw-assets.js. */
export function lazyChunksList(clientDir: string): Plugin {
  return {
    name: 'tutorbook:lazy-chunks',
    apply: 'build',
    // After the files are written, Vite's manifest with them, and before vite-plugin-pwa writes the worker.
    writeBundle(_, bundle) {
      const precached = isPrecached(clientDir);
      const lazy = Object.values(bundle).filter((output) => output.type === 'chunk' && !precached(output.fileName));
      writeFileSync(
        path.join(clientDir, 'lazy-chunks.json'),
        JSON.stringify(lazy.map((chunk) => `/${chunk.fileName}`)),
      );
    },
  };
}
