import { expect, test, type Page } from '@playwright/test';
import { nextMonth } from '../src/common/packages.ts';
import { payFastMessages } from '../src/common/payfast.ts';
import { sastDate } from '../src/common/sast.ts';
import {
  confirmTime,
  emailTo,
  expectNoAxeViolations,
  newModule,
  origin,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * Paying online (issue 37 §4), as a student meets it on a site set up with PayFast (here the stand-in of
 * scripts/payfast-standin.ts, which tests/start-server.ts starts beside the server): "Pay now" on a confirmed
 * session takes her to PayFast's page with the amount owing; paid, she is back on her dashboard, which says so,
 * and the card turns to Paid when PayFast's notice is in, with its receipt. Leaving PayFast without paying
 * changes nothing. Offline, the button says it needs the connection.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));
const studentCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name });

test('a student pays a confirmed session through PayFast and sees it paid, with its receipt', async ({ browser }) => {
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(6),
    slots: ['08:00', '12:30', '16:00'],
    hours: 2,
  });
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  await confirmTime(tutor.page.request, requested, '12:30');

  await student.page.goto('/student-dashboard');
  const card = studentCard(student.page, module.name);
  await expect(card).toContainText('R180 to pay');
  const pay = card.getByRole('button', { name: `${payFastMessages.payNow}: R180` });
  await expect(pay).toBeVisible();
  await expect(card).toContainText(payFastMessages.payNowHint);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await card.scrollIntoViewIfNeeded();
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoAxeViolations(student.page);
    await card.screenshot({ path: `test-results/screenshots/payfast-pay-now-${size}.png` });
  }

  // Offline, the button says why nothing happens.
  await student.context.setOffline(true);
  await pay.click();
  await expect(card.getByRole('status').filter({ hasText: payFastMessages.offline })).toBeVisible();
  await student.context.setOffline(false);

  // First she leaves PayFast without paying: back on the dashboard, told so, and still owing.
  await pay.click();
  await expect(student.page.getByRole('heading', { name: 'Pay R180.00' })).toBeVisible();
  await student.page.getByRole('button', { name: 'Cancel' }).click();
  await expect(student.page).toHaveURL(/\/student-dashboard\?payfast=cancelled$/);
  await expect(student.page.getByText(payFastMessages.cancelled)).toBeVisible();
  await expect(card).toContainText('R180 to pay');

  // Then she pays: PayFast's page names the session; back on the dashboard the card turns to Paid.
  await card.getByRole('button', { name: `${payFastMessages.payNow}: R180` }).click();
  await expect(student.page.getByRole('heading', { name: 'Pay R180.00' })).toBeVisible();
  await expect(student.page.getByText(new RegExp(`^${module.name}, .+, 12:30 SAST$`))).toBeVisible();
  await student.page.getByRole('button', { name: 'Complete payment' }).click();
  await expect(student.page).toHaveURL(/\/student-dashboard\?payfast=paid$/);
  await expect(student.page.getByText(payFastMessages.returned)).toBeVisible();
  await expect(card.getByText('Paid', { exact: true })).toBeVisible();
  await expect(card).toContainText('R180 received');
  await expect(card.getByRole('button', { name: /^Pay now/ })).toHaveCount(0);
  await expect(card).toContainText('recorded a payment of R180 through PayFast');
  await expect(
    card.getByRole('region', { name: 'Payments' }).getByRole('button', { name: /^Download the receipt for R180/ }),
  ).toBeVisible();
  const email = await emailTo(student.account.email, /^Receipt R-[0-9A-F-]+: R180 for /);
  expect(email.attachments.some((a) => a.contentType === 'application/pdf')).toBe(true);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await expectNoAxeViolations(student.page);
    await student.page.screenshot({ path: `test-results/screenshots/payfast-paid-${size}.png`, fullPage: true });
  }

  // The admin's card of the booking says how it was paid.
  await admin.page.goto('/admin-dashboard');
  const staffCard = admin.page.getByRole('region', { name: 'Bookings' }).getByRole('article', { name: module.name });
  await expect(staffCard).toContainText('recorded a payment of R180 through PayFast');
  // And the admin can download its receipt for the student, as the student can.
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    staffCard.getByRole('button', { name: /^Download the receipt for R180/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tutorbook-receipt-R-[0-9A-F-]+\.pdf$/);
  for (const { context } of [admin, student, tutor]) await context.close();
});

test('a student pays a monthly package through PayFast from the dashboard', async ({ browser }) => {
  const admin = await userPage(browser, 'admin');
  const name = `3 hours of Maths ${crypto.randomUUID().slice(0, 6)}`;
  const offered = await admin.page.request.post('/api/packages/offers', {
    data: { id: crypto.randomUUID(), name, category: 'Mathematics', hours: 3, priceCents: 45_000 },
    headers: { origin },
  });
  expect(offered.status(), await offered.text()).toBe(201);
  const student = await userPage(browser, 'student');
  const bought = await student.page.request.post('/api/packages', {
    data: {
      id: crypto.randomUUID(),
      offerId: ((await offered.json()) as { id: string }).id,
      month: nextMonth(sastDate(new Date()).slice(0, 7)),
    },
    headers: { origin },
  });
  expect(bought.status(), await bought.text()).toBe(201);

  await student.page.goto('/student-dashboard');
  const packages = student.page.getByRole('region', { name: 'Your packages' });
  const card = packages.getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Awaiting payment: R450');
  await card.getByRole('button', { name: `${payFastMessages.payNow}: R450` }).click();
  await expect(student.page.getByRole('heading', { name: 'Pay R450.00' })).toBeVisible();
  await student.page.getByRole('button', { name: 'Complete payment' }).click();
  await expect(student.page).toHaveURL(/\/student-dashboard\?payfast=paid$/);
  // The packages are read when the dashboard opens: the notice may come in just after; a reload shows it.
  await expect(async () => {
    await student.page.reload();
    await expect(card).toContainText('Paid. 3 of 3 hours left', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(card.getByRole('button', { name: /^Pay now/ })).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Download the receipt for R450/ })).toBeVisible();
  await student.page.setViewportSize(viewports.phone);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: 'test-results/screenshots/payfast-package-paid-phone.png' });
  for (const { context } of [admin, student]) await context.close();
});
