import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { App } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { markShellStart } from './lib/engine-wanted.ts';
import { servedPageData } from './lib/page-data.tsx';
import { servedUser } from './lib/served-user.ts';
import './styles.css';

// Not a top-level await: that makes Rolldown split the startup code into many more, less compressible files.
void createAppRouter().then((router) => {
  const app = (
    <StrictMode>
      <App servedUser={servedUser()} servedData={servedPageData()}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>
  );
  const root = document.getElementById('root')!;
  // The public pages arrive rendered (scripts/prerender.ts), and so do the signed-in ones the server fills in
  // for the user and the board the server renders with its data (decision 0024); every other page arrives as
  // the empty shell. As a transition, the first render yields to the
  // browser every few milliseconds instead of holding the main thread until it is done: a tap or a keystroke
  // meanwhile is not kept waiting.
  startTransition(() => {
    if (root.hasChildNodes()) hydrateRoot(root, app);
    else {
      markShellStart();
      createRoot(root).render(app);
    }
  });
  // The page's own chunks are in: the worker is registered once the page has loaded, not when it is idle
  // (app/asset-cache.ts, a chunk of its own: the public pages' first load is held to its budget).
  void import('./app/asset-cache.ts').then((m) => m.registerWorker());
});
