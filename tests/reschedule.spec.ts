import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Booking } from '../src/common/bookings.ts';
import { formatSastDate, formatSastSlot, sastDate } from '../src/common/sast.ts';
import {
  confirmTime,
  emailTo,
  expectNoAxeViolations,
  journeyTimeout,
  newModule,
  requestBooking,
  userPage,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

/**
 * Issue 36 §3: what the home page promises, "reschedule with at least 24 hours notice". The student asks to move a
 * confirmed session offline (queued, sent once); the tutor keeps the old time; then moves it themselves, and the
 * student is e-mailed.
 */
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * 24 * 3_600_000));

async function bookingNamed(request: APIRequestContext, module: string): Promise<Booking> {
  const { bookings } = (await (await request.get('/api/bookings')).json()) as { bookings: Booking[] };
  return bookings.find((b) => b.moduleName === module)!;
}

const card = (page: Page, module: string) => page.getByRole('article', { name: module });

test('a student moves a confirmed session offline; the tutor keeps the old time, then moves it; the student hears', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const { admin, module } = await newModule(browser, 'Statistics');
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  const student = await userPage(browser, 'student');
  const date = daysAhead(5);
  const booking = await requestBooking(student.page.request, {
    module: module.name,
    date,
    slots: ['09:00', '10:00', '11:00'],
    concepts: 'Regression.',
  });
  await confirmTime(tutor.page.request, booking, '10:00');

  // The student, on the train: the move waits on the device and goes once the connection is back.
  const { page, context } = student;
  await page.goto('/student-dashboard');
  const mine = card(page, module.name);
  await mine.getByRole('button', { name: 'Move session' }).click();
  const form = mine.getByRole('form', { name: 'Move this session' });
  await expect(form.getByLabel('Date', { exact: true })).toBeFocused();
  const later = daysAhead(6);
  await form.getByLabel('Date', { exact: true }).fill(later);
  for (const [label, time] of [
    ['First choice', '14:00'],
    ['Second choice', '15:00'],
    ['Third choice', '16:00'],
  ] as const)
    await form.getByLabel(label).fill(time);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/reschedule-form-${size}.png` });
  }
  await waitForActiveServiceWorker(page);
  await context.setOffline(true);
  await form.getByRole('button', { name: 'Ask to move' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ask to move' }).click();
  await expect(mine.getByText('Waiting to send')).toBeVisible();
  await expect(mine).toContainText(formatSastDate(later));
  await expect(mine.locator('.status-label.pending')).toBeVisible();
  await context.setOffline(false);
  await expect(mine.getByText('Waiting to send')).toHaveCount(0);
  const moved = await bookingNamed(page.request, module.name);
  expect(moved).toMatchObject({ status: 'Pending', date: later, slots: ['14:00', '15:00', '16:00'] });
  expect(moved.history.filter((h) => h.move)).toHaveLength(1);

  // The tutor keeps the old time.
  await tutor.page.goto('/tutor-dashboard');
  const theirs = tutor.page.getByRole('region', { name: 'Bookings' }).getByRole('article', { name: module.name });
  await expect(theirs).toContainText(`asked to move this session from ${formatSastSlot(date, '10:00')}`);
  await theirs.getByRole('button', { name: 'Keep the old time' }).click();
  await expect(theirs.locator('.status-label.confirmed')).toBeVisible();
  expect(await bookingNamed(page.request, module.name)).toMatchObject({
    status: 'Confirmed',
    date,
    confirmedSlot: '10:00',
  });
  await expect(mine.locator('.status-label.confirmed')).toBeVisible();

  // Then moves it a day on; the student is e-mailed from what to what, and the history shows both moves.
  await theirs.getByRole('button', { name: 'Move session' }).click();
  const move = theirs.getByRole('form', { name: 'Move to a new time' });
  await move.getByLabel('New date').fill(daysAhead(7));
  await move.getByLabel('New time (SAST)').fill('12:00');
  await move.getByRole('button', { name: 'Move and tell the student' }).click();
  await expect(theirs).toContainText(formatSastDate(daysAhead(7)));
  const email = await emailTo(student.account.email, /Session time changed/);
  expect(email.text).toContain(
    `Your session has moved from ${formatSastSlot(date, '10:00')} to ${formatSastSlot(daysAhead(7), '12:00')}`,
  );
  await page.reload();
  await mine.getByText(/^History/).click();
  await expect(mine.getByRole('listitem').filter({ hasText: 'moved the session' })).toHaveCount(3);
  for (const c of [admin.context, tutor.context, student.context]) await c.close();
});
