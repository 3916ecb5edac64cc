import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { fillPage } from '../../common/page-user.ts';
import {
  isKnownPagePath,
  prerenderedPages,
  shellFile,
  signedInPageFile,
  signedInPages,
  signedInPagesDir,
  type SignedInPagePath,
} from '../../common/routes.ts';
import type { SessionEnv } from '../auth/auth.middleware.ts';
import { chooseEncoding, compress } from './compression.ts';
import { isFresh } from './etag.ts';

const noCache = 'no-cache';
const yearLong = 'public, max-age=31536000, immutable';
/** Files whose names do not change between releases: the browser must check them every time. */
const unhashed = /^\/([\w-]+\.html|sw\.js|registerSW\.js|manifest\.webmanifest)$/;
/**
 * The Workbox runtime sw.js imports, named by its content (Rollup's chunk hash, workbox-build's bundle.js): kept
 * a year like /assets/, so the browser's check for a new worker, which asks again for every script the worker
 * imported through the HTTP cache, costs nothing for it (it was 5 KB at each opening of the app, issue 34).
 */
const workboxRuntime = /^\/workbox-[0-9a-f]{8}\.js$/;

const modulePage = /^\/modules\/([^/]+)\/?$/;

/** A page document as built, kept in memory with its compressed copies until a new build replaces it. */
interface PageDocument {
  mtimeMs: number;
  raw: Buffer;
  br: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
}

/**
 * Serves the built PWA: hashed assets cached for a year, the pages and the service worker never. The public
 * pages are served as rendered at build time (`prerenderedPages`); every other page path gets the empty
 * shell, with status 404 for paths the app does not know and for /modules/<slug> when no module has that
 * slug (`moduleExists` answers from the catalogue's memory).
 */
export function createStaticRoutes(
  clientDir: string,
  options: { moduleExists?: (slug: string) => Promise<boolean> } = {},
) {
  // `me`: set by app.ts's session middleware on the signed-in pages' paths only.
  const app = new Hono<SessionEnv>();
  const documents = new Map<string, PageDocument>();
  /** The document, read again when a new build replaces it (or appears after start-up). */
  const readDocument = (file: string): PageDocument | undefined => {
    const full = path.join(clientDir, file);
    const mtimeMs = statSync(full, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    let document = documents.get(file);
    if (document?.mtimeMs !== mtimeMs) {
      const raw = readFileSync(full);
      // The build's own copies (scripts/compress-assets.ts, at the highest levels) unless they are older.
      const built = (suffix: string) => {
        const copy = `${full}.${suffix}`;
        return (statSync(copy, { throwIfNoEntry: false })?.mtimeMs ?? -1) >= mtimeMs
          ? (readFileSync(copy) as Uint8Array<ArrayBuffer>)
          : undefined;
      };
      document = { mtimeMs, raw, br: built('br') ?? compress(raw, 'br'), gzip: built('gz') ?? compress(raw, 'gzip') };
      documents.set(file, document);
    }
    return document;
  };

  /** `vary`: what else than the encoding the answer depends on. */
  const serveDocument = (c: Context, file: string, status: 200 | 404, vary = 'accept-encoding') => {
    const document = readDocument(file);
    if (!document) return c.text('The client is not built yet: run `npm run build`.', 503);
    c.header('cache-control', noCache);
    c.header('content-type', 'text/html; charset=UTF-8');
    c.header('vary', vary);
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (encoding) c.header('content-encoding', encoding);
    return c.body(encoding ? document[encoding] : (document.raw as Uint8Array<ArrayBuffer>), status);
  };
  const serveIndex = (c: Context, status: 200 | 404) => serveDocument(c, shellFile, status);

  /** The signed-in pages as rendered for a stand-in user (scripts/prerender.ts), read again after a build. */
  const rendered = new Map<string, { mtimeMs: number; html: string }>();
  const readRendered = (file: string): string | undefined => {
    const full = path.join(clientDir, signedInPagesDir, file);
    const mtimeMs = statSync(full, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    let page = rendered.get(file);
    if (page?.mtimeMs !== mtimeMs) rendered.set(file, (page = { mtimeMs, html: readFileSync(full, 'utf8') }));
    return page.html;
  };

  /**
   * A signed-in page rendered for the user the request's session names (common/routes.ts `signedInPages`),
   * or the shell for a visitor and for a role the page is not for: which one depends on the cookie.
   */
  const serveSignedInPage = (c: Context<SessionEnv>, pagePath: SignedInPagePath) => {
    const me = c.get('me');
    const page =
      me && (signedInPages[pagePath] as readonly string[]).includes(me.role)
        ? readRendered(signedInPageFile(pagePath, me.role))
        : undefined;
    const html = page && me && fillPage(page, me);
    if (!html) return serveDocument(c, shellFile, 200, 'accept-encoding, cookie');
    // Compressed for each request: it is the user's own (a few KB, well under a millisecond at these levels).
    c.header('cache-control', `private, ${noCache}`);
    c.header('content-type', 'text/html; charset=UTF-8');
    c.header('vary', 'accept-encoding, cookie');
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding) return c.body(html);
    c.header('content-encoding', encoding);
    return c.body(compress(html, encoding));
  };

  // The documents are answered from memory. The service worker precaches them by file name, so
  // /index.html and the other files are 200s too.
  for (const [pagePath, file] of Object.entries(prerenderedPages)) {
    app.get(pagePath, (c) => serveDocument(c, file, 200));
    app.get(`/${file}`, (c) => serveDocument(c, file, 200));
  }
  app.get(`/${shellFile}`, (c) => serveIndex(c, 200));
  for (const pagePath of Object.keys(signedInPages) as SignedInPagePath[])
    app.get(pagePath, (c) => serveSignedInPage(c, pagePath));
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
        const hashed = (name.startsWith('/assets/') && !unhashed.test(name)) || workboxRuntime.test(name);
        c.header('cache-control', hashed ? yearLong : noCache);
        const etag = hashed ? undefined : fileEtag(path.join(clientDir, name));
        if (etag) c.header('etag', etag);
      },
    });
  /**
   * A file the browser must check every time (the worker above all: its check for a new version at each opening
   * of the app) is answered 304 while it is unchanged, rather than sent again (issue 34: 2.8 KB each time).
   */
  const notModified: MiddlewareHandler = async (c, next) => {
    const name = c.req.path;
    const file = path.join(clientDir, name);
    if (name.startsWith('/assets/') || workboxRuntime.test(name) || !file.startsWith(`${clientDir}${path.sep}`))
      return next();
    const etag = fileEtag(file);
    if (!etag || !isFresh(c.req.header('if-none-match'), etag)) return next();
    c.header('cache-control', noCache);
    c.header('etag', etag);
    c.header('vary', 'accept-encoding');
    return c.body(null, 304);
  };
  // Source maps are kept off the served folder by the build (scripts/keep-sourcemaps.ts); should one be left
  // there (a build by other means), it is still not served: it holds our source and the build's paths.
  app.get('*', (c, next) => (c.req.path.endsWith('.map') ? serveIndex(c, 404) : next()));
  app.get('*', notModified);
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

/** A file's content hash as a weak ETag (weak: sent brotli-, gzip- or un-compressed), read again when it changes. */
const etags = new Map<string, { mtimeMs: number; size: number; etag: string }>();
function fileEtag(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  const known = etags.get(file);
  if (known?.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.etag;
  const etag = `W/"${createHash('sha1').update(readFileSync(file)).digest('base64url')}"`;
  etags.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, etag });
  return etag;
}
