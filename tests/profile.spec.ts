import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { sastDate } from '../src/common/sast.ts';
import {
  createModule,
  expectNoAxeViolations,
  journeyTimeout,
  logIn,
  loginAs,
  origin,
  uniqueModuleName,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

const offline = 'You are offline. Connect to the internet to change your enrolments or account.';

test('a student enrols and removes a module, each after confirming; an enrolled module is not offered again', async ({
  page,
}) => {
  const account = await loginAs(page, 'student');
  await page.goto('/profile');
  await expect(page.getByText(account.name, { exact: true })).toBeVisible();
  await expect(page.getByText(account.email, { exact: true })).toBeVisible();
  await expect(page.getByText('You are not enrolled in any module yet.')).toBeVisible();

  const select = page.getByLabel('Enroll in a module');
  await page.getByRole('button', { name: 'Enroll' }).click();
  await expect(page.getByText('Please select a module to enroll.')).toBeVisible();

  await select.selectOption({ label: 'Introduction to Statistics' });
  await page.getByRole('button', { name: 'Enroll' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Enroll in "Introduction to Statistics"?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('You are not enrolled in any module yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Enroll' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Enroll' }).click();
  await expect(page.getByText('Enrolled in "Introduction to Statistics" successfully.')).toBeVisible();
  const enrolment = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Introduction to Statistics' }) });
  await expect(enrolment).toBeVisible();
  await expect(select.getByRole('option', { name: 'Introduction to Statistics' })).toHaveCount(0);
  await expect(select.getByRole('option', { name: 'FET Mathematics' })).toHaveCount(1);

  // Still there after a reload: it came from the server, not only from this page.
  await page.reload();
  await expect(enrolment).toBeVisible();

  await enrolment.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Remove "Introduction to Statistics" from your modules?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Module "Introduction to Statistics" removed successfully.')).toBeVisible();
  await expect(page.getByText('You are not enrolled in any module yet.')).toBeVisible();
  await expect(select.getByRole('option', { name: 'Introduction to Statistics' })).toHaveCount(1);
  expect((await (await page.request.get('/api/me/enrolments')).json()).enrolments).toEqual([]);
});

test('offline, the profile still opens, and Enroll, Remove and Delete Account say so and change nothing', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  const select = page.getByLabel('Enroll in a module');
  await select.selectOption({ label: 'FET Mathematics' });
  await page.getByRole('button', { name: 'Enroll' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Enroll' }).click();
  await expect(page.getByText('Enrolled in "FET Mathematics" successfully.')).toBeVisible();
  await waitForActiveServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  const enrolment = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'FET Mathematics' }) });
  await expect(enrolment).toBeVisible();

  await select.selectOption({ label: 'Introduction to Statistics' });
  await page.getByRole('button', { name: 'Enroll' }).click();
  await expect(page.getByText(offline).first()).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await enrolment.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(enrolment).toBeVisible();

  await context.setOffline(false);
  const { enrolments } = await (await page.request.get('/api/me/enrolments')).json();
  expect(enrolments.map((e: { moduleName: string }) => e.moduleName)).toEqual(['FET Mathematics']);
  expect((await page.request.get('/api/me')).status()).toBe(200);
});

test('a module the admin deletes stays on the student profile by name, without a link', async ({ page, browser }) => {
  await loginAs(page, 'admin');
  const module = await createModule(page.request, {
    name: uniqueModuleName('Numerical Methods'),
    priceCents: 9000,
    category: 'Mathematics',
  });

  const student = await browser.newContext({ baseURL: origin });
  const studentPage = await student.newPage();
  await loginAs(studentPage, 'student');
  expect(
    (
      await studentPage.request.post('/api/me/enrolments', { data: { moduleId: module.id }, headers: { origin } })
    ).status(),
  ).toBe(201);
  expect((await page.request.delete(`/api/modules/${module.id}`, { headers: { origin } })).status()).toBe(200);

  await studentPage.goto('/profile');
  const enrolment = studentPage.getByRole('listitem').filter({ hasText: module.name });
  await expect(enrolment).toContainText('This module is no longer offered.');
  await expect(enrolment.getByRole('link')).toHaveCount(0);
  await expect(enrolment.getByRole('button', { name: 'Remove' })).toBeVisible();
  await student.close();
});

test('Download my data saves a JSON file holding the account', async ({ page }) => {
  const account = await loginAs(page, 'student');
  await page.goto('/profile');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const text = readFileSync(await download.path(), 'utf8');
  expect(() => JSON.parse(text)).not.toThrow();
  expect(text).toContain(account.email);
});

test('Delete Account: confirmation, the spec toast, /login, and the old login no longer works', async ({ page }) => {
  const account = await loginAs(page, 'student');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Delete your account?');
  await dialog.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' })).toBeVisible();

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password. Please try again.');
  // Nothing personal is left in the browser.
  const local = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('tutorbook');
        open.onsuccess = () => {
          const count = open.result.transaction('enrolments').objectStore('enrolments').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
  expect(local).toBe(0);
});

test('/profile: no axe violations, screenshots at phone and desktop size', async ({ page }) => {
  await loginAs(page, 'student');
  expect(
    (
      await page.request.post('/api/me/enrolments', {
        data: { moduleId: await moduleId(page.request, 'introduction-to-oop-with-java') },
        headers: { origin },
      })
    ).status(),
  ).toBe(201);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.goto('/profile');
    await expect(page.getByRole('link', { name: 'Introduction to OOP With Java' })).toBeVisible();
    await expect(page.locator('h1')).toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/profile-${size}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Enroll' }).click();
  await expect(page.getByText('Please select a module to enroll.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/profile-desktop-dark.png', fullPage: true });
});

async function moduleId(request: import('@playwright/test').APIRequestContext, slug: string): Promise<string> {
  const res = await request.get(`/api/modules/${slug}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

test('a student renames themself: their other open device says the new name at once, and the staff see it on older and newer bookings alike', async ({
  page,
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const admin = await browser.newContext({ baseURL: origin });
  const adminPage = await admin.newPage();
  await loginAs(adminPage, 'admin');
  const module = await createModule(adminPage.request, {
    name: uniqueModuleName('Renamed Student Revision'),
    priceCents: 9000,
    category: 'Mathematics',
  });
  const account = await loginAs(page, 'student');
  const book = async (days: number) => {
    const res = await page.request.post('/api/bookings', {
      data: {
        id: crypto.randomUUID(),
        module: module.name,
        date: sastDate(new Date(Date.now() + days * 86_400_000)),
        slots: ['09:00', '10:00', '11:00'],
        hours: 1,
        concepts: 'Past papers.',
      },
      headers: { origin },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  await book(4);

  // The same student on another device, with the dashboard open.
  const other = await browser.newContext({ baseURL: origin });
  const otherPage = await other.newPage();
  await logIn(otherPage, account);
  await otherPage.goto('/student-dashboard');
  await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${account.name}!`);
  await otherPage.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  await adminPage.goto('/admin-dashboard');
  const cards = adminPage.getByRole('region', { name: 'Bookings' }).getByRole('article', { name: module.name });
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(account.name);

  const newName = `${account.name}-Khumalo`;
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change name' }).click();
  await page.getByRole('form', { name: 'Change your name' }).getByLabel('Name').fill(newName);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText(newName, { exact: true })).toBeVisible();
  await book(6);

  // Live, without a reload: the welcome line on the other device, and every card on the admin's open page.
  await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${newName}!`);
  expect(await otherPage.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) {
    await expect(card).toContainText(newName);
    // Not the old name anywhere, the history (folded away) included.
    expect((await card.textContent())!.replaceAll(newName, '')).not.toContain(account.name);
  }
  for (const [size, viewport] of Object.entries(viewports)) {
    for (const shown of [otherPage, adminPage]) {
      await shown.setViewportSize(viewport);
      await expectNoAxeViolations(shown);
    }
    await otherPage.screenshot({ path: `test-results/screenshots/renamed-welcome-${size}.png` });
    await cards.first().scrollIntoViewIfNeeded();
    await adminPage.screenshot({ path: `test-results/screenshots/renamed-admin-bookings-${size}.png` });
  }
  await other.close();
  await admin.close();
});
