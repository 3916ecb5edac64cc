// Imported by the service worker Workbox generates (vite.config.ts, scripts/precache.ts), hence plain
// JavaScript. That worker precaches the shell and the public pages only; this fetches the other chunks when a
// version installs, into the `assets` cache its /assets/ route reads first (docs/decisions/0011-precache-budget.md):
// - on a connection that is not saving data, all of them;
// - on one that is, the new version of each chunk the cache already holds, so that a page seen once still
//   opens offline after an update, and nothing else.
// A few at a time; a file that fails is fetched when first used. Installing is not held up by a failure. Once
// the version is active, earlier versions' chunks leave the cache.

const assetsCache = 'assets';
/** Written by the build (scripts/precache.ts): every chunk the worker does not precache. */
const lazyChunksUrl = '/lazy-chunks.json';
/** Written by the page before it registers the worker (src/client/app/asset-cache.ts). */
const connectionNote = { cache: 'connection', url: '/save-data' };
const filesAtOnce = 4;

self.addEventListener('install', (event) => event.waitUntil(fetchChunks().catch(() => {})));
self.addEventListener('activate', (event) => event.waitUntil(dropEarlierVersions()));

async function fetchChunks() {
  const cache = await caches.open(assetsCache);
  const held = new Set((await cache.keys()).map((request) => chunkName(request.url)));
  const savingData = await connectionSavesData();
  if (savingData && held.size === 0) return;
  const response = await fetch(lazyChunksUrl, { cache: 'no-cache' });
  if (!response.ok) return;
  // Kept for `activate`, which drops what this list does not name.
  await cache.put(lazyChunksUrl, response.clone());
  const chunks = await response.json();
  const missing = [];
  for (const url of chunks) {
    if ((!savingData || held.has(chunkName(url))) && !(await cache.match(url))) missing.push(url);
  }
  for (let i = 0; i < missing.length; i += filesAtOnce) {
    await Promise.all(missing.slice(i, i + filesAtOnce).map((url) => cache.add(url).catch(() => {})));
  }
}

async function dropEarlierVersions() {
  const cache = await caches.open(assetsCache);
  const list = await cache.match(lazyChunksUrl);
  if (!list) return;
  const current = new Set(await list.json());
  for (const request of await cache.keys()) {
    const { pathname } = new URL(request.url);
    if (pathname !== lazyChunksUrl && !current.has(pathname)) await cache.delete(request);
  }
}

async function connectionSavesData() {
  const note = await (await caches.open(connectionNote.cache)).match(connectionNote.url);
  return note !== undefined && (await note.text()) === 'on';
}

/** `/assets/offers-page-D_WSwPAR.js` → `offers-page`: the same chunk in another version has another hash. */
function chunkName(url) {
  return new URL(url, self.location.href).pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '');
}
