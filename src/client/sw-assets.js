// Imported by the service worker Workbox generates (vite.config.ts, scripts/precache.ts), hence plain
// JavaScript. That worker precaches the pages' HTML and the chunks every page loads; this fetches the other
// chunks into the `assets` cache its /assets/ route reads first (docs/decisions/0011-precache-budget.md, 0044):
// - the public pages' own chunks, always;
// - on a connection that is not saving data, all the others;
// - on one that is, the new version of each chunk the cache already holds, so that a page seen once still
//   opens offline after an update, and no other.
// When: an update fetches them as it installs, while the version before it still answers, so that it holds
// them when it takes over. A first install does not wait for them: it takes control as soon as the precache is
// in, and the page then hands it the files it loaded and asks for the rest (`FILL_ASSETS`, answered with
// `{ complete }` once done: src/client/app/asset-cache.ts). A few at a time; a file that fails is fetched when
// first used, and the next page asks again. Once a version is active, earlier versions' chunks leave the cache.

const assetsCache = 'assets';
/** Written by the build (scripts/precache.ts, `LazyChunks`): every chunk the worker does not precache. */
const lazyChunksUrl = '/lazy-chunks.json';
/** Written by the page before it registers the worker (src/client/app/asset-cache.ts). */
const connectionNote = { cache: 'connection', url: '/save-data' };
const filesAtOnce = 4;

self.addEventListener('install', (event) => {
  if (self.registration.active) event.waitUntil(fetchChunks({ freshList: true }).catch(() => false));
});
self.addEventListener('activate', (event) => event.waitUntil(dropEarlierVersions()));
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'FILL_ASSETS') return;
  const done = fill(event.data.loaded ?? []);
  event.waitUntil(done);
  void done.then((complete) => event.ports[0]?.postMessage({ complete }));
});

/** One fill at a time: a second page asking meanwhile waits, then finds most of it held. */
let filling = Promise.resolve(true);

/**
 * The files a page loaded (from the browser's HTTP cache, which costs no data), then the other chunks.
 * Resolves to whether the worker now holds all of them.
 */
function fill(loaded) {
  filling = filling.then(async () => {
    const handedOver = await addMissing(await caches.open(assetsCache), loaded);
    return (await fetchChunks({ freshList: false })) && handedOver;
  });
  filling = filling.catch(() => false);
  return filling;
}

/** The chunks this connection wants (above); resolves to whether each of them is held. */
async function fetchChunks({ freshList }) {
  const cache = await caches.open(assetsCache);
  const kept = await keptList(cache);
  const chunks = freshList || !kept ? await fetchList(cache) : kept;
  if (!chunks) return false;
  // The public pages' chunks (this version's and the one's before) are held whatever the device used, and a
  // chunk of another page may share a name with one of them: they say nothing of what it used.
  const always = new Set([...(kept?.always ?? []), ...chunks.always]);
  const held = new Set(
    (await cache.keys())
      .map((request) => new URL(request.url).pathname)
      .filter((pathname) => !always.has(pathname))
      .map(chunkName),
  );
  const savingData = await connectionSavesData();
  return addMissing(cache, [
    ...chunks.always,
    ...chunks.unlessSavingData.filter((url) => !savingData || held.has(chunkName(url))),
  ]);
}

/** The build's list as kept when a version installed, if it was. */
async function keptList(cache) {
  const kept = await cache.match(lazyChunksUrl);
  return kept ? listed(await kept.json()) : undefined;
}

/** The build's list, fetched (as a version installs, or when none is kept) and kept. */
async function fetchList(cache) {
  const response = await fetch(lazyChunksUrl, { cache: 'no-cache' }).catch(() => undefined);
  if (!response?.ok) return undefined;
  // Kept for `activate`, which drops what this list does not name, and for the pages that ask later.
  await cache.put(lazyChunksUrl, response.clone());
  return listed(await response.json());
}

/** A build from before 0044 listed only the chunks fetched unless saving data. */
function listed(json) {
  return Array.isArray(json) ? { always: [], unlessSavingData: json } : json;
}

/** Adds the files no cache holds yet (the precache holds some), a few at a time; whether all are held. */
async function addMissing(cache, urls) {
  const missing = [];
  for (const url of urls) if (!(await caches.match(url))) missing.push(url);
  let complete = true;
  for (let i = 0; i < missing.length; i += filesAtOnce) {
    await Promise.all(
      missing.slice(i, i + filesAtOnce).map((url) =>
        cache.add(url).catch(() => {
          complete = false;
        }),
      ),
    );
  }
  return complete;
}

async function dropEarlierVersions() {
  const cache = await caches.open(assetsCache);
  const list = await keptList(cache);
  if (!list) return;
  const current = new Set([...list.always, ...list.unlessSavingData]);
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
