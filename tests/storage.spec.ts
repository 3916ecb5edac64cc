import { expect, test, type Page, type Route } from '@playwright/test';
import type { Question } from '../src/common/qa.ts';
import { expectNoAxeViolations, loginAs, origin, viewports, waitForActiveServiceWorker } from './fixtures.ts';

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const askForm = (page: Page) => page.getByRole('form', { name: 'Ask a question' });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const clearedToast = (page: Page) =>
  page.locator('[data-sonner-toast]').filter({ hasText: "This device's saved data was cleared" });

async function ask(page: Page, title: string, text: string) {
  await askForm(page).getByLabel('Title').fill(title);
  await askForm(page).getByLabel('Description').fill(text);
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
}

async function postQuestion(page: Page, title: string) {
  const res = await page.request.post('/api/questions', {
    data: { id: crypto.randomUUID(), title, text: 'Posted before the wipe.' },
    headers: { origin },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Question;
}

/** The mark the engine keeps outside IndexedDB: whose data it holds and how much of it is unsent. */
const mark = (page: Page) =>
  page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('tutorbook:stored-user') ?? 'null') as { userId: string; unsent: number } | null,
  );

/** What the browser does to a site's storage (eviction, Safari's seven days, "clear site data"), through DevTools. */
async function clearSiteStorage(page: Page, storageTypes: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes });
  await cdp.detach();
}

/**
 * Clears while no page of the app is open, and waits until the browser has done it: a page left for another
 * may still hold its IndexedDB connection (the back-forward cache), and the deletion then waits for it.
 */
async function clearWhileClosed(page: Page, storageTypes: string) {
  // A document of the origin that is not the app (the worker leaves /api/ to the server): nothing opens the database.
  await page.goto('/api/health');
  await clearSiteStorage(page, storageTypes);
  await expect.poll(() => page.evaluate(async () => (await indexedDB.databases()).length)).toBe(0);
  if (storageTypes.includes('local_storage')) expect(await page.evaluate(() => localStorage.length)).toBe(0);
}

test('storage the browser cleared while the app was closed: the next visit says what unsent work was lost, and the data comes back', async ({
  page,
  context,
}) => {
  // A browser without Background Sync (Safari, Firefox): woken once the browser is back online, the service
  // worker would open the database again while the browser deletes it, and the wipe this journey is about would
  // leave an empty database behind. Sending with the page closed is background-send.spec's journey.
  await context.addInitScript(() =>
    Object.defineProperty(ServiceWorkerRegistration.prototype, 'sync', { get: () => undefined, configurable: true }),
  );
  await loginAs(page, 'student');
  const seen = unique('Seen before the wipe');
  await postQuestion(page, seen);
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  const hasBackgroundSync = () =>
    page.evaluate(async () => ((await navigator.serviceWorker.ready) as { sync?: unknown }).sync !== undefined);
  expect(await hasBackgroundSync()).toBe(false);
  await expect(card(page, seen)).toBeVisible();

  await context.setOffline(true);
  // Never sent, until the wipe: on a busy machine the browser's offline emulation can let a first request through.
  const neverSent = (route: Route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback();
  await context.route('**/api/questions', neverSent);
  const queued = unique('Asked offline, never sent');
  await ask(page, queued, 'Waiting when the browser cleared it.');
  await expect(card(page, queued).getByText('Waiting to send')).toBeVisible();
  await expect.poll(() => mark(page).then((m) => m?.unsent)).toBe(1);

  // IndexedDB alone goes (eviction under storage pressure): the mark in localStorage stays and can count.
  await page.goto('about:blank');
  await context.setOffline(false);
  await clearWhileClosed(page, 'indexeddb');
  await context.unroute('**/api/questions', neverSent);
  await page.goto('/qa');
  const notice = clearedToast(page);
  await expect(notice).toContainText('1 change you had not sent yet could not be kept.');
  await expect(card(page, seen)).toBeVisible();
  await expect(card(page, queued)).toHaveCount(0);
  await expect.poll(() => mark(page).then((m) => m?.unsent)).toBe(0);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    // The toaster moves to its place for the width (centred on phones) and fades in again.
    await expect(notice).toHaveCSS('opacity', '1');
    await expect(notice).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `test-results/screenshots/storage-cleared-${size}.png` });
  }

  // Said once: the next visit finds the new copy whole.
  await page.reload();
  await expect(card(page, seen)).toBeVisible();
  await expect(clearedToast(page)).toHaveCount(0);

  // Everything goes (Safari after seven days without a visit) but the session cookie: a loss of unknown size.
  await clearWhileClosed(page, 'indexeddb,local_storage,cache_storage,service_workers');
  await page.goto('/qa');
  await expect(clearedToast(page)).toContainText('Anything you had not sent yet could not be kept.');
  await expect(card(page, seen)).toBeVisible();
});

test('storage cleared under an open page: the page says so, loads the data again and goes on saving', async ({
  page,
}) => {
  await loginAs(page, 'student');
  const seen = unique('On the board');
  await postQuestion(page, seen);
  await page.goto('/qa');
  await expect(card(page, seen)).toBeVisible();
  await expect.poll(() => mark(page).then((m) => m?.unsent)).toBe(0);

  await clearSiteStorage(page, 'indexeddb');
  await expect(clearedToast(page)).toContainText('everything you had made was already sent, so nothing was lost.');
  await expect(card(page, seen)).toBeVisible();

  const after = unique('Asked after the wipe');
  await ask(page, after, 'Saved and sent as usual.');
  await expect(card(page, after)).toBeVisible();
  await expect(card(page, after).getByText('Waiting to send')).toHaveCount(0);
  const stored = (await (await page.request.get(`/api/questions?q=${encodeURIComponent(after)}`)).json()) as {
    questions: Question[];
  };
  expect(stored.questions).toHaveLength(1);
});

test('a device with no room left: the form says so and keeps what was typed', async ({ page }) => {
  // Chromium reads an origin's quota when the origin first uses storage: set it before anything is stored.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 20 * 1024 * 1024 });
  await loginAs(page, 'student');
  const asked = unique('A question to answer on a full device');
  await postQuestion(page, asked);
  await page.goto('/qa');
  await expect(card(page, asked)).toBeVisible();
  // Something else fills the device (here another database of the site, with data that does not compress).
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open('filler');
      opening.onupgradeneeded = () => opening.result.createObjectStore('blobs');
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error ?? new Error('not opened'));
    });
    const noise = (size: number) => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65_536)));
      return bytes;
    };
    const stored = (size: number) =>
      new Promise<boolean>((resolve) => {
        const tx = db.transaction('blobs', 'readwrite');
        tx.objectStore('blobs').put(noise(size), crypto.randomUUID());
        tx.oncomplete = () => resolve(true);
        tx.onabort = () => resolve(false);
      });
    for (const size of [1_048_576, 65_536, 4096, 512]) while (await stored(size));
    db.close();
  });

  const title = unique('A question with nowhere to go');
  const text = 'My disk is full and I still have a question about recursion. '.repeat(20);
  await ask(page, title, text);
  await expect(askForm(page)).toContainText(
    'Your device has no room to save this. Free some space (or delete old files) and try again.',
  );
  await expect(askForm(page).getByLabel('Title')).toHaveValue(title);
  await expect(askForm(page).getByLabel('Description')).toHaveValue(text);
  await expect(card(page, title)).toHaveCount(0);

  const answer = 'Base case first, then the smaller problem.';
  await page.getByLabel(`Your answer to "${asked}"`).fill(answer);
  await card(page, asked).getByRole('button', { name: 'Post answer' }).click();
  await expect(card(page, asked)).toContainText('Your device has no room to save this.');
  await expect(page.getByLabel(`Your answer to "${asked}"`)).toHaveValue(answer);
  await expect(card(page, asked)).toContainText('0 answers');
  await cdp.detach();
});
