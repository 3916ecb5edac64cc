import { expect, test, type Page } from '@playwright/test';
import type { Booking } from '../src/common/bookings.ts';
import { formatMonth, nextMonth, type Package } from '../src/common/packages.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import { statementMessages } from '../src/common/statements.ts';
import {
  confirmTime,
  expectNoAxeViolations,
  journeyTimeout,
  newModule,
  origin,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * Bank statements matched without a spreadsheet (issue 37 §2), as the admin does it: a statement from each of two
 * banks' formats, previewed and recorded, ten sessions paid and one part-paid, two lines waiting for a hand: one is
 * ignored (by keyboard), shown ignored when its statement is imported again, and its ignore taken back; the first
 * statement again records nothing, and its waiting line is matched by hand; a statement that cannot be read says
 * which line, and the form keeps what was chosen. A monthly package's reference, however the bank wrote it, pays
 * the package; a waiting line is matched by hand to another.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const owingCard = (page: Page, module: string) =>
  page.getByRole('list', { name: 'Money owing' }).getByRole('article', { name: module });

test('the admin imports two banks’ statements: ten sessions paid, one part-paid, two lines wait, one ignored', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(180_000));
  const { admin, module } = await newModule(browser);
  // Two students: one may send ten requests an hour.
  const students = [await userPage(browser, 'student'), await userPage(browser, 'student')];
  const sessions: Booking[] = [];
  for (let i = 0; i < 11; i++) {
    const requested = await requestBooking(students[i % 2]!.page.request, {
      module: module.name,
      date: daysAhead(3 + i),
      slots: ['09:00', '11:00', '15:00'],
    });
    sessions.push(await confirmTime(admin.page.request, requested, '11:00'));
  }
  const [partPaid, ...full] = sessions as [Booking, ...Booking[]];
  const tag = module.name.split(' ').at(-1)!;
  const fnbCsv = [
    `2,Cheque Account ${tag}`,
    'Date,Amount,Balance,Description',
    ...full.slice(0, 6).map((b) => `2026/12/01,90.00,0.00,FNB APP FROM STUDENT ${b.paymentReference} ${tag}`),
    `2026/12/02,45.00,0.00,EFT ${partPaid.paymentReference.replace('-', ' ')} ${tag}`,
    `2026/12/02,-35.00,0.00,"MONTHLY FEE, CHEQUE ${tag}"`,
    `2026/12/03,45.00,0.00,MAGTAPE CREDIT DLAMINI ${tag}`,
  ].join('\r\n');
  const capitecCsv = [
    'Nr,Transaction Date,Description,Money In,Money Out,Balance',
    ...full
      .slice(6)
      .map((b, i) => `${i + 1},04/12/2026,Payment ${b.paymentReference.toLowerCase()} ${tag},90.00,,0.00`),
    `9,05/12/2026,Cash deposit ${tag},120.00,,0.00`,
  ].join('\n');

  await admin.page.goto('/admin-dashboard#money');
  const form = admin.page.getByRole('form', { name: 'Import a bank statement' });
  const preview = admin.page.getByRole('region', { name: 'Statement preview' });

  // FNB: its columns chosen from the file's header, previewed, then recorded.
  await form.getByLabel('Bank').fill('FNB');
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('fnb.csv', fnbCsv));
  await form.getByLabel('Date column').selectOption('Date');
  await form.getByLabel('Description column').selectOption('Description');
  await form.getByLabel('Amount column').selectOption('Amount');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '9 lines read: 7 pay a booking, 1 to match by hand, 0 ignored, 1 money out, 0 recorded before.',
  );
  await expect(preview.getByText(/part-pays .* \(TB-\w+\), R45 short\./)).toBeVisible();
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await preview.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await preview.screenshot({ path: `test-results/screenshots/statement-preview-${size}.png` });
  }
  await preview.getByRole('button', { name: 'Record 7 payments (R585)' }).click();
  await expect(admin.page.getByText('Recorded 7 payments (R585).')).toBeVisible();
  await expect(preview).toHaveCount(0);
  await expect(owingCard(admin.page, module.name)).toHaveCount(5);

  // Capitec: money in and money out apart.
  await form.getByLabel('Bank').fill('Capitec');
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('capitec.csv', capitecCsv));
  await form.getByRole('radio', { name: 'Money in and money out apart' }).check();
  await form.getByLabel('Date column').selectOption('Transaction Date');
  await form.getByLabel('Description column').selectOption('Description');
  await form.getByLabel('Money in column').selectOption('Money In');
  await form.getByLabel('Money out column').selectOption('Money Out');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '5 lines read: 4 pay a booking, 1 to match by hand, 0 ignored, 0 money out, 0 recorded before.',
  );
  // The cash deposit is not for a session: ignored, by keyboard; Undo brings it back, and the focus follows it.
  const ignore = preview.getByRole('button', { name: /^Ignore line \d+$/ });
  await ignore.focus();
  await admin.page.keyboard.press('Enter');
  const undo = preview.getByRole('button', { name: /^Undo ignoring line \d+$/ });
  await expect(undo).toBeFocused();
  await expect(preview.getByRole('status')).toHaveText(
    '5 lines read: 4 pay a booking, 0 to match by hand, 1 ignored, 0 money out, 0 recorded before.',
  );
  await admin.page.keyboard.press('Enter');
  await expect(ignore).toBeFocused();
  await expect(preview.getByLabel(/^Reference for line \d+$/)).toBeVisible();
  await admin.page.keyboard.press('Space');
  await expect(undo).toBeFocused();
  await expect(preview.getByRole('heading', { name: 'Ignored' })).toBeVisible();
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await preview.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await preview.screenshot({ path: `test-results/screenshots/statement-ignoring-${size}.png` });
  }
  await preview.getByRole('button', { name: 'Record 4 payments (R360), ignore 1 line' }).click();
  await expect(admin.page.getByText('Recorded 4 payments (R360). Ignored 1 line.')).toBeVisible();
  // Ten sessions paid, one part-paid: it alone is still owing, R45.
  await expect(owingCard(admin.page, module.name)).toHaveCount(1);
  await expect(owingCard(admin.page, module.name)).toContainText(partPaid.paymentReference);
  await expect(owingCard(admin.page, module.name)).toContainText('R45');

  // Capitec again: the deposit is shown ignored, not waiting and not chosen, and its ignore is taken back.
  await form.getByLabel('Bank').fill('Capitec');
  await expect(form.getByLabel('Money in column')).toHaveValue('Money In');
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('capitec.csv', capitecCsv));
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '5 lines read: 0 pay a booking, 0 to match by hand, 1 ignored, 0 money out, 4 recorded before.',
  );
  await expect(
    preview.getByText(/“Cash deposit .*” was ignored by .+ \(\d{2} \w{3} \d{4}, \d{2}:\d{2} SAST\)\./),
  ).toBeVisible();
  await expect(preview.getByLabel(/^Reference for line \d+$/)).toHaveCount(0);
  await expect(preview.getByRole('button', { name: /^Record/ })).toBeDisabled();
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await preview.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await preview.screenshot({ path: `test-results/screenshots/statement-ignored-${size}.png` });
  }
  await preview.getByRole('button', { name: /^Take back ignore of line \d+$/ }).click();
  await expect(preview.getByRole('button', { name: /^Ignore line \d+$/ })).toBeFocused();
  await expect(preview.getByRole('status')).toHaveText(
    '5 lines read: 0 pay a booking, 1 to match by hand, 0 ignored, 0 money out, 4 recorded before.',
  );
  await preview.getByRole('button', { name: 'Stop ignoring 1 line' }).click();
  await expect(admin.page.getByText('1 line no longer ignored.')).toBeVisible();
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '5 lines read: 0 pay a booking, 1 to match by hand, 0 ignored, 0 money out, 4 recorded before.',
  );
  await preview.getByRole('button', { name: 'Cancel' }).click();

  // FNB again: its columns come back with its name, nothing is recorded twice, and a waiting line is matched by hand.
  await form.getByLabel('Bank').fill('FNB');
  await expect(form.getByLabel('Date column')).toHaveValue('Date');
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('fnb.csv', fnbCsv));
  await expect(form.getByRole('radio', { name: 'One column (money out below zero)' })).toBeChecked();
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '9 lines read: 0 pay a booking, 1 to match by hand, 0 ignored, 1 money out, 7 recorded before.',
  );
  const byHand = preview.getByLabel(/^Reference for line \d+$/);
  await byHand.fill('TB-12');
  await expect(preview.getByText(statementMessages.referenceInvalid)).toBeVisible();
  await byHand.fill(partPaid.paymentReference.toLowerCase());
  await preview.getByRole('button', { name: 'Record 1 payment (R45)' }).click();
  await expect(admin.page.getByText('Recorded 1 payment (R45).')).toBeVisible();
  await expect(owingCard(admin.page, module.name)).toHaveCount(0);

  // A statement that cannot be read names the line; what was chosen stays.
  const broken = fnbCsv.replace('2026/12/02,-35.00', '2026/13/02,-35.00');
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('broken.csv', broken));
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    statementMessages.onLine(10, statementMessages.dateInvalid('2026/13/02')),
  );
  await expect(form.getByLabel('Bank')).toHaveValue('FNB');
  await expect(form.getByLabel('Amount column')).toHaveValue('Amount');

  // The students see their sessions paid.
  const student = students[1]!;
  await student.page.goto('/student-dashboard');
  await expect(student.page.getByText('Nothing to pay.')).toBeVisible();
  for (const { context } of [admin, ...students]) await context.close();
});

test('a statement pays a student’s monthly packages: its reference as the bank wrote it, and a line by hand', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const tag = module.name.split(' ').at(-1)!;
  const name = `6 hours of ${module.name}`.slice(0, 80);
  const month = nextMonth(sastDate(new Date()).slice(0, 7));
  const offered = await admin.page.request.post('/api/packages/offers', {
    data: {
      id: crypto.randomUUID(),
      name,
      category: 'Mathematics',
      moduleName: module.name,
      hours: 6,
      priceCents: 450_00,
    },
    headers: { origin },
  });
  expect(offered.status(), await offered.text()).toBe(201);
  const offerId = ((await offered.json()) as { id: string }).id;
  const buy = async () => {
    const bought = await student.page.request.post('/api/packages', {
      data: { id: crypto.randomUUID(), offerId, month },
      headers: { origin },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    return (await bought.json()) as Package;
  };
  const [paid, byHand] = [await buy(), await buy()];
  const code = paid.paymentReference.slice(3, 9);
  const csv = [
    'Date,Amount,Balance,Description',
    `2026/12/01,200.00,0.00,EFT TB ${code} P ${tag}`,
    `2026/12/02,250.00,0.00,FNB APP tb${code.toLowerCase()}p ${tag}`,
    `2026/12/03,450.00,0.00,CASH DEPOSIT ${tag}`,
  ].join('\r\n');

  await admin.page.goto('/admin-dashboard#money');
  const form = admin.page.getByRole('form', { name: 'Import a bank statement' });
  const preview = admin.page.getByRole('region', { name: 'Statement preview' });
  await form.getByLabel('Bank').fill(`Standard Bank ${tag}`);
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('standard.csv', csv));
  await form.getByLabel('Date column').selectOption('Date');
  await form.getByLabel('Description column').selectOption('Description');
  await form.getByLabel('Amount column').selectOption('Amount');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '3 lines read: 0 pay a booking, 2 pay a package, 1 to match by hand, 0 ignored, 0 money out, 0 recorded before.',
  );
  const packages = preview.getByRole('heading', { name: 'Pay a monthly package' });
  await expect(packages).toBeVisible();
  const who = `the package “${name}”, ${formatMonth(month)}, for ${student.account.name} (${paid.paymentReference})`;
  await expect(preview.getByText(`part-pays ${who}, R250 short.`)).toBeVisible();
  await expect(preview.getByText(`pays ${who}.`)).toBeVisible();
  await preview.getByLabel(/^Reference for line \d+$/).fill(byHand.paymentReference.toLowerCase());
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await preview.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await preview.screenshot({ path: `test-results/screenshots/statement-packages-${size}.png` });
  }
  await preview.getByRole('button', { name: 'Record 3 payments (R900)' }).click();
  await expect(admin.page.getByText('Recorded 3 payments (R900).')).toBeVisible();

  // Both packages paid, on the admin's Packages tab and on the student's card, each payment with its receipt.
  await admin.page.goto('/admin-dashboard#packages');
  const bought = admin.page.getByRole('region', { name: 'Packages bought' }).getByRole('listitem');
  for (const reference of [paid.paymentReference, byHand.paymentReference])
    await expect(bought.filter({ hasText: reference })).toContainText('Paid. 6 of 6 hours left');
  await student.page.goto('/student-dashboard');
  const mine = student.page.getByRole('region', { name: 'Your packages' });
  for (const [amount, date] of [
    ['R200', '2026-12-01'],
    ['R250', '2026-12-02'],
    ['R450', '2026-12-03'],
  ])
    await expect(
      mine.getByRole('button', { name: `Download the receipt for ${amount}, paid ${formatSastDate(date!)} (PDF)` }),
    ).toBeVisible();

  // The same statement again records nothing.
  await admin.page.goto('/admin-dashboard#money');
  await form.getByLabel('Bank').fill(`Standard Bank ${tag}`);
  await form.getByLabel('Statement (CSV)').setInputFiles(csvFile('standard.csv', csv));
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toHaveText(
    '3 lines read: 0 pay a booking, 0 to match by hand, 0 ignored, 0 money out, 3 recorded before.',
  );
  await expect(preview.getByRole('button', { name: /^Record/ })).toBeDisabled();
  for (const { context } of [admin, student]) await context.close();
});
