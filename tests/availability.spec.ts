import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { availabilityMessages } from '../src/common/availability.ts';
import type { TutorAvailability } from '../src/common/availability-api.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import { expectNoAxeViolations, loginAs, origin, viewports } from './fixtures.ts';

// Issue 36: the working-hours page, a tutor's own and the admin's for any tutor.

/** A browser context of its own (its own cookies) with a fresh account of `role` signed in. */
async function userPage(browser: Browser, role: 'student' | 'tutor' | 'admin', categories?: string[]) {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const account = await loginAs(page, role, categories);
  const me = (await (await page.request.get('/api/me')).json()) as { id: string };
  return { context, page, account, id: me.id };
}

const form = (page: Page) => page.getByRole('form', { name: 'Working hours' });
const day = (page: Page, name: string) => form(page).getByRole('group', { name, exact: true });
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/** Adds a range to `dayName` and types its times, as a tutor would. */
async function addRange(page: Page, dayName: string, start: string, end: string) {
  const group = day(page, dayName);
  const place = (await group.getByRole('listitem').count()) + 1;
  await group.getByRole('button', { name: `Add a range on ${dayName}` }).click();
  await group.getByLabel(`From (${dayName}, range ${place})`).fill(start);
  await group.getByLabel(`To (${dayName}, range ${place})`).fill(end);
}

const timesOf = async (group: Locator) =>
  group.getByRole('textbox').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

/** The whole page from its top: scrolled down, the sticky navbar would be drawn across the middle of it. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

async function storedHours(page: Page, tutorId: string) {
  const res = await page.request.get(`/api/availability/${tutorId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as TutorAvailability).availability;
}

test('a tutor sets their week, a date off and a buffer, sees them after a reload, and a bad range keeps what was typed', async ({
  browser,
}) => {
  const { page, id, context } = await userPage(browser, 'tutor');
  await page.getByRole('link', { name: 'Working hours' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your working hours' })).toBeVisible();
  await expect(page.getByText('You have not set your working hours yet.')).toBeVisible();

  await addRange(page, 'Monday', '0900', '12:00');
  await addRange(page, 'Monday', '14:00', '17:00');
  await addRange(page, 'Tuesday', '10:00', '13:30');
  const dayOff = sastDate(new Date(Date.now() + 10 * 86_400_000));
  await form(page).getByLabel('Date off').fill(dayOff);
  await form(page).getByRole('button', { name: 'Add date off' }).click();
  await form(page).getByLabel('Buffer between sessions (minutes)').fill('15');
  await form(page).getByRole('button', { name: 'Save working hours' }).click();
  await expect(toastWith(page, 'Your working hours are saved.')).toBeVisible();
  expect(await storedHours(page, id)).toMatchObject({
    weekly: [
      [
        { start: '09:00', end: '12:00' },
        { start: '14:00', end: '17:00' },
      ],
      [{ start: '10:00', end: '13:30' }],
      [],
      [],
      [],
      [],
      [],
    ],
    daysOff: [dayOff],
    bufferMinutes: 15,
  });

  await page.reload();
  await expect(day(page, 'Monday').getByRole('listitem')).toHaveCount(2);
  expect(await timesOf(day(page, 'Monday'))).toEqual(['09:00', '12:00', '14:00', '17:00']);
  expect(await timesOf(day(page, 'Tuesday'))).toEqual(['10:00', '13:30']);
  const daysOff = form(page).getByRole('list', { name: 'Dates off' }).getByRole('listitem');
  await expect(daysOff).toHaveCount(1);
  await expect(daysOff.getByRole('button', { name: `Remove ${formatSastDate(dayOff)}` })).toBeVisible();
  await expect(form(page).getByLabel('Buffer between sessions (minutes)')).toHaveValue('15');
  await expect(page.getByText('You have not set your working hours yet.')).toHaveCount(0);

  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await screenshot(page, `availability-${size}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await screenshot(page, 'availability-desktop-dark');
  await page.emulateMedia({ colorScheme: null });

  // End before start: named under the range, the range's inputs marked and keeping what was typed, nothing sent.
  await addRange(page, 'Wednesday', '15:00', '13:00');
  await form(page).getByRole('button', { name: 'Save working hours' }).click();
  const wednesday = day(page, 'Wednesday');
  await expect(wednesday.getByText(availabilityMessages.rangeOrder)).toBeVisible();
  await expect(wednesday.getByLabel('From (Wednesday, range 1)')).toBeFocused();
  await expect(wednesday.getByLabel('From (Wednesday, range 1)')).toHaveAttribute('aria-invalid', 'true');
  expect(await timesOf(wednesday)).toEqual(['15:00', '13:00']);
  expect((await storedHours(page, id)).weekly[2]).toEqual([]);
  await expectNoAxeViolations(page);
  await screenshot(page, 'availability-error-desktop');

  // Offline: said at once, and Save cannot be pressed.
  await context.setOffline(true);
  await expect(page.getByText('You are offline. Connect to the internet to change working hours.')).toBeVisible();
  await expect(form(page).getByRole('button', { name: 'Save working hours' })).toBeDisabled();
  await context.close();
});

test('the admin chooses a category and a tutor and sets their hours; a student is kept out', async ({ browser }) => {
  const tutor = await userPage(browser, 'tutor', ['Statistics']);
  const admin = await userPage(browser, 'admin');
  const { page } = admin;
  await page.getByRole('link', { name: 'Working hours' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tutors’ working hours' })).toBeVisible();
  await page.getByLabel('Category').selectOption('Statistics');
  await page.getByLabel('Tutor').selectOption(tutor.id);
  await expect(page.getByText('No working hours are set yet.')).toBeVisible();
  await addRange(page, 'Friday', '08:00', '10:00');
  await form(page).getByRole('button', { name: 'Save working hours' }).click();
  await expect(toastWith(page, 'Lerato Tutor’s working hours are saved.')).toBeVisible();
  expect((await storedHours(tutor.page, tutor.id)).weekly[4]).toEqual([{ start: '08:00', end: '10:00' }]);

  // The choice is in the address: a reload shows the same tutor's hours.
  await page.reload();
  await expect(page.getByLabel('Tutor')).toHaveValue(tutor.id);
  expect(await timesOf(day(page, 'Friday'))).toEqual(['08:00', '10:00']);
  await page.setViewportSize(viewports.phone);
  await expectNoAxeViolations(page);
  await screenshot(page, 'availability-admin-phone');

  const student = await userPage(browser, 'student');
  await student.page.goto('/availability');
  await expect(student.page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(student.page.getByRole('form', { name: 'Working hours' })).toHaveCount(0);
  await Promise.all([tutor.context.close(), admin.context.close(), student.context.close()]);
});
