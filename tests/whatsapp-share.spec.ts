import { expect, test, type Page } from '@playwright/test';
import { formatSastSession, sastDate } from '../src/common/sast.ts';
import { confirmTime, expectNoAxeViolations, newModule, requestBooking, userPage, viewports } from './fixtures.ts';

/**
 * "Share on WhatsApp" (issue 38 §3), which needs no account: on the student's confirmed session, a link that opens
 * WhatsApp with the session written out (module, time in SAST, amount, payment reference, a calendar link), to send
 * to whom she chooses. Not on a request still waiting for its tutor. WhatsApp itself is not reached (no internet
 * here): its address is answered by the test, and the message is read from the link.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));
const studentCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name });

test('a student shares her confirmed session on WhatsApp: module, SAST time, amount, reference, calendar', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const date = daysAhead(6);
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date,
    slots: ['08:00', '12:30', '16:00'],
    hours: 2,
  });

  await student.page.goto('/student-dashboard');
  const card = studentCard(student.page, module.name);
  await expect(card.getByText('Pending', { exact: true })).toBeVisible();
  const share = card.getByRole('link', { name: /^Share on WhatsApp/ });
  await expect(share).toHaveCount(0);

  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  await confirmTime(tutor.page.request, requested, '12:30');
  await student.page.reload();
  await expect(card.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(share).toBeVisible();
  await expect(share).toHaveAttribute('target', '_blank');
  await expect(share).toHaveAttribute('rel', /noopener/);
  await expect(share).toHaveAccessibleName('Share on WhatsApp (opens WhatsApp in a new tab)');

  const href = new URL((await share.getAttribute('href'))!);
  expect(href.origin + href.pathname).toBe('https://wa.me/');
  const lines = href.searchParams.get('text')!.split('\n');
  expect(lines.slice(0, 3)).toEqual([
    'My TutorBook session is confirmed:',
    module.name,
    formatSastSession(date, '12:30', 2),
  ]);
  expect(lines).toContain('Amount: R180');
  expect(lines).toContain(`Payment reference: ${requested.paymentReference}`);
  const calendar = new URL(lines.find((line) => line.startsWith('Add it to a calendar: '))!.split(': ')[1]!);
  expect(calendar.hostname).toBe('calendar.google.com');
  // 12:30 SAST is 10:30 UTC; two hours.
  const day = date.replaceAll('-', '');
  expect(calendar.searchParams.get('dates')).toBe(`${day}T103000Z/${day}T123000Z`);

  // Tapped, it opens WhatsApp in a tab of its own with that text, and the dashboard stays.
  await student.context.route('https://wa.me/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }),
  );
  const [whatsApp] = await Promise.all([student.page.waitForEvent('popup'), share.click()]);
  expect(whatsApp.url()).toBe(href.toString());
  await whatsApp.close();
  await expect(student.page).toHaveURL(/\/student-dashboard$/);

  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await card.scrollIntoViewIfNeeded();
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const box = (await share.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await expectNoAxeViolations(student.page);
    await card.screenshot({ path: `test-results/screenshots/whatsapp-share-${size}.png` });
  }
  for (const { context } of [admin, student, tutor]) await context.close();
});
