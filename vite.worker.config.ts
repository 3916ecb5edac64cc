import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The service worker's sender (src/client/app/outbox-worker.ts) as one classic script, for the worker Workbox
 * generates to load with `importScripts` (scripts/precache.ts `workerAddition` copies it into the client build
 * under a hashed name). Built before the client (`npm run build`), on its own: the worker cannot load the page's
 * ES module chunks.
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: path.resolve('dist/worker'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: path.resolve('src/client/app/outbox-worker.ts'),
      formats: ['iife'],
      name: 'tutorbookOutbox',
      fileName: () => 'outbox-worker.js',
    },
  },
});
