import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, minifySync, transformWithOxc, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { prerenderPublicPages } from './scripts/prerender.ts';
import { lazyChunksList, precacheGlobPatterns, pagesAndEntry, workerAddition } from './scripts/precache.ts';
import { brand } from './src/common/brand.ts';

const clientDir = path.resolve('dist/client');
/** The browsers the client's build is for. */
const clientTarget = 'es2022';
const ssrDir = path.resolve('dist/ssr');
/** The worker's own code beside Workbox's (src/client/sw-assets.js), named by `workerAddition` during the build. */
const importScripts: string[] = [];

/**
 * After the client build has written its files, and before the service worker's precache list is made from
 * them: the public pages rendered to HTML, from the server build that `npm run build` makes first.
 */
const prerender = (): Plugin => {
  let bootFile = '';
  return {
    name: 'tutorbook:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // The prerendered pages' one script (src/client/boot.ts), minified on its own, under a hashed name in /assets/.
    async generateBundle() {
      const file = path.resolve('src/client/boot.ts');
      const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file, { target: 'es2022' });
      const source = minifySync('boot.js', code).code;
      bootFile = `/${this.getFileName(this.emitFile({ type: 'asset', name: 'boot.js', source }))}`;
    },
    closeBundle: {
      order: 'pre',
      sequential: true,
      handler: () => prerenderPublicPages(clientDir, path.join(ssrDir, 'entry-server.js'), bootFile),
    },
  };
};

/**
 * KaTeX's style sheet (loaded where a post has maths: features/qa/post-text.tsx) names each of its fonts in WOFF2,
 * WOFF and TrueType. Every browser the app supports reads WOFF2 (the others would only be built, 40 files more).
 */
const katexWoff2Only = (): Plugin => ({
  name: 'tutorbook:katex-woff2-only',
  enforce: 'pre',
  transform(code, id) {
    if (!/[\\/]katex[\\/]dist[\\/]katex\.min\.css/.test(id)) return undefined;
    return code.replace(/,url\([^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, '');
  },
});

/** A font is never inlined into a style sheet as a `data:` URL, which the CSP's `font-src 'self'` refuses (KaTeX's smallest). */
const assetsInlineLimit = (file: string) => (/\.woff2?$/.test(file) ? false : undefined);

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: path.resolve('public'),
  build: isSsrBuild
    ? // The public pages' renderer for the prerender step (src/client/entry-server.tsx), run at build time only.
      // CSS made as in the client's build (minified, for its browsers), so that a style sheet's URL imported by the
      // app (KaTeX's) has the same hash in both.
      {
        outDir: ssrDir,
        emptyOutDir: true,
        copyPublicDir: false,
        ssr: 'entry-server.tsx',
        target: 'node24',
        cssMinify: true,
        cssTarget: clientTarget,
        assetsInlineLimit,
      }
    : {
        outDir: clientDir,
        emptyOutDir: true,
        // Maps are written for debugging but not referenced from the code, and `npm run build` moves them out of
        // the served folder (scripts/keep-sourcemaps.ts): they carry our source and build paths.
        sourcemap: 'hidden',
        // Read by scripts/page-chunks.ts (the prerender, the JavaScript budget, the worker's precache): which chunks each page loads at once.
        manifest: true,
        target: clientTarget,
        assetsInlineLimit,
        // The HTML's preloads only: a dynamic import's list of chunks would sit in the entry for every page
        // (docs/decisions/0014-no-preload-lists-for-lazy-pages.md).
        modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
        rolldownOptions: {
          output: {
            // Form validation (zod and the shared schemas) stays out of the first load; not recursive, or the entry
            // would load this chunk (docs/decisions/0008-forms-chunk.md).
            codeSplitting: {
              groups: [
                {
                  name: 'forms',
                  includeDependenciesRecursively: false,
                  test: /node_modules[\\/]zod[\\/]|src[\\/]common[\\/](auth\.schemas|zod|catalogue|profile)\.ts/,
                },
                // The icons the home page shares with later pages, in one chunk rather than one each: each chunk's
                // name in the importer and its own frame cost the first load of / about 100 bytes (its budget, which
                // this left 0.4 KB under: 2 December). Grouping the shared roles and page title too cost other pages more.
                {
                  name: 'shared-icons',
                  includeDependenciesRecursively: false,
                  test: /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](log-in|wallet|clock)\.mjs/,
                },
              ],
            },
          },
        },
      },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000' } },
  plugins: [
    katexWoff2Only(),
    react(),
    tailwindcss(),
    prerender(),
    !isSsrBuild && workerAddition(importScripts),
    !isSsrBuild && lazyChunksList(clientDir),
    // Also in the server build, which skips the worker but needs the registration module pwa.tsx imports.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      // The precache takes the favicon and the web manifest from the build's files (scripts/precache.ts); the PNG
      // icons are for installing the app, which the browser does online.
      includeManifestIcons: false,
      manifest: {
        name: `${brand.name}: tutoring for students`,
        short_name: brand.name,
        description: brand.tagline,
        lang: 'en-ZA',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: brand.themeColor,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        shortcuts: [
          { name: 'Courses', url: '/offers', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'Dashboard', url: '/student-dashboard', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: 'Community Q&A', url: '/qa', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
        ],
      },
      workbox: {
        // The pages' HTML and the entry's chunks only (docs/decisions/0011-precache-budget.md, 0044); the worker's
        // own code (src/client/sw-assets.js) fetches the public pages' chunks, and the others unless the
        // connection saves data.
        globPatterns: precacheGlobPatterns,
        manifestTransforms: [pagesAndEntry(clientDir)],
        importScripts,
        // A chunk the page loads is kept: a hashed name never changes its content. sw-assets.js fills this
        // cache too, and empties it of earlier versions.
        runtimeCaching: [
          {
            urlPattern: ({ sameOrigin, url }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'assets' },
          },
        ],
        navigateFallback: '/shell.html',
        // The API is never answered by the worker: data lives in IndexedDB, and /api/* must reach the server.
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        // The first install takes control as soon as its precache is in, so a page opened once works offline
        // without a reload.
        // Updates still wait for "Reload" (no skipWaiting), so a page never runs against a newer worker.
        clientsClaim: true,
        // The worker is Workbox's own code: its map would only publish the build machine's paths.
        sourcemap: false,
      },
    }),
  ],
}));
