import { expect, test } from '@playwright/test';
import { weeksAfter } from '../src/common/booking-series.ts';
import { bookingMessages } from '../src/common/bookings.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import { expectNoAxeViolations, journeyTimeout, newModule, userPage, viewports } from './fixtures.ts';

/**
 * Issue 36 §4: the same time every week. The student asks for three weeks from the booking form; the price says
 * each session's and the total; the tutor confirms the three at once; each session has its own card.
 */
test('a student books three weekly sessions; the tutor confirms them at once; each is its own booking', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const { admin, module } = await newModule(browser, 'Mathematics');
  const student = await userPage(browser, 'student');
  const { page } = student;
  await page.goto(`/modules/${module.slug}`);
  await page.getByRole('button', { name: 'Book Now' }).click();
  const form = page.getByRole('form', { name: 'Your session' });
  const first = sastDate(new Date(Date.now() + 4 * 24 * 3_600_000));
  await form.getByLabel('Date', { exact: true }).fill(first);
  for (const [label, time] of [
    ['First choice', '16:00'],
    ['Second choice', '17:00'],
    ['Third choice', '18:00'],
  ] as const)
    await form.getByLabel(label).fill(time);
  await form.getByLabel('Weeks').fill('3');
  await form.getByLabel('Concepts you need help with').fill('Calculus, every week before the exam.');
  // R90 an hour: R90 a session, R270 for the three.
  await expect(form.getByText('R270', { exact: true })).toBeVisible();
  await expect(form).toContainText('R90 a session × 3 weeks');
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await form.getByLabel('Weeks').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/weekly-form-${size}.png` });
  }
  await form.getByRole('button', { name: 'Submit booking request' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(bookingMessages.confirmSubmit);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/student-dashboard$/);
  const cards = page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name: module.name });
  await expect(cards).toHaveCount(3);
  for (const [i, date] of [first, weeksAfter(first, 1), weeksAfter(first, 2)].entries())
    await expect(cards.filter({ hasText: formatSastDate(date) })).toContainText(`Session ${i + 1} of 3`);

  // The tutor confirms the first at 17:00, the later weeks with it.
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  await tutor.page.goto('/tutor-dashboard');
  const bookings = tutor.page.getByRole('region', { name: 'Bookings' });
  const firstCard = bookings.getByRole('article', { name: module.name }).filter({ hasText: 'Session 1 of 3' });
  await expect(firstCard.getByLabel('Also the 2 later weeks of this weekly series, at the same time')).toBeChecked();
  await firstCard.getByLabel('Time slot').selectOption('17:00');
  await firstCard.getByRole('button', { name: 'Confirm' }).click();
  await expect(bookings.getByRole('article', { name: module.name }).locator('.status-label.confirmed')).toHaveCount(3);
  await expect(cards.locator('.status-label.confirmed')).toHaveCount(3);
  // One of them cancelled alone.
  const second = cards.filter({ hasText: 'Session 2 of 3' });
  await second.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel booking' }).click();
  await expect(second.locator('.status-label.cancelled')).toBeVisible();
  await expect(cards.locator('.status-label.confirmed')).toHaveCount(2);
  for (const c of [admin.context, student.context, tutor.context]) await c.close();
});
