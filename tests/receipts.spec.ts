import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { receiptMessages } from '../src/common/receipts.ts';
import { formatSastDate, formatSastSlot, sastDate } from '../src/common/sast.ts';
import { pdfText } from '../src/server/test/pdf-text.ts';
import {
  confirmTime,
  emailTo,
  expectNoAxeViolations,
  newModule,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * A receipt for every payment (issue 37 §4), as the student meets it: the admin records a payment on the
 * booking's card; the student's card lists it with a Receipt button; the PDF downloaded (and the one e-mailed)
 * says the right figures when read back as text. Offline, the button says a receipt needs the connection.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

const staffCard = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Bookings' }).getByRole('article', { name });
const studentCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name });

test('the admin records a payment; the student downloads its receipt, which says the right figures', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const date = daysAhead(5);
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date,
    slots: ['09:00', '13:30', '17:00'],
    hours: 2,
  });
  // Its own tutor confirms it: confirmed by the admin, it went to the category's only tutor when there was one, whose
  // 13:30 that day another journey may have taken.
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  await confirmTime(tutor.page.request, requested, '13:30');

  // The admin records R180 by EFT on the booking's card.
  await admin.page.goto('/admin-dashboard');
  const card = staffCard(admin.page, module.name);
  // As the admin would: the card as confirmed (the device may first show the copy it read before), then the form.
  await expect(card).toContainText('R180 to pay');
  await card.getByRole('button', { name: 'Record payment' }).click();
  const form = card.getByRole('form', { name: /^Record money for TB-/ });
  await expect(form.getByLabel('Amount (R)')).toHaveValue('180.00');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(admin.page.getByText('Payment of R180 recorded.')).toBeVisible();

  // The student's card lists the payment, with its receipt.
  await student.page.goto('/student-dashboard');
  const mine = studentCard(student.page, module.name);
  const payments = mine.getByRole('region', { name: 'Payments' });
  const button = payments.getByRole('button', { name: /^Download the receipt for R180, recorded .* \(PDF\)$/ });
  await expect(button).toBeVisible();
  await expect(button).toHaveText(receiptMessages.link);

  // Reached from the keyboard, and pressed with it: the PDF arrives under its own name.
  await button.focus();
  await expect(button).toBeFocused();
  const [download] = await Promise.all([student.page.waitForEvent('download'), student.page.keyboard.press('Enter')]);
  const fileName = download.suggestedFilename();
  expect(fileName).toMatch(/^tutorbook-receipt-R-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}\.pdf$/);
  const text = await pdfText(await readFile(await download.path()));
  const number = fileName.replace(/^tutorbook-receipt-|\.pdf$/g, '');
  for (const expected of [
    'TutorBook',
    'hello@tutorbook.co.za',
    'Not VAT registered',
    `Receipt number: ${number}`,
    `Received from: ${student.account.name} (${student.account.email})`,
    `Paid on: ${formatSastDate(sastDate(new Date()))}`,
    'Method: EFT',
    `Reference: ${requested.paymentReference}`,
    `Session: ${module.name}`,
    `${formatSastSlot(date, '13:30')}, 2 hours; booking reference ${requested.paymentReference}`,
    'Total paid R180',
  ])
    expect(text).toContain(expected);

  // The e-mail of the payment carries the same receipt.
  const email = await emailTo(student.account.email, new RegExp(`^Receipt ${number}: R180 for `));
  const attached = email.attachments.find((a) => a.contentType === 'application/pdf');
  expect(attached?.filename).toBe(fileName);
  expect(await pdfText(attached!.content)).toBe(text);

  // At a phone's width and a desktop's: labelled, nothing sideways, axe clean.
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await mine.scrollIntoViewIfNeeded();
    expect(await mine.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoAxeViolations(student.page);
    await mine.screenshot({ path: `test-results/screenshots/receipt-card-${size}.png` });
  }

  // Offline, the list is still there, and the button says why no receipt comes.
  await student.context.setOffline(true);
  await button.click();
  await expect(payments.getByRole('status')).toHaveText(receiptMessages.offline);
  await student.page.setViewportSize(viewports.phone);
  await mine.scrollIntoViewIfNeeded();
  await mine.screenshot({ path: 'test-results/screenshots/receipt-card-offline-phone.png' });
  await student.context.setOffline(false);
  for (const { context } of [admin, student]) await context.close();
});
