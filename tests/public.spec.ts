import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { e2eClientDir } from '../playwright.config.ts';
import {
  cspViolations,
  expectNoAxeViolations,
  layoutShifts,
  loginAs,
  origin,
  recordCspViolations,
  recordLayoutShifts,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

const publicPages = [
  { path: '/', name: 'home' },
  { path: '/about', name: 'about' },
  { path: '/testimonials', name: 'testimonials' },
  { path: '/privacy-policy', name: 'privacy-policy' },
  { path: '/login', name: 'login' },
  { path: '/change-password', name: 'change-password' },
  { path: '/verify_login', name: 'verify-login' },
  { path: '/no-such-page', name: 'not-found' },
];

for (const { path, name } of publicPages) {
  test(`${path}: own title and description, no axe violations, no console errors, screenshots at phone and desktop size`, async ({
    page,
  }) => {
    const consoleErrors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    await recordCspViolations(page);
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.locator('h1')).toHaveCount(1);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `test-results/screenshots/${name}-${size}.png`, fullPage: true });
    }
    await expect(page).toHaveTitle(/TutorBook/);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    // The unknown path is answered with status 404 on purpose, which Chromium reports as an error.
    expect(consoleErrors.filter((e) => !(name === 'not-found' && e.includes('404')))).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });
}

test('/signup has no axe violations or CSP violations once the visitor came from Home', async ({ page }) => {
  await recordCspViolations(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).first().click();
  await expect(page).toHaveURL(/\/signup$/);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/signup-${size}.png`, fullPage: true });
  }
  // Submitting runs the shared validation, which must not try eval (forbidden by our CSP).
  await page.getByRole('button', { name: 'Create Account' }).click();
  expect(await cspViolations(page)).toEqual([]);
});

test('the public pages arrive as HTML: their text is there before any script runs, and hydrating it raises no error', async ({
  browser,
}) => {
  const withoutScripts = await browser.newContext({ baseURL: origin, javaScriptEnabled: false });
  const withScripts = await browser.newContext({ baseURL: origin });
  // As when the visitor came through Home's Sign Up button; otherwise /signup sends them to / (spec §2).
  await withScripts.addInitScript(() => localStorage.setItem('visitedHome', 'true'));
  for (const path of ['/', '/about', '/testimonials', '/privacy-policy', '/login', '/signup']) {
    const bare = await withoutScripts.newPage();
    await bare.goto(path);
    const heading = await bare.locator('h1').textContent();
    expect(heading, path).toBeTruthy();
    const title = await bare.title();
    expect(title, path).toMatch(/TutorBook/);
    // Until hydrated, a form cannot be sent natively (a GET with the password in the address).
    for (const field of await bare.locator('form input, form button').all()) await expect(field, path).toBeDisabled();

    const page = await withScripts.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(page.locator('h1'), path).toHaveText(heading!);
    await expect(page).toHaveTitle(title);
    // React reused the page's own title rather than adding a second one.
    await expect(page.locator('title')).toHaveCount(1);
    expect(errors, path).toEqual([]);
    // The app's scripts were asked for only once the page was on screen (src/client/boot.ts).
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/(?!boot-).*\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(timing.paint, path).toBeDefined();
    expect(timing.scripts.length, path).toBeGreaterThan(1);
    expect(Math.min(...timing.scripts), path).toBeGreaterThanOrEqual(timing.paint!);
  }
  for (const context of [withoutScripts, withScripts]) await context.close();
});

test("a visitor's deep link to a signed-in page settles on / without anything moving on screen", async ({ page }) => {
  await recordLayoutShifts(page);
  for (const viewport of Object.values(viewports)) {
    await page.setViewportSize(viewport);
    await page.goto('/modules/introduction-to-calculus');
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByRole('button', { name: 'Sign Up' }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await layoutShifts(page)).toEqual([]);
  }
});

test('the signed-in shell at phone size: the menu opens and has no axe violations', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await loginAs(page, 'student');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/signed-in-menu-phone.png', fullPage: true });
});

test('after one visit, a public page opens with no connection', async ({ page, context }) => {
  await page.goto('/about');
  await waitForActiveServiceWorker(page);
  const heading = await page.locator('h1').textContent();

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('h1')).toHaveText(heading!);
  await page.goto('/testimonials');
  await expect(page.locator('h1')).toBeVisible();
  await context.setOffline(false);
});

test('the manifest names the app and lists its icons', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.short_name).toBe('TutorBook');
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status()).toBe(200);
});

test('hashed assets are compressed and cached for a year; the shell and the service worker are always revalidated', async ({
  request,
}) => {
  const shell = await request.get('/');
  expect(shell.headers()['cache-control']).toBe('no-cache');
  const html = await shell.text();
  // The page's boot script, and the entry it loads (src/client/boot.ts).
  const boot = /src="(\/assets\/boot-[^"]+\.js)"/.exec(html)?.[1];
  const script = /data-entry="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(boot).toBeTruthy();
  expect(script).toBeTruthy();
  expect((await request.get(boot!)).headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const asset = await request.get(script!, { headers: { 'accept-encoding': 'gzip, br' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // Precompressed at build time (scripts/compress-assets.ts).
  expect(asset.headers()['content-encoding']).toBe('br');
  expect((await request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');
  expect((await request.get('/api/health')).headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});

test("a visitor's Home runs no offline engine: no database, no engine code, no event stream; the Q&A board starts it", async ({
  page,
}) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const databases = () => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
  await page.goto('/');
  // Idle and hydrated: the service worker is registered once the page is idle (app/app.tsx).
  await waitForActiveServiceWorker(page);
  await page.waitForTimeout(1000);
  const engineCode = /^\/assets\/(engine|offline-setup|data-sync)-[\w-]+\.js$/;
  expect(requested.filter((path) => engineCode.test(path))).toEqual([]);
  expect(requested).not.toContain('/api/events');
  expect(await databases()).toEqual([]);

  // The board reads the device's database: the engine loads, fetches it, and listens for changes.
  await page.goto('/qa');
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await expect.poll(() => requested.includes('/api/questions')).toBe(true);
  await expect.poll(() => requested.includes('/api/events')).toBe(true);
  expect(await databases()).toContain('tutorbook');
});

test('a signed-in student is still recognised offline after a reload', async ({ page, context }) => {
  const account = await loginAs(page, 'student');
  await page.goto('/student-dashboard');
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}!` })).toBeVisible();
  await waitForActiveServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}!` })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' })).toBeVisible();
  await context.setOffline(false);
});

test('a new release shows "A new version is available" and Reload switches to it', async ({ page }) => {
  await page.goto('/about');
  await waitForActiveServiceWorker(page);
  const firstWorker = await page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration())!.active!.scriptURL,
  );

  // A new release, as the browser sees one: sw.js differs by a byte. (The precompressed copies would be
  // served first, so they are set aside meanwhile.)
  const sw = path.join(e2eClientDir, 'sw.js');
  const saved = new Map([sw, `${sw}.br`, `${sw}.gz`].map((f) => [f, readFileSync(f)]));
  try {
    writeFileSync(sw, Buffer.concat([saved.get(sw)!, Buffer.from('\n// next release\n')]));
    rmSync(`${sw}.br`);
    rmSync(`${sw}.gz`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());

    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available.' });
    await expect(prompt).toBeVisible();
    // Apart from the toasts: at the bottom of a phone (its toasts come under the navbar), at the top of a
    // wider screen (its toasts come at the bottom right).
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      const box = (await prompt.boundingBox())!;
      if (size === 'phone') expect(box.y + box.height, 'the prompt’s bottom').toBeGreaterThan(viewport.height - 40);
      else expect(box.y, 'the prompt’s top').toBeLessThan(viewport.height / 4);
      await page.screenshot({ path: `test-results/screenshots/update-prompt-${size}.png` });
    }
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(prompt).toHaveCount(0);
    const after = await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      return { waiting: Boolean(registration.waiting), controlled: Boolean(navigator.serviceWorker.controller) };
    });
    expect(after).toEqual({ waiting: false, controlled: true });
    expect(firstWorker).toContain('/sw.js');
  } finally {
    for (const [file, data] of saved) writeFileSync(file, data);
  }
});
