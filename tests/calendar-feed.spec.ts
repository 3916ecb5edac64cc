import { expect, test } from '@playwright/test';
import { sastDate } from '../src/common/sast.ts';
import { expectNoAxeViolations, newModule, origin, userPage, viewports } from './fixtures.ts';

/**
 * The calendar feed on the profile (issue 36 §5): made, copied, read by a calendar app with no cookie, renewed
 * behind a confirmation, after which the old address is gone. The feed's contents per role are tested on the
 * server (src/server/modules/calendar/calendar.test.ts); here, that the page gives a link that works.
 */
test('a student makes a calendar link, copies it, the feed holds their session; renewed, the old link is 404', async ({
  browser,
  request,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const { page } = student;
  const date = sastDate(new Date(Date.now() + 10 * 24 * 3_600_000));
  const booked = await page.request.post('/api/bookings', {
    data: {
      id: crypto.randomUUID(),
      module: module.name,
      date,
      slots: ['09:00', '14:00', '17:30'],
      hours: 1,
      concepts: 'Eigenvalues.',
    },
    headers: { origin },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const booking = (await booked.json()) as { id: string; version: number };
  const confirmed = await admin.page.request.post(`/api/bookings/${booking.id}/confirm`, {
    data: { slot: '14:00', version: booking.version },
    headers: { origin },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);

  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Calendar feed' });
  await section.getByRole('button', { name: 'Create calendar link' }).click();
  await expect(page.getByText('Calendar link made.')).toBeVisible();
  const link = section.getByLabel('Your calendar link');
  await expect(link).toHaveValue(new RegExp(`^${origin}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
  const url = await link.inputValue();

  await student.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await section.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const webcal = url.replace(/^http:/, 'webcal:');
  await expect(section.getByRole('link', { name: 'Subscribe in Apple Calendar' })).toHaveAttribute('href', webcal);
  await expect(section.getByRole('link', { name: 'Add to Google Calendar' })).toHaveAttribute(
    'href',
    `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`,
  );

  // A calendar app sends no cookie: `request` is a context of its own.
  const feed = await request.get(url);
  expect(feed.status()).toBe(200);
  const text = await feed.text();
  expect(text).toContain(`UID:${booking.id}@tutorbook`);
  expect(text).toContain(`DTSTART;TZID=Africa/Johannesburg:${date.replaceAll('-', '')}T140000`);
  expect(text).toContain(module.name);

  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await section.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page);
    await section.screenshot({ path: `test-results/screenshots/calendar-feed-${size}.png` });
  }

  await section.getByRole('button', { name: 'Renew link' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('The old link stops working at once');
  await dialog.getByRole('button', { name: 'Renew link' }).click();
  await expect(page.getByText('New calendar link made. The old one no longer works.')).toBeVisible();
  await expect(link).not.toHaveValue(url);
  const renewed = await link.inputValue();
  expect((await request.get(url)).status()).toBe(404);
  expect((await request.get(renewed)).status()).toBe(200);

  // Not kept, so not shown again: the page says when it was made.
  await page.reload();
  await expect(section.getByText(/You made your calendar link on/)).toBeVisible();
  await expect(section.getByLabel('Your calendar link')).toHaveCount(0);
  await page.setViewportSize(viewports.phone);
  await section.screenshot({ path: 'test-results/screenshots/calendar-feed-made-phone.png' });
  await student.context.close();
  await admin.context.close();
});
