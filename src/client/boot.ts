/**
 * The only script a page rendered at build time names (scripts/prerender.ts; built on its own by
 * vite.config.ts). The page's text needs no script, so the app's scripts wait until it is on screen rather
 * than share a slow connection with the stylesheet; then the page's chunks load together, as
 * `<link rel="modulepreload">` would have made them, and the entry runs and hydrates the page (main.tsx). The
 * tag that loads this file names them: `data-entry`, and `data-preload` separated by spaces.
 */
// Spec §2: /signup sends a visitor who did not come through Home (or /login's link) back to /. The app does the
// same (lib/visited-home.ts, which names the flag); done here, `/` is asked for before any of the app loads.
// Storage the browser refuses (its settings) throws: the app then decides, as it would anyway.
const flagUnset = () => {
  try {
    return localStorage.getItem('visitedHome') !== 'true';
  } catch {
    return false;
  }
};
const strayOnSignup =
  location.pathname === '/signup' && document.referrer !== `${location.origin}/login` && flagUnset();
if (strayOnSignup) location.replace('/');

const tag = document.querySelector<HTMLScriptElement>('script[data-entry]');
let started = false;

function start() {
  if (started || strayOnSignup || !tag?.dataset.entry) return;
  started = true;
  for (const href of (tag.dataset.preload ?? '').split(' ').filter(Boolean))
    document.head.append(
      Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' }),
    );
  void import(/* @vite-ignore */ tag.dataset.entry);
}

if (document.visibilityState === 'hidden') {
  // Opened in the background: nothing is painted until it is shown.
  start();
} else {
  // The first contentful paint is reported once it is on screen (a browser that cannot tell waits 3 s); the
  // first paint, reported before it, may be no more than the background.
  new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length && start()).observe({
    type: 'paint',
    buffered: true,
  });
  setTimeout(start, 3000);
}
