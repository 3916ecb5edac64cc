/**
 * The page's part in what the service worker caches (docs/decisions/0011-precache-budget.md, 0044). The worker
 * precaches the shell and the public pages; its own script (src/client/sw-assets.js) fetches the other chunks
 * too, unless the connection saves data: as an update installs, or, after a first install, when a page asks.
 * Chunks the page loads while under the worker are cached by its /assets/ route.
 */

/** The worker vite-plugin-pwa writes (vite.config.ts); app/pwa.tsx registers the same one for its update prompt. */
const workerUrl = '/sw.js';

let connectionNoted: Promise<void> | undefined;

/**
 * Tells the worker whether the connection saves data (Chrome's data saver, a setting on many Android phones;
 * unknown counts as no). Written before the worker is registered, since it reads it when it installs; once.
 */
export function noteConnection(): Promise<void> {
  connectionNoted ??= (async () => {
    if (typeof caches === 'undefined') return;
    const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
    try {
      await (await caches.open('connection')).put('/save-data', new Response(saveData ? 'on' : 'off'));
    } catch {
      // No storage (a private window may refuse it): the worker then assumes the connection does not save data.
    }
  })();
  return connectionNoted;
}

/**
 * Registers the worker as soon as the page has loaded, its own files first: not once it is idle, so that a
 * first visit works offline seconds sooner on a slow connection (bench/offline-ready.ts). Then, once the worker
 * controls the page, hands it the files the page loaded and asks for the rest of the app; `offlineReady`
 * resolves once it holds them. Called once the page's chunks are in (main.tsx).
 */
export function registerWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const { serviceWorker } = navigator;
  const register = () => {
    noteConnection()
      .then(() => serviceWorker.register(workerUrl, { scope: '/' }))
      .catch((error: unknown) => console.error('Service worker registration failed', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });

  const start = () => {
    const worker = serviceWorker.controller;
    if (worker) void fillWorker(worker);
  };
  if (serviceWorker.controller) start();
  else serviceWorker.addEventListener('controllerchange', start, { once: true });
}

/**
 * On a first visit the page loads its files before the worker controls it, so they pass the worker by: they
 * are handed to it (it reads them from the browser's HTTP cache, which costs no data), and so are files that
 * finish later, through Workbox's `CACHE_URLS`. Then the worker fetches the rest and says whether it holds all.
 */
async function fillWorker(worker: ServiceWorker) {
  new PerformanceObserver((entries) => {
    const urlsToCache = loadedFiles(entries.getEntries());
    if (urlsToCache.length > 0) worker.postMessage({ type: 'CACHE_URLS', payload: { urlsToCache } });
  }).observe({ type: 'resource' });
  const loaded = loadedFiles(performance.getEntriesByType('resource'));
  const { complete } = await new Promise<{ complete: boolean }>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<{ complete: boolean }>) => resolve(event.data);
    worker.postMessage({ type: 'FILL_ASSETS', loaded }, [channel.port2]);
  });
  if (complete) becameReady();
}

/** The build's files among these, as paths; a file that went through the worker is in its cache already. */
function loadedFiles(entries: PerformanceEntryList): string[] {
  return (entries as PerformanceResourceTiming[])
    .filter((entry) => entry.workerStart === 0)
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
    .map((url) => url.pathname);
}

let becameReady: () => void;

/** Resolves once the worker controls this page and holds every file it keeps for the app (above). */
export const offlineReady = new Promise<void>((resolve) => (becameReady = resolve));
