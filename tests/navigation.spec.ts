import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, loginAs, signUpAndVerify, submitLogin, viewports } from './fixtures.ts';

test('signed out: Home, Testimonials and Sign In; guarded pages send visitors away', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Testimonials' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  await page.goto('/offers');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
});

test('a visitor opening a link to a module is told to log in to see it, and is on the module once logged in', async ({
  page,
}) => {
  const account = await signUpAndVerify(page.request);
  await page.setViewportSize(viewports.phone);
  await page.goto('/modules/introduction-to-calculus');
  // The spec's redirect to /, now with a word on why.
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  const notice = page.getByRole('main').getByRole('status').filter({ hasText: 'Log in to see this module.' });
  await expect(notice).toBeVisible();
  // A toast on a phone (here the first visit's "works offline") comes under the notice, not over it.
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'works offline' });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  const below = async () => {
    const [noticeBox, toastBox] = await Promise.all([notice.boundingBox(), toast.boundingBox()]);
    return toastBox!.y - (noticeBox!.y + noticeBox!.height);
  };
  await expect.poll(below, { message: 'the toast’s top less the notice’s bottom' }).toBeGreaterThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screenshots/login-to-see-module-toast-phone.png' });
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/login-to-see-module-home-${size}.png` });
  }

  await notice.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: 'Log in to see this module.' }),
  ).toBeVisible();
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/login-to-see-module-login-${size}.png` });
  }
  await submitLogin(page, account);
  await expect(page).toHaveURL(/\/modules\/introduction-to-calculus$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction To Calculus' })).toBeVisible();
  await expect(page.getByText('Log in to see this module.')).toHaveCount(0);
});

test('an unknown path gets the 404 page with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

for (const [role, dashboard] of [
  ['student', '/student-dashboard'],
  ['tutor', '/tutor-dashboard'],
  ['admin', '/admin-dashboard'],
] as const) {
  test(`a ${role} sees Community, Courses, Dashboard, Profile and Log out; Dashboard goes to ${dashboard}`, async ({
    page,
  }) => {
    await loginAs(page, role);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Community', 'Courses', 'Profile']) await expect(nav.getByRole('link', { name })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(new RegExp(`${dashboard}$`));
  });
}

test('a student opening the admin dashboard is told it is not allowed', async ({ page }) => {
  await loginAs(page, 'student');
  await page.goto('/admin-dashboard');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});

test('log out asks first, keeps focus in the dialog, and signs out on Log out', async ({ page }) => {
  await loginAs(page, 'student');
  const logOut = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' });
  await logOut.click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Are you sure you want to log out?');
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(logOut).toBeFocused();

  await logOut.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(401);
});
