import { expect, test, type Browser, type Page } from '@playwright/test';
import { noAvailability, weekdayNames, type Availability } from '../src/common/availability.ts';
import type { Booking } from '../src/common/bookings.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import {
  createModule,
  expectNoAxeViolations,
  landingByRole,
  logIn,
  loginAs,
  makeStaff,
  origin,
  requestBooking,
  confirmTime,
  signUpAndVerify,
  uniqueModuleName,
  viewports,
} from './fixtures.ts';

// Issue 36, "Never booked twice" and "a booking's tutor": what the staff card says before a time is confirmed.

const dayMs = 24 * 3_600_000;

async function signedIn(browser: Browser, role: 'student' | 'admin') {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await loginAs(page, role);
  return { context, page };
}

/** A tutor of `category` with a name the admin's messages can be read by. */
async function tutorNamed(browser: Browser, name: string, category: string) {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const account = await signUpAndVerify(page.request, name);
  makeStaff(account.email, 'tutor', [category]);
  await logIn(page, account, landingByRole.tutor);
  const me = (await (await page.request.get('/api/me')).json()) as { id: string };
  return { context, page, id: me.id };
}

const staffCard = (page: Page, module: string, booking: Booking) =>
  page
    .getByRole('region', { name: 'Bookings' })
    .getByRole('article', { name: module })
    .filter({ hasText: booking.paymentReference });
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

test('the card warns of a clash and of times outside the tutor’s hours; the admin chooses the tutor', async ({
  browser,
}) => {
  const admin = await signedIn(browser, 'admin');
  const module = await createModule(admin.page.request, {
    name: uniqueModuleName('Inference Clinic'),
    priceCents: 9000,
    category: 'Statistics',
  });
  const tutor = await tutorNamed(browser, 'Musa Stats', 'Statistics');
  const student = await signedIn(browser, 'student');

  // Hours 09:00 to 17:00 every day, a quarter of an hour kept free around each session.
  const hours: Availability = {
    ...noAvailability,
    weekly: weekdayNames.map(() => [{ start: '09:00', end: '17:00' }]),
    bufferMinutes: 15,
  };
  const saved = await tutor.page.request.put(`/api/availability/${tutor.id}`, { data: hours, headers: { origin } });
  expect(saved.status(), await saved.text()).toBe(200);

  const date = sastDate(new Date(Date.now() + 3 * dayMs));
  const first = await requestBooking(student.page.request, {
    module: module.name,
    date,
    slots: ['13:30', '15:00', '16:00'],
  });
  await confirmTime(tutor.page.request, first, '13:30');
  const second = await requestBooking(student.page.request, {
    module: module.name,
    date,
    slots: ['14:00', '10:00', '18:00'],
  });

  // The tutor: the clash and the hours are read from the device, before any confirm.
  const { page } = tutor;
  await page.reload();
  const card = staffCard(page, module.name, second);
  const time = card.getByLabel('Time slot');
  await expect(time.locator('option', { hasText: '14:00 SAST (overlaps 13:30)' })).toHaveCount(1);
  await expect(time.locator('option', { hasText: '10:00 SAST (free)' })).toHaveCount(1);
  await expect(time.locator('option', { hasText: '18:00 SAST (outside hours)' })).toHaveCount(1);
  await expect(card).toContainText('18:00 is outside your working hours.');
  await time.selectOption('14:00');
  await expect(card.getByRole('status')).toHaveText('14:00 overlaps your 13:30 session.');
  await time.selectOption('10:00');
  await expect(card.getByRole('status')).toHaveText('');
  await time.selectOption('14:00');
  await expect(card.getByRole('status')).toHaveText('14:00 overlaps your 13:30 session.');

  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await card.screenshot({ path: `test-results/screenshots/staff-confirm-clash-${size}.png` });
  }

  // Confirmed anyway, the server refuses it and says why.
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(page, `14:00 on ${formatSastDate(date)} overlaps your 13:30 session.`)).toBeVisible();

  // The admin chooses the tutor: the warning then speaks of that tutor's sessions.
  const adminPage = admin.page;
  await adminPage.goto('/admin-dashboard');
  const adminCard = staffCard(adminPage, module.name, second);
  await adminCard.getByLabel('Tutor', { exact: true }).selectOption(tutor.id);
  const adminTime = adminCard.getByLabel('Time slot');
  await adminTime.selectOption('14:00');
  await expect(adminCard.getByRole('status')).toHaveText('14:00 overlaps Musa Stats’s 13:30 session.');
  await adminTime.selectOption('10:00');
  await expect(adminCard.getByRole('status')).toHaveText('');
  await expectNoAxeViolations(adminPage);
  // The card is taller than a phone: its confirm part, just under the sticky navbar.
  await adminPage.setViewportSize(viewports.phone);
  await adminCard.getByLabel('Tutor', { exact: true }).evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -120);
  });
  await adminPage.screenshot({ path: 'test-results/screenshots/staff-confirm-admin-phone.png' });
  await adminCard.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(adminPage, 'Time confirmed: 10:00')).toBeVisible();
  const res = await adminPage.request.get('/api/bookings', { params: { category: 'Statistics' } });
  const stored = ((await res.json()) as { bookings: Booking[] }).bookings.find((b) => b.id === second.id);
  expect(stored).toMatchObject({
    status: 'Confirmed',
    confirmedSlot: '10:00',
    tutor: { id: tutor.id, name: 'Musa Stats' },
  });

  for (const context of [admin.context, tutor.context, student.context]) await context.close();
});
