import { expect, test, type Page } from '@playwright/test';
import { paymentMessages } from '../src/common/payments.ts';
import { sastDate } from '../src/common/sast.ts';
import {
  confirmTime,
  emailTo,
  expectNoAxeViolations,
  newModule,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';
import { formatSastDate } from '../src/common/sast.ts';

/**
 * Money recorded against a booking (issue 37 §1), as the admin, the student and the tutor meet it: the admin
 * records part of a session's price, then the rest; the student's card and the tutor's say where it stands; a
 * mistyped amount is refused in place and what was typed stays.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

const staffCard = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Bookings' }).getByRole('article', { name });
const studentCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name });
const paymentFact = (card: ReturnType<typeof staffCard>) =>
  card
    .getByRole('term')
    .filter({ hasText: /^Payment$/ })
    .locator('xpath=following-sibling::dd[1]');

test('the admin records part of a payment, then the rest; the student and the tutor see it paid', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const student = await userPage(browser, 'student');
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(5),
    slots: ['09:00', '13:30', '17:00'],
    hours: 2,
  });
  await confirmTime(tutor.page.request, requested, '13:30');

  // The student owes R180 once the session is confirmed.
  await student.page.goto('/student-dashboard');
  await expect(paymentFact(studentCard(student.page, module.name))).toContainText('Unpaid');
  await expect(paymentFact(studentCard(student.page, module.name))).toContainText('R180 to pay');
  await expect(student.page.getByText('To pay: R180 for 1 session.')).toBeVisible();

  await admin.page.goto('/admin-dashboard');
  const card = staffCard(admin.page, module.name);
  // As the admin would: the card as confirmed (the device may first show the copy it read before), then the form.
  await expect(paymentFact(card)).toContainText('R180 to pay');
  await card.getByRole('button', { name: 'Record payment' }).click();
  const form = card.getByRole('form', { name: /^Record money for TB-/ });
  await expect(form.getByLabel('Amount (R)')).toHaveValue('180.00');

  // A mistyped amount is refused in place, and stays as typed.
  await form.getByLabel('Amount (R)').fill('R1O0');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(form.getByText(paymentMessages.amountInvalid)).toBeVisible();
  await expect(form.getByLabel('Amount (R)')).toHaveValue('R1O0');
  await expect(form.getByLabel('Amount (R)')).toHaveAttribute('aria-invalid', 'true');

  // The form at a phone's width and a desktop's: labelled, nothing sideways, axe clean.
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await form.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    await form.screenshot({ path: `test-results/screenshots/record-payment-${size}.png` });
  }

  await form.getByLabel('Amount (R)').fill('100');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(admin.page.getByText('Payment of R100 recorded.')).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(paymentFact(card)).toContainText('Part-paid');
  await expect(paymentFact(card)).toContainText('R80 to pay');
  await expect(card.getByText(/recorded a payment of R100 by EFT/)).toBeAttached();

  // The rest, by hand: the amount starts at what is still owing.
  await card.getByRole('button', { name: 'Record payment' }).click();
  await expect(form.getByLabel('Amount (R)')).toHaveValue('80.00');
  await form.getByLabel('How').selectOption({ label: 'By hand (cash or card)' });
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(paymentFact(card)).toContainText('Paid');
  await expect(paymentFact(card)).toContainText('R180 received');

  // The student's card and the tutor's follow, without a reload of theirs being needed beyond opening the page.
  await expect(paymentFact(studentCard(student.page, module.name))).toContainText('Paid');
  await expect(student.page.getByText('Nothing to pay.')).toBeVisible();
  await expect(student.page.getByText('Paid so far: R180.')).toBeVisible();
  await tutor.page.goto('/tutor-dashboard');
  await expect(paymentFact(staffCard(tutor.page, module.name))).toContainText('Paid');
  // Only the admin records money: the tutor has no such button.
  await expect(staffCard(tutor.page, module.name).getByRole('button', { name: 'Record payment' })).toHaveCount(0);

  await student.page.setViewportSize(viewports.phone);
  await studentCard(student.page, module.name).scrollIntoViewIfNeeded();
  await student.page.screenshot({ path: 'test-results/screenshots/payment-student-phone.png' });
  for (const { context } of [admin, tutor, student]) await context.close();
});

test('a waiver needs a reason; given one, the booking is waived', async ({ browser }) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(6),
    slots: ['10:00', '12:00', '14:00'],
  });
  await confirmTime(admin.page.request, requested, '12:00');
  await admin.page.goto('/admin-dashboard');
  const card = staffCard(admin.page, module.name);
  await expect(paymentFact(card)).toContainText('R90 to pay');
  await card.getByRole('button', { name: 'Record payment' }).click();
  const form = card.getByRole('form', { name: /^Record money for TB-/ });
  await form.getByRole('radio', { name: 'Waive (no money)' }).check();
  await expect(form.getByLabel('How')).toHaveCount(0);
  await form.getByRole('button', { name: 'Waive' }).click();
  await expect(form.getByText(paymentMessages.reasonRequired)).toBeVisible();
  await form.getByLabel('Reason').fill('Goodwill: the first session of a new student');
  await form.getByRole('button', { name: 'Waive' }).click();
  await expect(paymentFact(card)).toContainText('Waived');
  await expect(card.getByText(/waived R90/)).toBeAttached();
  for (const { context } of [admin, student]) await context.close();
});

test('a form left open keeps what was typed when the booking changes; money recorded meanwhile is said first', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(7),
    slots: ['09:00', '11:00', '15:00'],
  });
  const confirmed = await confirmTime(admin.page.request, requested, '11:00');
  await admin.page.goto('/admin-dashboard');
  const card = staffCard(admin.page, module.name);
  await expect(paymentFact(card)).toContainText('R90 to pay');
  await card.getByRole('button', { name: 'Record payment' }).click();
  const form = card.getByRole('form', { name: /^Record money for TB-/ });
  await form.getByLabel('Amount (R)').fill('50');
  await form.getByLabel('Note (optional)').fill('Half now, half at the session');

  // Another change to the booking (the session moved, from another device): the form stays as typed.
  const moveRes = await admin.page.request.post(`/api/bookings/${confirmed.id}/move`, {
    data: { date: daysAhead(8), slot: '16:00', version: confirmed.version },
    headers: { origin: new URL(admin.page.url()).origin },
  });
  expect(moveRes.status(), await moveRes.text()).toBe(200);
  const moved = (await moveRes.json()) as typeof confirmed;
  await expect(card.getByText('16:00 SAST').first()).toBeVisible();
  await expect(form.getByLabel('Amount (R)')).toHaveValue('50');
  await expect(form.getByLabel('Note (optional)')).toHaveValue('Half now, half at the session');

  // Money recorded elsewhere meanwhile: said before anything is sent, with the figures brought up to date.
  const paidRes = await admin.page.request.post(`/api/bookings/${confirmed.id}/payments`, {
    data: {
      id: crypto.randomUUID(),
      kind: 'payment',
      method: 'eft',
      amountCents: 4000,
      paidOn: sastDate(new Date()),
      version: moved.version,
    },
    headers: { origin: new URL(admin.page.url()).origin },
  });
  expect(paidRes.status(), await paidRes.text()).toBe(200);
  await expect(form.getByText(/received R40; owing R50/)).toBeVisible();
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(form.getByRole('alert')).toHaveText(paymentMessages.moneyChanged);
  await expect(form.getByLabel('Amount (R)')).toHaveValue('50');
  await expectNoAxeViolations(admin.page);

  // Read again, it goes: R40 and R50 make the R90.
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(form).toHaveCount(0);
  await expect(paymentFact(card)).toContainText('Paid');
  for (const { context } of [admin, student]) await context.close();
});

test('the admin sees what is owing, oldest session first, reminds a student once and records a payment in place', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const later = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(9),
    slots: ['10:00', '12:00', '14:00'],
  });
  const sooner = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(3),
    slots: ['09:00', '11:00', '15:00'],
  });
  await confirmTime(admin.page.request, later, '10:00');
  await confirmTime(admin.page.request, sooner, '15:00');

  await admin.page.goto('/admin-dashboard');
  await admin.page.getByRole('tab', { name: 'Money' }).click();
  await expect(admin.page).toHaveURL(/#money$/);
  const owing = admin.page.getByRole('list', { name: 'Money owing' }).getByRole('article', { name: module.name });
  await expect(owing).toHaveCount(2);
  await expect(owing.first()).toContainText(formatSastDate(sooner.date));
  await expect(owing.first()).toContainText(sooner.paymentReference);
  await expect(owing.first()).toContainText('R90');
  await expect(owing.last()).toContainText(formatSastDate(later.date));
  await expect(admin.page.getByText(/owing on \d+ bookings?, the oldest session first\./)).toBeVisible();

  // A reminder, once: the button says it went and cannot be pressed again; the student has it, with the reference.
  const remind = owing.first().getByRole('button', { name: 'Send reminder' });
  await remind.click();
  await expect(admin.page.getByText(paymentMessages.reminderSent)).toBeVisible();
  await expect(owing.first().getByRole('button', { name: 'Reminder sent' })).toBeDisabled();
  const reminder = await emailTo(student.account.email, /^Payment reminder: /);
  expect(reminder.text).toContain(sooner.paymentReference);
  expect(reminder.text).toContain('R90');

  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await owing.first().scrollIntoViewIfNeeded();
    await expectNoAxeViolations(admin.page);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await owing.first().screenshot({ path: `test-results/screenshots/money-owing-${size}.png` });
  }

  // Paid in full from the list: the booking leaves it.
  await owing.last().getByRole('button', { name: 'Record payment' }).click();
  const form = owing.last().getByRole('form', { name: /^Record money for TB-/ });
  await expect(form.getByLabel('Amount (R)')).toHaveValue('90.00');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(admin.page.getByText('Payment of R90 recorded.')).toBeVisible();
  await expect(owing).toHaveCount(1);

  // Offline, the list stays as it was read, and says so.
  await admin.context.setOffline(true);
  await expect(admin.page.getByText(/You are offline\. The list is as it was/)).toBeVisible();
  await expect(owing).toHaveCount(1);
  await admin.context.setOffline(false);
  for (const { context } of [admin, student]) await context.close();
});
