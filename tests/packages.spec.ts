import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { formatMonth, nextMonth } from '../src/common/packages.ts';
import { receiptMessages } from '../src/common/receipts.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import { pdfText } from '../src/server/test/pdf-text.ts';
import {
  confirmTime,
  emailTo,
  expectNoAxeViolations,
  journeyTimeout,
  newModule,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * Monthly packages (issue 37 §3), as the admin, a student and a tutor meet them: the admin offers "6 hours" of one
 * module; the student buys it for next month from the offers page and is given its reference; the admin records
 * its EFT, and the student downloads its receipt from their package card; the booking form then says the session comes from the package; three two-hour sessions confirmed by the
 * tutor draw its six hours, the student's dashboard shows the balance, and the last one is marked for the tutor.
 */
const month = nextMonth(sastDate(new Date()).slice(0, 7));
const dated = (day: number) => `${month}-${String(day).padStart(2, '0')}`;

const studentCard = (page: Page, date: string) =>
  page
    .getByRole('list', { name: 'Your bookings' })
    .getByRole('article')
    .filter({ hasText: formatSastDate(date) });
const paymentFact = (card: ReturnType<Page['locator']>) =>
  card
    .getByRole('term')
    .filter({ hasText: /^Payment$/ })
    .locator('xpath=following-sibling::dd[1]');

test('a student buys a monthly package, pays by EFT, and three sessions draw from it; the last is marked', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(150_000));
  const { admin, module } = await newModule(browser);
  const name = `6 hours of ${module.name}`.slice(0, 80);

  // The admin offers it, for this module only, from the Packages tab.
  await admin.page.goto('/admin-dashboard#packages');
  const offerForm = admin.page.getByRole('form', { name: 'Offer a monthly package' });
  await offerForm.getByLabel('Name').fill(name);
  await offerForm.getByLabel('Category').selectOption('Mathematics');
  await offerForm.getByLabel('Module').selectOption(module.name);
  await offerForm.getByLabel('Hours in the month').fill('6');
  // A price that is not one is refused in place, and kept as typed.
  await offerForm.getByLabel('Price (R)').fill('4S0');
  await offerForm.getByRole('button', { name: 'Offer package' }).click();
  await expect(offerForm.getByLabel('Price (R)')).toHaveAttribute('aria-invalid', 'true');
  await expect(offerForm.getByLabel('Price (R)')).toHaveValue('4S0');
  await offerForm.getByLabel('Price (R)').fill('450');
  await offerForm.getByRole('button', { name: 'Offer package' }).click();
  await expect(offerForm.getByText('Package saved.')).toBeVisible();
  const offered = admin.page
    .getByRole('region', { name: 'Packages offered' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(offered).toContainText('R450 (R75/hour)');

  // The student buys it for next month on the offers page.
  const student = await userPage(browser, 'student');
  await student.page.goto('/offers');
  const packages = student.page.getByRole('region', { name: 'Monthly packages' });
  const card = packages.getByRole('article', { name });
  await expect(card).toContainText('R450');
  await expect(card).toContainText('Unused hours lapse at the end of the month.');
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await card.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(student.page);
    expect(await student.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await packages.screenshot({ path: `test-results/screenshots/packages-offers-${size}.png` });
  }
  await card.getByLabel('Month').selectOption({ label: formatMonth(month) });
  await card.getByRole('button', { name: 'Buy package' }).click();
  const dialog = student.page.getByRole('alertdialog');
  await expect(dialog).toContainText(`for ${formatMonth(month)} at R450`);
  await dialog.getByRole('button', { name: 'Buy package' }).click();
  const bought = packages.getByRole('status').filter({ hasText: 'Package reserved' });
  await expect(bought).toContainText(/TB-[A-HJKMNP-Z2-9]{6}-P/);
  const reference = /TB-[A-HJKMNP-Z2-9]{6}-P/.exec((await bought.textContent()) ?? '')![0];

  await student.page.goto('/student-dashboard');
  const mine = student.page.getByRole('region', { name: 'Your packages' });
  await expect(mine).toContainText(`Awaiting payment: R450 by EFT with the reference ${reference}`);

  // The admin records the EFT in the Packages tab.
  await admin.page.reload();
  const boughtCard = admin.page
    .getByRole('region', { name: 'Packages bought' })
    .getByRole('listitem')
    .filter({ hasText: reference });
  await boughtCard.getByRole('button', { name: /^Record payment/ }).click();
  await expect(boughtCard.getByLabel('Amount (R)')).toHaveValue('450');
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await boughtCard.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await admin.page.getByRole('tabpanel').screenshot({ path: `test-results/screenshots/packages-admin-${size}.png` });
  }
  await boughtCard.getByRole('button', { name: 'Record payment', exact: true }).click();
  await expect(boughtCard).toContainText('Paid. 6 of 6 hours left');

  // The student's package card lists the payment with its receipt (issue 37 §4): downloaded, it says the package.
  await student.page.goto('/student-dashboard');
  const receipts = mine.getByRole('region', { name: 'Payments' });
  const paidOn = formatSastDate(sastDate(new Date()));
  const receiptButton = receipts.getByRole('button', { name: `Download the receipt for R450, paid ${paidOn} (PDF)` });
  await expect(receiptButton).toHaveText(receiptMessages.link);
  const [download] = await Promise.all([student.page.waitForEvent('download'), receiptButton.click()]);
  const fileName = download.suggestedFilename();
  expect(fileName).toMatch(/^tutorbook-receipt-R-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}\.pdf$/);
  const text = await pdfText(await readFile(await download.path()));
  const number = fileName.replace(/^tutorbook-receipt-|\.pdf$/g, '');
  for (const expected of [
    'Not VAT registered',
    `Receipt number: ${number}`,
    `Received from: ${student.account.name} (${student.account.email})`,
    `Paid on: ${paidOn}`,
    `Reference: ${reference}`,
    `Package: ${name}, ${formatMonth(month)}`,
    `6 hours of ${module.name} only; package reference ${reference}`,
    'Total paid R450',
  ])
    expect(text).toContain(expected);
  const email = await emailTo(student.account.email, new RegExp(`^Receipt ${number}: R450 for your package `));
  expect(await pdfText(email.attachments.find((a) => a.contentType === 'application/pdf')!.content)).toBe(text);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await mine.scrollIntoViewIfNeeded();
    expect(await student.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await expectNoAxeViolations(student.page);
    await mine.screenshot({ path: `test-results/screenshots/packages-receipt-${size}.png` });
  }
  // Offline, the button says a receipt needs the connection.
  await student.context.setOffline(true);
  await receiptButton.click();
  await expect(receipts.getByRole('status')).toHaveText(receiptMessages.offline);
  await student.context.setOffline(false);

  // The booking form says the session is the package's, once its date is in the package's month.
  await student.page.goto(`/modules/${module.slug}`);
  await student.page.getByRole('button', { name: 'Book Now' }).click();
  const form = student.page.getByRole('form', { name: 'Your session' });
  await form.getByLabel('Date').fill(dated(10));
  await expect(form.getByText('from your package (6 of 6 hours left)')).toBeVisible();

  // Three two-hour sessions, confirmed by the tutor, draw the six hours.
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const days = [10, 11, 12];
  for (const day of days) {
    const requested = await requestBooking(student.page.request, {
      module: module.name,
      date: dated(day),
      slots: ['09:00', '13:00', '16:00'],
      hours: 2,
    });
    await confirmTime(tutor.page.request, requested, '13:00');
  }
  await student.page.goto('/student-dashboard');
  for (const day of days) {
    const fact = paymentFact(studentCard(student.page, dated(day)));
    await expect(fact).toContainText('From package');
    await expect(fact).toContainText(`2 hours from “${name}”`);
  }
  await expect(paymentFact(studentCard(student.page, dated(12)))).toContainText('Last session paid from the package');
  await expect(paymentFact(studentCard(student.page, dated(10)))).not.toContainText('Last session');
  await studentCard(student.page, dated(12)).screenshot({ path: 'test-results/screenshots/packages-session-card.png' });
  await expect(mine).toContainText('Every hour is used (0 of 6 hours left)');
  await expect(student.page.getByText(/^To pay:/)).toHaveCount(0);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await mine.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(student.page);
    await mine.screenshot({ path: `test-results/screenshots/packages-dashboard-${size}.png` });
  }

  // The tutor sees that the third is the last one the package pays for.
  await tutor.page.goto('/tutor-dashboard');
  const last = tutor.page
    .getByRole('region', { name: 'Bookings' })
    .getByRole('article', { name: module.name })
    .filter({ hasText: formatSastDate(dated(12)) });
  await expect(paymentFact(last)).toContainText('Last session paid from the package');

  // The admin's figures: this week's money in, the tutor's six hours in the package's month, the month's CSV.
  await admin.page.goto('/admin-dashboard#money');
  const figures = admin.page.getByRole('region', { name: 'Figures' });
  const thisMonth = sastDate(new Date()).slice(0, 7);
  await expect(figures.getByRole('figure', { name: `Money in per week, ${formatMonth(thisMonth)}` })).toBeVisible();
  const [csvFile] = await Promise.all([
    admin.page.waitForEvent('download'),
    figures.getByRole('link', { name: `Payments of ${formatMonth(thisMonth)} as CSV` }).click(),
  ]);
  expect(csvFile.suggestedFilename()).toBe(`payments-${thisMonth}.csv`);
  const csv = readFileSync((await csvFile.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe('Date,Kind,Method,Amount (R),Reference,Student,For,Note,Recorded by,Payment id');
  expect(csv).toContain(`,payment,EFT,450.00,${reference},`);
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await figures.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await figures.screenshot({ path: `test-results/screenshots/money-figures-${size}.png` });
  }
  await figures.getByLabel('Month', { exact: true }).fill(month);
  const hours = figures.getByRole('table', { name: `Hours per tutor, ${formatMonth(month)}` });
  await expect(hours.getByRole('row', { name: `${tutor.account.name} 3 6` })).toBeVisible();
});
