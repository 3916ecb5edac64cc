import { expect, test, type Page } from '@playwright/test';
import {
  expectNoAxeViolations,
  linkFromEmail,
  loginAs,
  makeStaff,
  origin,
  password,
  signUpAndVerify,
  submitLogin,
  uniqueEmail,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

const home = new RegExp(`^${origin}/$`);
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The number of rows in one of the app's IndexedDB tables. */
const localRows = (page: Page, table: string) =>
  page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction(name).objectStore(name).count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
    table,
  );

test('a browser holding only the session cookie (new device, cleared site data) opens guarded pages and stays on them', async ({
  page,
  browser,
}) => {
  await loginAs(page, 'student');
  const cookies = await page.context().cookies();

  for (const path of ['/offers', '/profile', '/student-dashboard', '/modules/introduction-to-statistics']) {
    const fresh = await browser.newContext();
    await fresh.addCookies(cookies);
    const tab = await fresh.newPage();
    await tab.goto(path);
    await expect(nav(tab).getByRole('link', { name: 'Profile' })).toBeVisible();
    await tab.waitForTimeout(500);
    expect(new URL(tab.url()).pathname, `${path} stays`).toBe(path);
    await fresh.close();
  }
});

test('a deep link opened signed out comes back after logging in', async ({ page, browser }) => {
  const account = await signUpAndVerify(page.request, 'Deep Link');
  const context = await browser.newContext();
  const tab = await context.newPage();

  // Spec §2: /profile sends a visitor to /login; after the login, back to /profile.
  await tab.goto('/profile');
  await expect(tab).toHaveURL(/\/login$/);
  await submitLogin(tab, account);
  await expect(tab).toHaveURL(/\/profile$/);
  await expect(tab.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await context.close();

  // Other pages send a visitor home; Sign In from there still comes back to the page asked for.
  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto('/modules/fet-mathematics');
  await expect(other).toHaveURL(home);
  await nav(other).getByRole('link', { name: 'Sign In' }).click();
  await submitLogin(other, account);
  await expect(other).toHaveURL(/\/modules\/fet-mathematics$/);
  await second.close();
});

test('"Create an account" on /login reaches the sign-up form, in a browser that never saw the home page, even clicked before /login is interactive', async ({
  page,
}) => {
  // /login as it arrives (scripts/prerender.ts), never hydrated: the link is followed natively.
  const entry = /\/assets\/index-[\w-]+\.js$/;
  await page.route(entry, (route) =>
    new URL(route.request().frame().url()).pathname === '/login' ? route.abort() : route.continue(),
  );
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  expect(await page.evaluate(() => localStorage.getItem('visitedHome'))).toBeNull();

  // Once interactive, the link sets the flag and the router goes there.
  await page.unroute(entry);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeEnabled();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  expect(await page.evaluate(() => localStorage.getItem('visitedHome'))).toBe('true');
});

test('log-out from /profile lands on the home page', async ({ page }) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  await nav(page).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(home);
  await expect(nav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('log-out works offline: local data goes at once, the server session ends when the connection returns', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await waitForActiveServiceWorker(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expect.poll(() => localRows(page, 'modules')).toBeGreaterThan(0);
  const cookie = (await context.cookies()).find((c) => c.name === '__session')!;
  expect(cookie).toBeTruthy();

  await context.setOffline(true);
  await nav(page).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(home);
  await expect(nav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await localRows(page, 'session')).toBe(0);
  expect(await localRows(page, 'enrolments')).toBe(0);
  // Still offline, a reload keeps the user logged out although the browser still holds the cookie.
  await page.reload();
  await expect(nav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);

  // Back online, the app tells the server: the old session no longer works anywhere.
  await context.setOffline(false);
  await expect
    .poll(
      async () =>
        (await page.request.get('/api/me', { headers: { cookie: `${cookie.name}=${cookie.value}` } })).status(),
      { timeout: 15_000 },
    )
    .toBe(401);
  await page.reload();
  await expect(nav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('an ended session says so, offers to log in again in place, and keeps what was typed', async ({ page }) => {
  const account = await loginAs(page, 'student');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change name' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Sipho Dlamini-Khumalo');

  // The session ends on the server (another device changed the password, it expired, …).
  const ended = await page.request.post('/api/auth/sign-out', { data: {}, headers: { origin } });
  expect(ended.status()).toBe(200);

  await page.getByRole('button', { name: 'Download my data' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Your session has ended');
  await expect(page.getByText('Failed to download your data. Please try again.')).toHaveCount(0);
  await expectNoAxeViolations(page);
  // Behind the dialog, the page and what was typed on it.
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Sipho Dlamini-Khumalo');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  await expect(dialog.getByLabel('Email')).toHaveValue(account.email);
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Login' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Sipho Dlamini-Khumalo');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name has been changed.')).toBeVisible();
  await expect(page.getByText('Sipho Dlamini-Khumalo')).toBeVisible();
});

test('a session that ends while offline shows the log-in dialog on reconnecting, with what was typed kept', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change name' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Typed While Offline');
  await context.setOffline(true);
  // Meanwhile the session ends on the server (the request runs outside the offline browser).
  expect((await page.request.post('/api/auth/sign-out', { data: {}, headers: { origin } })).status()).toBe(200);
  await context.setOffline(false);
  await expect(page.getByRole('alertdialog')).toContainText('Your session has ended');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Typed While Offline');
  await expect(page).toHaveURL(/\/profile$/);
});

test('opening the app after the session ran out signs out and clears the last user’s data (shared devices)', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  await expect.poll(() => localRows(page, 'session')).toBe(1);
  await context.clearCookies();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect.poll(() => localRows(page, 'session')).toBe(0);
  expect(await localRows(page, 'enrolments')).toBe(0);
});

test('an ended session found by Enroll shows the log-in dialog, not "Failed to enroll"; Log out leaves', async ({
  page,
}) => {
  await loginAs(page, 'student');
  // Idle first: a pull still under way when the session ends would find it before Enroll does.
  await page.goto('/profile', { waitUntil: 'networkidle' });
  await page.getByLabel('Enroll in a module').selectOption({ label: 'Introduction to Statistics' });
  await page.request.post('/api/auth/sign-out', { data: {}, headers: { origin } });
  await page.getByRole('button', { name: 'Enroll' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Enroll' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Your session has ended');
  await expect(page.getByText('Failed to enroll. Try again later.')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(home);
  await expect(nav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('Enroll is not busy while its confirmation is open', async ({ page }) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  await page.getByLabel('Enroll in a module').selectOption({ label: 'FET Mathematics' });
  await page.getByRole('button', { name: 'Enroll' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Enroll in "FET Mathematics"?');
  await expect(page.getByRole('button', { name: 'Enrolling…' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Enroll', exact: true })).toBeEnabled();
});

test('a password change from the profile ends the other devices and keeps this one', async ({ page, browser }) => {
  const account = await loginAs(page, 'student');
  const phone = await browser.newContext();
  const phoneTab = await phone.newPage();
  await phoneTab.goto('/login');
  await submitLogin(phoneTab, account);
  await expect(phoneTab).toHaveURL(/\/offers$/);

  await page.goto('/profile');
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill('a changed passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('That is not your current password.')).toBeVisible();
  await expect(page.getByLabel('New password')).toHaveValue('a changed passphrase');

  await page.getByLabel('Current password').fill(account.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed.', { exact: false })).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(200);
  expect((await phoneTab.request.get('/api/me')).status()).toBe(401);
  await phone.close();
});

test('after sign-up: a "check your inbox" screen; a refused login offers a new link, and every link lands on the login page', async ({
  page,
}) => {
  const email = uniqueEmail('resend');
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).first().click();
  await page.getByLabel('Name').fill('Lwazi Mthembu');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('button', { name: /Send it again \(in \d+ s\)/ })).toBeDisabled();
  for (const size of ['phone', 'desktop'] as const) {
    await page.setViewportSize(viewports[size]);
    await page.screenshot({ path: `test-results/screenshots/check-inbox-${size}.png`, fullPage: true });
  }
  await expectNoAxeViolations(page);
  const first = await linkFromEmail(email, /Verify/);

  // A login before confirming: the spec's alert and /home, with an offer to send the link again (and no e-mail unasked).
  await page.goto('/login');
  await submitLogin(page, { email, password });
  await expect(
    page.getByText('Please verify your email before logging in. Check your inbox or spam folder.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);

  // (The server sends at most one a minute to an address; the integration tests cover that it does send.)
  await page.getByRole('button', { name: 'Send the link again' }).click();
  await expect(page.getByText(`A link is on its way to ${email}.`, { exact: false })).toBeVisible();
  // The first link still works, and lands where every link does: the login page, which confirms on login.
  await page.goto(first);
  await expect(page).toHaveURL(/\/login\?verify=/);
  await expect(page.getByText('Log in with the password you chose to confirm your e-mail address.')).toBeVisible();
  await submitLogin(page, { email, password });
  await expect(page).toHaveURL(/\/offers$/);
  await expect(page.getByText('Your e-mail address is confirmed. Welcome!')).toBeVisible();
});

test('invited staff see "Set your password" and land on their dashboard after logging in', async ({ page }) => {
  const email = uniqueEmail('invited-tutor');
  makeStaff(email, 'tutor', ['Statistics']);
  await page.goto(await linkFromEmail(email, /invited/));
  await expect(page).toHaveURL(/\/change-password\?invited=1&token=/);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('a tutor passphrase');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Your password is set. You can log in now.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, { email, password: 'a tutor passphrase' });
  await expect(page).toHaveURL(/\/tutor-dashboard$/);
  await expect(page.getByText('Your subjects: Statistics.')).toBeVisible();
});

test('the phone menu closes with Escape and gives focus back to its button', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await loginAs(page, 'student');
  // Scrolled down, the menu opens over the courses.
  await expect(page.getByRole('region', { name: 'Statistics' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 400));
  const button = page.getByRole('button', { name: 'Open menu' });
  await button.click();
  await expect(nav(page).getByRole('link', { name: 'Profile' })).toBeVisible();
  // Open over the page, the menu is opaque: see-through, the text behind it showed between its links.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    // The background's alpha, drawn on a canvas (Tailwind's colours are oklch and color-mix).
    const alpha = () =>
      page.getByRole('banner').evaluate((header) => {
        const context = document.createElement('canvas').getContext('2d')!;
        context.fillStyle = getComputedStyle(header).backgroundColor;
        context.fillRect(0, 0, 1, 1);
        return context.getImageData(0, 0, 1, 1).data[3];
      });
    await expect.poll(alpha, scheme).toBe(255);
    expect(await page.getByRole('banner').evaluate((header) => getComputedStyle(header).backdropFilter)).toBe('none');
    await page.screenshot({ path: `test-results/screenshots/phone-menu-open-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: null });
  await page.keyboard.press('Escape');
  await expect(nav(page).getByRole('link', { name: 'Profile' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
});
