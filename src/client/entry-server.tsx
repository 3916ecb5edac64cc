import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import type { ServedPageData } from '../common/page-html.ts';
import type { Me } from '../common/session.ts';
import { App } from './app/app.tsx';
import { routes } from './app/router.tsx';

/**
 * Renders a page at build time (scripts/prerender.ts) as it is first seen, so that the browser's first render
 * matches it for hydration. A public page as a visitor sees it: the session is still being read, so nothing
 * personal is in it. A signed-in page for `user`, a stand-in the server replaces (common/page-user.ts).
 * The server also renders the board per request (server/http/rendered-pages.ts), for the session's user if
 * any, with the data it read (`served`, which the page carries for the browser's first render).
 */
export async function renderPage(pathname: string, user?: Me, served?: ServedPageData): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname} redirects: only pages that render can be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <App servedUser={user} servedData={served}>
        {/* No hydration data: the pages have no loaders, and the script it would add is barred by our CSP. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </App>
    </StrictMode>,
  );
}
