/**
 * The page's part in what the service worker caches (docs/decisions/0011-precache-budget.md). The worker
 * precaches the shell and the public pages; when a version installs, its own script (src/client/sw-assets.js) fetches the other
 * chunks too, unless the connection saves data. Chunks the page loads while under the worker are cached by its
 * /assets/ route.
 */

/**
 * Tells the worker whether the connection saves data (Chrome's data saver, a setting on many Android phones;
 * unknown counts as no). Written before the worker is registered, since it reads it when it installs.
 */
export async function noteConnection(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
  try {
    await (await caches.open('connection')).put('/save-data', new Response(saveData ? 'on' : 'off'));
  } catch {
    // No storage (a private window may refuse it): the worker then assumes the connection does not save data.
  }
}

/**
 * On a first visit the page loads its files before the worker controls it, so they pass the worker by: once
 * it controls the page, they are handed to it (Workbox's `CACHE_URLS`: it fetches each through its own
 * routes), and it reads them from the browser's HTTP cache, which costs no data. So are files that finish
 * later but set off before the worker took over. Returns what stops it.
 */
export function handOverLoadedFiles(): () => void {
  const { serviceWorker } = navigator;
  let observer: PerformanceObserver | undefined;
  const start = () => {
    const worker = serviceWorker.controller;
    if (!worker) return;
    observer = new PerformanceObserver((entries) => {
      const urlsToCache = (entries.getEntries() as PerformanceResourceTiming[])
        // A file that went through the worker is in its cache already.
        .filter((entry) => entry.workerStart === 0 && isBuildFile(entry.name))
        .map((entry) => entry.name);
      if (urlsToCache.length > 0) worker.postMessage({ type: 'CACHE_URLS', payload: { urlsToCache } });
    });
    observer.observe({ type: 'resource', buffered: true });
  };
  if (serviceWorker.controller) start();
  else serviceWorker.addEventListener('controllerchange', start, { once: true });
  return () => {
    observer?.disconnect();
    serviceWorker.removeEventListener('controllerchange', start);
  };
}

function isBuildFile(url: string): boolean {
  const { origin, pathname } = new URL(url);
  return origin === location.origin && pathname.startsWith('/assets/');
}
