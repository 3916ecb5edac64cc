import { expect, test, type Browser, type Page } from '@playwright/test';
import type { LazyChunks } from '../scripts/precache.ts';
import { origin, signUpAndVerify, waitForActiveServiceWorker } from './fixtures.ts';

// The chunks of the signed-in pages, by the name of their module (src/client/app/router.tsx).
const signedInChunks =
  /\/assets\/(offers-route|module-page|booking-route|student-dashboard|staff-dashboards|profile-route|qa-page|change-password-page)-[\w-]+\.js$/;
const publicChunks = ['home-page', 'about-page', 'testimonials-route', 'privacy-page', 'login-page', 'signup-page'];

/** A fresh browser profile whose /assets/ requests (the page's and the service worker's) are recorded; with the data saver on if asked. */
async function newProfile(browser: Browser, options: { saveData: boolean }) {
  const context = await browser.newContext({ baseURL: origin });
  // Chromium's data saver (Lite mode) has no switch here: the page is told it instead.
  if (options.saveData)
    await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
  const requested = new Set<string>();
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/assets/')) requested.add(pathname);
  });
  return { context, page: await context.newPage(), requested };
}

/** The paths the service worker holds, in its caches whose name starts with `prefix` (all by default). */
const cached = (page: Page, prefix = '') =>
  page.evaluate(async (prefix) => {
    const paths: string[] = [];
    for (const name of (await caches.keys()).filter((n) => n.startsWith(prefix))) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  }, prefix);

async function underWorker(page: Page) {
  await waitForActiveServiceWorker(page);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** A verified student whose session cookie is in the page's profile, before the app was ever opened. */
async function signedInStudent(page: Page) {
  const account = await signUpAndVerify(page.request);
  const login = await page.request.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: account.password },
    headers: { origin },
  });
  expect(login.status()).toBe(200);
}

test('a first visit to the home page precaches every page and the entry, then holds the public pages; no signed-in page is precached', async ({
  browser,
}) => {
  const { context, page } = await newProfile(browser, { saveData: false });
  await page.goto('/');
  await underWorker(page);
  // The public pages' own chunks come after the precache, as the worker holds it (decision 0044).
  const held = await cached(page);
  for (const name of publicChunks)
    expect(
      held.some((p) => p.startsWith(`/assets/${name}-`)),
      `${name} is held`,
    ).toBe(true);
  const paths = await cached(page, 'workbox-precache');
  // The shell and every public page as rendered at build time.
  for (const file of [
    '/shell.html',
    '/index.html',
    '/about.html',
    '/testimonials.html',
    '/privacy-policy.html',
    '/login.html',
    '/signup.html',
  ])
    expect(paths).toContain(file);
  expect(paths.filter((p) => signedInChunks.test(p))).toEqual([]);
  await context.close();
});

test('with the data saver on, a signed-in page opened before the worker was there opens offline, and no other page is fetched', async ({
  browser,
}) => {
  const { context, page, requested } = await newProfile(browser, { saveData: true });
  await signedInStudent(page);
  // The first page of the profile: its files load before the worker exists, then are handed to it.
  await page.goto('/offers');
  await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
  await underWorker(page);
  await expect.poll(async () => (await cached(page)).some((p) => p.startsWith('/assets/offers-route-'))).toBe(true);
  const others = (paths: Iterable<string>) =>
    [...paths].filter((p) => signedInChunks.test(p) && !p.startsWith('/assets/offers-route-'));
  expect(others(requested)).toEqual([]);
  expect(others(await cached(page))).toEqual([]);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
  await context.close();
});

test('with the data saver on, a repeat visit to Home fetches no chunk: what the first one held is all it needs', async ({
  browser,
}) => {
  const { context, page } = await newProfile(browser, { saveData: true });
  await page.goto('/');
  await underWorker(page);
  // What goes to the network: the worker's own requests, and the page's that the worker did not answer.
  const fetched: string[] = [];
  context.on('requestfinished', async (request) => {
    const { pathname } = new URL(request.url());
    // The answer of a request still finishing as the test closes the context is gone with it.
    const response = await request.response().catch(() => null);
    const fromWorker = response?.fromServiceWorker() ?? false;
    if (pathname.startsWith('/assets/') && (request.serviceWorker() || !fromWorker)) fetched.push(pathname);
  });
  const again = await context.newPage();
  await again.goto('/');
  await underWorker(again);
  // A chunk of a signed-in page that shares its name with a public page's (two `forms` chunks) is not taken
  // for a new version of one the device used (src/client/sw-assets.js).
  expect(fetched).toEqual([]);
  await context.close();
});

test('with the data saver off, the worker fetches the rest of the app once it controls the page, and a page never opened works offline', async ({
  browser,
}) => {
  const { context, page, requested } = await newProfile(browser, { saveData: false });
  await signedInStudent(page);
  await page.goto('/offers');
  await underWorker(page);
  const listed = (await (await page.request.get('/lazy-chunks.json')).json()) as LazyChunks;
  const lazyChunks = [...listed.always, ...listed.unlessSavingData];
  expect(lazyChunks.filter((p) => signedInChunks.test(p)).length).toBeGreaterThan(5);
  const paths = new Set(await cached(page));
  expect(lazyChunks.filter((p) => !paths.has(p))).toEqual([]);
  // The worker's own requests are recorded too: what the test above saw not fetched was not fetched at all.
  expect(lazyChunks.filter((p) => !requested.has(p))).toEqual([]);

  await context.setOffline(true);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Community' }).click();
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await context.close();
});
