import { expect, test, type Browser, type Page } from '@playwright/test';
import type { LazyChunks } from '../scripts/precache.ts';
import { expectNoAxeViolations, origin, signUpAndVerify, viewports, waitForActiveServiceWorker } from './fixtures.ts';

// Issue 34 §2: a first visit works offline soon, and the app says so once per device (app/asset-cache.ts,
// app/pwa.tsx, sw-assets.js; docs/decisions/0044).
const saying = 'TutorBook now works offline on this device.';
const message = (page: Page) => page.locator('[data-sonner-toast]').filter({ hasText: saying });

/** A fresh device (browser profile) with a verified student's session cookie, before the app was ever opened. */
async function studentsNewDevice(browser: Browser, viewport: { width: number; height: number } = viewports.desktop) {
  const context = await browser.newContext({ baseURL: origin, viewport });
  const page = await context.newPage();
  const account = await signUpAndVerify(page.request);
  const login = await page.request.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: account.password },
    headers: { origin },
  });
  expect(login.status()).toBe(200);
  return { context, page };
}

/** Whether a worker controls the page, and whether it holds every /assets/ file the page loaded. */
const offlineState = (page: Page) =>
  page.evaluate(async () => {
    const loaded = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'));
    const held = await Promise.all(loaded.map((url) => caches.match(url.pathname)));
    return { controlled: navigator.serviceWorker.controller !== null, holdsPage: held.every(Boolean) };
  });

test('a first visit to the board says once that the app works offline; reloaded offline it shows the board; a later visit says nothing', async ({
  browser,
}) => {
  const { context, page } = await studentsNewDevice(browser);
  await page.goto('/qa');
  await expect(page.getByRole('heading', { level: 1, name: 'Community Q&A' })).toBeVisible();
  await expect(message(page)).toBeVisible({ timeout: 20_000 });
  // Said once it is true: a worker controls the page and holds what it loaded.
  expect(await offlineState(page)).toEqual({ controlled: true, holdsPage: true });
  await expectNoAxeViolations(page);
  await message(page).getByRole('button', { name: 'Close toast' }).click();
  await expect(message(page)).toHaveCount(0);

  // What the student tried (issue 34): offline, a reload shows the board, not the browser's error page; and so
  // does a page she never opened, which the message promised too.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Community Q&A' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
  await context.setOffline(false);

  // A later visit on the same device, online: the worker is there and full, and nothing is said.
  const later = await context.newPage();
  await later.goto('/student-dashboard');
  await waitForActiveServiceWorker(later);
  await expect.poll(() => offlineState(later)).toEqual({ controlled: true, holdsPage: true });
  // The notice decides once the page is idle: long enough for it to have spoken.
  await later.waitForTimeout(2000);
  await expect(message(later)).toHaveCount(0);
  await expect(message(page)).toHaveCount(0);
  await context.close();
});

test('a first visit works offline as soon as its own files are held, before the rest of the app has arrived, and says so only after', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  // The worker's requests for the other chunks (the signed-in pages, the dialogs) are held back: a slow
  // connection that has not brought them yet. The page's own requests go through, and so does the worker's for
  // a file the page loaded (from the browser's HTTP cache, which routing here turns off).
  const { unlessSavingData } = (await (await page.request.get('/lazy-chunks.json')).json()) as LazyChunks;
  const heldBack = new Set(unlessSavingData);
  const pageLoaded = new Set<string>();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const waiting: string[] = [];
  await context.route('**/assets/**', async (route) => {
    const { pathname } = new URL(route.request().url());
    if (!route.request().serviceWorker()) pageLoaded.add(pathname);
    else if (heldBack.has(pathname) && !pageLoaded.has(pathname)) {
      waiting.push(pathname);
      await released;
    }
    await route.continue().catch(() => {});
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => offlineState(page), { timeout: 15_000 }).toEqual({ controlled: true, holdsPage: true });
  // The worker asks for the rest meanwhile, and the app says nothing yet.
  await expect.poll(() => waiting.length).toBeGreaterThan(0);
  await expect(message(page)).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Understand your modules/ })).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Tutoring started by a student/ })).toBeVisible();
  await context.setOffline(false);

  // Back online, the rest arrives, and the app says so.
  release();
  await expect(message(page)).toBeVisible({ timeout: 20_000 });
  await context.close();
});

for (const [size, viewport] of Object.entries(viewports)) {
  test(`the message at ${size} width (${viewport.width} px): with the toasts, clear of the navbar`, async ({
    browser,
  }) => {
    const { context, page } = await studentsNewDevice(browser, viewport);
    await page.goto('/qa');
    const toast = message(page);
    await expect(toast).toBeVisible({ timeout: 20_000 });
    await toast.hover(); // holds it, as a reader would
    const box = (await toast.boundingBox())!;
    const navbar = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
    // Inside the window, and below the navbar, which stays usable.
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.y).toBeGreaterThanOrEqual(navbar.y + navbar.height);
    // One of the toasts: in their list, where another one (a student's session on a device that holds none of
    // her data is told it was cleared) lies beside it when they are looked at, not over it.
    const toasts = page.locator('[data-sonner-toaster] [data-sonner-toast]');
    await expect(toasts).toHaveCount(2);
    // Polled: the list spreads out with a transition when hovered.
    await expect
      .poll(async () => {
        const boxes = await Promise.all((await toasts.all()).map(async (t) => (await t.boundingBox())!));
        const [upper, lower] = boxes.sort((a, b) => a.y - b.y);
        return upper!.y + upper!.height <= lower!.y && upper!.y >= navbar.y + navbar.height;
      })
      .toBe(true);
    await page.screenshot({ path: `test-results/screenshots/offline-ready-${size}.png` });
    await context.close();
  });
}
