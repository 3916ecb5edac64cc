import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { noAvailability, type Availability } from '../src/common/availability.ts';
import { bookingMessages, type Booking } from '../src/common/bookings.ts';
import { formatSastDate, sastDate } from '../src/common/sast.ts';
import {
  confirmTime,
  expectNoAxeViolations,
  journeyTimeout,
  newModule,
  origin,
  requestBooking,
  userPage,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

/**
 * Issue 36: the booking page offers the module's free times, worked out on the device from the tutors' hours and
 * sessions, offline too. The e2e server's tutors are shared by every journey: these hours (Sunday before dawn) are
 * ones no other journey gives, so the free times below are this tutor's alone.
 */
const sundayHours: Availability = {
  ...noAvailability,
  weekly: [[], [], [], [], [], [], [{ start: '03:00', end: '07:00' }]],
};

/** The first Sunday at least three days away (SAST): past the e2e server's 20-hour lead time. */
function nextSunday(): string {
  for (let days = 3; ; days++) {
    const date = sastDate(new Date(Date.now() + days * 24 * 3_600_000));
    if (new Date(`${date}T12:00:00Z`).getUTCDay() === 0) return date;
  }
}

async function idOf(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/me')).json()) as { id: string }).id;
}

const form = (page: Page) => page.getByRole('form', { name: 'Your session' });
const slotLabels = ['First choice', 'Second choice', 'Third choice'] as const;

test('a student picks three of the tutors’ free times, offline too; a confirmed session’s time is not offered', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const sunday = nextSunday();
  const { admin, module } = await newModule(browser, 'Computer Science');
  const tutor = await userPage(browser, 'tutor', { categories: ['Computer Science'] });
  const tutorId = await idOf(tutor.page.request);
  const saved = await tutor.page.request.put(`/api/availability/${tutorId}`, {
    data: sundayHours,
    headers: { origin },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  // Another student's session with this tutor, 03:00 to 04:00: its time is taken.
  const other = await userPage(browser, 'student');
  const taken = await requestBooking(other.page.request, {
    module: module.name,
    date: sunday,
    slots: ['03:00', '05:00', '06:00'],
    concepts: 'Graphs.',
  });
  await confirmTime(tutor.page.request, taken, '03:00');

  const { page, context } = await userPage(browser, 'student');
  await page.goto(`/modules/${module.slug}`);
  await page.getByRole('button', { name: 'Book Now' }).click();
  const f = form(page);
  const dates = f.getByRole('group', { name: 'Days with free times' });
  const day = dates.getByRole('button', { name: new RegExp(`^${formatSastDate(sunday).replace(/ \d{4}$/, '')}`) });
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(f.getByLabel('Date')).toHaveValue(sunday);
  const times = f.getByRole('group', { name: `Free times on ${formatSastDate(sunday)}` });
  await expect(times.getByRole('button')).toHaveText(['04:00', '04:30', '05:00', '05:30', '06:00']);

  // Pressed, a time fills the next empty choice; pressed again, it comes out.
  for (const time of ['04:00', '05:00', '06:00']) await times.getByRole('button', { name: time }).click();
  const slotValues = () => Promise.all(slotLabels.map((label) => f.getByLabel(label).inputValue()));
  expect(await slotValues()).toEqual(['04:00', '05:00', '06:00']);
  await expect(f).toContainText('Three times chosen.');
  await times.getByRole('button', { name: '05:00' }).click();
  await expect(times.getByRole('button', { name: '05:00' })).toHaveAttribute('aria-pressed', 'false');
  await times.getByRole('button', { name: '05:30' }).click();
  expect(await slotValues()).toEqual(['04:00', '05:30', '06:00']);
  // Two hours fit fewer starts before 07:00.
  await f.getByLabel('Hours').fill('2');
  await expect(times.getByRole('button')).toHaveText(['04:00', '04:30', '05:00']);
  await f.getByLabel('Hours').fill('1');
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await times.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/free-times-${size}.png` });
  }

  // Offline, after a reload: the same free times, from the device; the request waits and goes once.
  await waitForActiveServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(times.getByRole('button')).toHaveText(['04:00', '04:30', '05:00', '05:30', '06:00']);
  expect(await slotValues()).toEqual(['04:00', '05:30', '06:00']);
  await times.getByRole('button', { name: '06:00' }).click();
  await times.getByRole('button', { name: '04:30' }).click();
  await f.getByLabel('Concepts you need help with').fill('Dijkstra, picked on the train.');
  await f.getByRole('button', { name: 'Submit booking request' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(bookingMessages.confirmSubmit);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await context.setOffline(false);
  await expect(page.getByText('Waiting to send')).toHaveCount(0);
  const mine = (await (await page.request.get('/api/bookings')).json()) as { bookings: Booking[] };
  const sent = mine.bookings.filter((b) => b.moduleName === module.name);
  expect(sent.map((b) => [b.date, b.slots])).toEqual([[sunday, ['04:00', '05:30', '04:30']]]);
  for (const c of [admin.context, tutor.context, other.context, context]) await c.close();
});

test('a tutor’s week at a glance: their sessions and the requests waiting, by day, each a link to its card; offline too', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(90_000));
  const { admin, module } = await newModule(browser, 'Statistics');
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  const student = await userPage(browser, 'student');
  const inTwoDays = sastDate(new Date(Date.now() + 2 * 24 * 3_600_000));
  const ask = (slots: string[], concepts: string) =>
    requestBooking(student.page.request, { module: module.name, date: inTwoDays, slots, hours: 2, concepts });
  const session = await ask(['13:30', '15:00', '16:00'], 'Regression.');
  await ask(['08:00', '09:00', '10:00'], 'ANOVA.');
  await confirmTime(tutor.page.request, session, '13:30');

  const { page, context } = tutor;
  await page.goto('/tutor-dashboard');
  const week = page.getByRole('region', { name: 'Your week' });
  const day = week.getByRole('listitem').filter({ hasText: formatSastDate(inTwoDays).slice(5, -5) });
  const sessionLink = day.getByRole('link', { name: new RegExp(`13:30–15:30 ${module.name}`) });
  await expect(sessionLink).toBeVisible();
  await expect(day.getByRole('link', { name: new RegExp(`Request ${module.name}`) })).toContainText(
    '08:00, 09:00 and 10:00 SAST',
  );
  await expect(week.getByRole('listitem').filter({ hasText: 'Today' })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await week.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/tutor-week-${size}.png`, fullPage: size === 'phone' });
  }
  // The link takes the tutor to the session's card.
  await sessionLink.click();
  await expect(page.locator(`#booking-${session.id}`)).toBeInViewport();

  await waitForActiveServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(sessionLink).toBeVisible();
  for (const c of [admin.context, tutor.context, student.context]) await c.close();
});
