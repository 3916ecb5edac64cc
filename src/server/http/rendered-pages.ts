import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import { intoTemplate, type ServedPageData } from '../../common/page-html.ts';
import { userMeta } from '../../common/page-user.ts';
import { requestRenderedPages, signedInPagesDir, ssrEntryFile, type RequestRenderedPage } from '../../common/routes.ts';
import type { Me } from '../../common/session.ts';
import { chooseEncoding, compress, type Encoding } from './compression.ts';

/** The app's server build: `renderPage` of src/client/entry-server.tsx. */
export type RenderApp = (pathname: string, user?: Me, served?: ServedPageData) => Promise<string>;

/** A page as rendered, and its compressed copies once a client has asked for them. */
export interface RenderedDocument {
  html: string;
  encoded: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
}

/**
 * Renders the pages the server renders per request (common/routes.ts `requestRenderedPages`;
 * docs/decisions/0024-the-board-rendered-per-request.md): the app's server build renders the page for `user`
 * with the data a usecase read, into the template the build wrote, and the page carries that data for the
 * browser's first render. Undefined while the client is not built. `renderApp`: the renderer, for tests that
 * have no build; otherwise the build's.
 */
export function createPageRenderer(
  clientDir: string,
  { origin, renderApp }: { origin: string; renderApp?: RenderApp },
) {
  const templates = new Map<string, { mtimeMs: number; html: string }>();
  const readTemplate = (file: string): string | undefined => {
    const full = path.join(clientDir, signedInPagesDir, file);
    const mtimeMs = statSync(full, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    let template = templates.get(file);
    if (template?.mtimeMs !== mtimeMs) templates.set(file, (template = { mtimeMs, html: readFileSync(full, 'utf8') }));
    return template.html;
  };

  // Loaded once: its lazy chunks import the entry by its name, so a second copy (a query in the URL) would not
  // share the app's contexts with them. A new build in place is then rendered by a process started after it;
  // until then this one leaves these pages to the next route (the shell), rather than render the old app's
  // markup into the new build's page, which would not hydrate.
  let built: { mtimeMs: number; render: Promise<RenderApp> } | undefined;
  const builtRenderer = (): Promise<RenderApp> | undefined => {
    const file = path.join(clientDir, ssrEntryFile);
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    built ??= {
      mtimeMs,
      render: import(pathToFileURL(file).href).then((m: { renderPage: RenderApp }) => m.renderPage),
    };
    return built.mtimeMs === mtimeMs ? built.render : undefined;
  };

  return async (page: RequestRenderedPage, pathname: string, data: unknown, user?: Me) => {
    const template = readTemplate(requestRenderedPages[page]);
    const render = renderApp ?? (await builtRenderer());
    if (!template || !render) return undefined;
    const served: ServedPageData = { path: pathname, origin, data };
    const rendered = await render(pathname, user, served);
    const html = intoTemplate(template, rendered, { served, extraHead: user ? userMeta(user) : '' });
    return { html, encoded: {} } satisfies RenderedDocument;
  };
}
export type PageRenderer = ReturnType<typeof createPageRenderer>;

/**
 * A rendered page as the answer, compressed for the client (each compression kept on the document for the next
 * request of the same one). `personal`: rendered for the session's user, so no shared cache may keep it. The
 * answer depends on the cookie either way: a visitor and a user get different pages at one address.
 */
export function sendRendered(
  c: Context,
  document: RenderedDocument,
  { status, personal }: { status: 200 | 404; personal: boolean },
) {
  c.header('cache-control', personal ? 'private, no-cache' : 'no-cache');
  c.header('content-type', 'text/html; charset=UTF-8');
  c.header('vary', 'accept-encoding, cookie');
  const encoding = chooseEncoding(c.req.header('accept-encoding'));
  if (!encoding) return c.body(document.html, status);
  c.header('content-encoding', encoding);
  const body = (document.encoded[encoding] ??= compress(document.html, encoding));
  return c.body(body, status);
}
