import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { App } from './app/app.tsx';
import { routes } from './app/router.tsx';

/**
 * Renders a public page at build time (scripts/prerender.ts) as a visitor first sees it: the session is still
 * being read, so nothing personal is in it, and the browser's first render matches it for hydration.
 */
export async function renderPage(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname} redirects: only pages that render can be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <App>
        {/* No hydration data: the pages have no loaders, and the script it would add is barred by our CSP. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </App>
    </StrictMode>,
  );
}
