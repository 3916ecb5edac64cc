import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { isKnownPagePath } from '../../common/routes.ts';

const noCache = 'no-cache';
const yearLong = 'public, max-age=31536000, immutable';
/** Files whose names do not change between releases: the browser must check them every time. */
const unhashed = /^\/(index\.html|sw\.js|registerSW\.js|workbox-[^/]*\.js|manifest\.webmanifest)$/;

const modulePage = /^\/modules\/([^/]+)\/?$/;

/**
 * Serves the built PWA: hashed assets cached for a year, the shell and the service worker never,
 * and index.html for every page path (status 404 for paths the app does not know, and for
 * /modules/<slug> when no module has that slug: `moduleExists` answers from the catalogue's memory).
 */
export function createStaticRoutes(clientDir: string, options: { moduleExists?: (slug: string) => Promise<boolean> } = {}) {
  const app = new Hono();
  const indexFile = path.join(clientDir, 'index.html');
  // Kept in memory, and read again when a new build replaces it (or appears after start-up).
  let index: { mtimeMs: number; html: string } | undefined;
  const readIndex = () => {
    const mtimeMs = statSync(indexFile, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    if (index?.mtimeMs !== mtimeMs) index = { mtimeMs, html: readFileSync(indexFile, 'utf8') };
    return index.html;
  };

  const serveIndex = (c: Context, status: 200 | 404) => {
    const html = readIndex();
    if (!html) return c.text('The client is not built yet: run `npm run build`.', 503);
    c.header('cache-control', noCache);
    return c.html(html, status);
  };

  // The shell is the most requested file: answer it from memory rather than from disk. The service
  // worker precaches /index.html itself, so that path is a 200 too.
  app.get('/', (c) => serveIndex(c, 200));
  app.get('/index.html', (c) => serveIndex(c, 200));
  // Made once the build exists: serveStatic warns about a missing folder when it is created (the CLI and
  // the tests run without a build), and a build may finish after start-up.
  let assets: MiddlewareHandler | undefined;
  const createAssets = () =>
    serveStatic({
      root: path.relative(process.cwd(), clientDir),
      // `npm run build` writes .br and .gz beside each text asset (scripts/compress-assets.ts).
      precompressed: true,
      onFound: (filePath, c) => {
        const name = `/${path.relative(clientDir, filePath)}`.replace(/\.(br|gz|zst)$/, '');
        c.header('cache-control', name.startsWith('/assets/') && !unhashed.test(name) ? yearLong : noCache);
      },
    });
  // Source maps are kept off the served folder by the build (scripts/keep-sourcemaps.ts); should one be left
  // there (a build by other means), it is still not served: it holds our source and the build's paths.
  app.get('*', (c, next) => (c.req.path.endsWith('.map') ? serveIndex(c, 404) : next()));
  app.use('*', (c, next) => {
    assets ??= existsSync(clientDir) ? createAssets() : undefined;
    return assets ? assets(c, next) : next();
  });

  app.get('*', async (c) => {
    const pathname = c.req.path;
    if (!isKnownPagePath(pathname)) return serveIndex(c, 404);
    const slug = modulePage.exec(pathname)?.[1];
    // Should the catalogue be unreadable (database down), the page still loads: the client then decides.
    const known = slug === undefined || !options.moduleExists || (await options.moduleExists(slug).catch(() => true));
    return serveIndex(c, known ? 200 : 404);
  });
  return app;
}
