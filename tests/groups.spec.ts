import { expect, test } from '@playwright/test';
import { groupMessages } from '../src/common/groups.ts';
import { sastDate } from '../src/common/sast.ts';
import { expectNoAxeViolations, journeyTimeout, newModule, userPage, viewports } from './fixtures.ts';

/**
 * Issue 36 §4, groups ("group sessions offered"): a tutor opens a three-seat group for a module; two students take
 * seats, one from the module page and one from the booking page, each with a confirmed booking and a reference
 * of their own; the tutor sees who is coming; a seat cancelled goes back. Offline, the module page says why no
 * seat can be taken. The last seat under concurrency: bookings.groups.test.ts, on every engine.
 */
test('a tutor opens a group; two students take seats; the tutor sees who is coming; a cancelled seat goes back', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(150_000));
  const { admin, module } = await newModule(browser, 'Mathematics');
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  await tutor.page.goto('/tutor-dashboard');
  const groups = tutor.page.getByRole('region', { name: 'Group sessions' });
  await groups.getByRole('button', { name: 'Open a group session' }).click();
  const form = groups.getByRole('form', { name: 'Open a group session' });
  await form.getByLabel('Module').selectOption(module.name);
  const date = sastDate(new Date(Date.now() + 5 * 24 * 3_600_000));
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Start (SAST, HH:MM)').fill('1500');
  await form.getByLabel('Seats').fill('1');
  await form.getByLabel('Price per student (R)').fill('120');
  await form.getByRole('button', { name: 'Open the group session' }).click();
  // Refused by the shared schema next to the field, nothing typed lost.
  await expect(form.getByText(groupMessages.seatsInvalid)).toBeVisible();
  await expect(form.getByLabel('Start (SAST, HH:MM)')).toHaveValue('15:00');
  await form.getByLabel('Seats').fill('3');
  await expectNoAxeViolations(tutor.page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await tutor.page.setViewportSize(viewport);
    await form.scrollIntoViewIfNeeded();
    await tutor.page.screenshot({ path: `test-results/screenshots/group-open-${size}.png` });
  }
  await form.getByRole('button', { name: 'Open the group session' }).click();
  await expect(groups.getByText(groupMessages.opened)).toBeVisible();
  const card = groups.getByRole('listitem').filter({ hasText: module.name });
  await expect(card).toContainText('0 of 3 seats taken');

  // The first student, from the module page.
  const first = await userPage(browser, 'student');
  await first.page.goto(`/modules/${module.slug}`);
  const offer = first.page.getByRole('region', { name: 'Group sessions' });
  await expect(offer).toContainText('3 seats left');
  await expect(offer).toContainText('R120 per student');
  await expectNoAxeViolations(first.page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await first.page.setViewportSize(viewport);
    await offer.scrollIntoViewIfNeeded();
    await first.page.screenshot({ path: `test-results/screenshots/group-offer-${size}.png` });
  }
  await offer.getByRole('button', { name: /^Take a seat/ }).click();
  const dialog = first.page.getByRole('alertdialog');
  await expect(dialog).toContainText(groupMessages.takeSeatConfirm(120_00));
  await dialog.getByRole('button', { name: 'Take a seat' }).click();
  await expect(offer).toContainText(groupMessages.seatTaken);
  await expect(offer).toContainText('2 seats left');
  await expect(offer.getByRole('button', { name: /^You have a seat/ })).toBeDisabled();
  await offer.getByRole('link', { name: 'See your bookings' }).click();
  const seat = first.page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name: module.name });
  await expect(seat.locator('.status-label.confirmed')).toBeVisible();
  await expect(seat).toContainText('Group session (a seat)');

  // The second, from the booking page.
  const second = await userPage(browser, 'student');
  await second.page.goto(`/modules/${module.slug}`);
  await second.page.getByRole('button', { name: 'Book Now' }).click();
  const onBooking = second.page.getByRole('region', { name: 'Group sessions' });
  await expect(onBooking).toContainText('2 seats left');
  await onBooking.getByRole('button', { name: /^Take a seat/ }).click();
  await second.page.getByRole('alertdialog').getByRole('button', { name: 'Take a seat' }).click();
  await expect(onBooking).toContainText('1 seat left');

  // The tutor sees who is coming.
  await tutor.page.reload();
  await expect(card).toContainText('2 of 3 seats taken');
  await expect(card).toContainText('Who is coming: Sipho Dlamini, Sipho Dlamini');

  // The first cancels: the seat goes back.
  await seat.getByRole('button', { name: 'Cancel booking' }).click();
  await first.page.getByRole('alertdialog').getByRole('button', { name: 'Cancel booking' }).click();
  await expect(seat.locator('.status-label.cancelled')).toBeVisible();
  await first.page.goto(`/modules/${module.slug}`);
  await expect(offer).toContainText('2 seats left');

  // The admin sees it under Groups, with the one still coming.
  await admin.page.goto('/admin-dashboard#groups');
  const adminCard = admin.page
    .getByRole('region', { name: 'Group sessions' })
    .getByRole('listitem')
    .filter({ hasText: module.name });
  await expect(adminCard).toContainText('1 of 3 seats taken');
  await expect(adminCard).toContainText('Who is coming: Sipho Dlamini');
  await expectNoAxeViolations(admin.page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await admin.page.screenshot({ path: `test-results/screenshots/group-admin-${size}.png` });
  }

  // Offline, the module page says why no seat can be taken.
  await first.context.setOffline(true);
  await first.page.reload().catch(() => {});
  await expect(offer).toContainText(groupMessages.offline);
  for (const c of [admin.context, tutor.context, first.context, second.context]) await c.close();
});
