import { expect, test, type Page } from '@playwright/test';
import { noticeKindInfo, noticeMessages } from '../src/common/notices.ts';
import { sastDate } from '../src/common/sast.ts';
import { e2eWhatsApp } from '../playwright.config.ts';
import type { RecordedMessage } from '../scripts/whatsapp-standin.ts';
import {
  confirmTime,
  expectNoAxeViolations,
  newModule,
  origin,
  requestBooking,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * Notices (issue 38 §1) as a student meets them: her tutor confirms, her open notifications page shows one unread, the
 * notifications page names the session in SAST and opens it; read offline, marked read offline, the mark reaches the
 * server when the connection is back. Her choices on the profile page: push and WhatsApp never pre-ticked, a
 * booking's e-mail always on.
 */
const dayMs = 24 * 3_600_000;

/**
 * Keeps what the page asks the app icon's badge to show (`window.badges`), where Chromium here has no installed app
 * to show it on: a stand-in of the browser's Badging API, not of the app.
 */
const recordBadges = () => {
  const shown: number[] = [];
  Object.assign(window, { badges: shown });
  Object.assign(Navigator.prototype, {
    setAppBadge: (n?: number) => Promise.resolve(void shown.push(n ?? 0)),
    clearAppBadge: () => Promise.resolve(void shown.push(0)),
  });
};
const lastBadge = (page: Page) => page.evaluate(() => (window as unknown as { badges: number[] }).badges.at(-1));
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

test('a confirmation reaches the student’s notifications, read and marked read offline too', async ({ browser }) => {
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(6),
    slots: ['08:00', '12:30', '16:00'],
    hours: 2,
  });
  await student.context.addInitScript(recordBadges);
  await student.page.goto('/student-dashboard');
  const bell = student.page.getByRole('link', { name: noticeMessages.title });
  await bell.click();
  await expect(student.page).toHaveURL(/\/notifications$/);
  await expect(student.page.getByText(noticeMessages.empty)).toBeVisible();

  // The tutor's app icon counts the requests waiting in her subjects: one fewer once she confirms this one.
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  await tutor.context.addInitScript(recordBadges);
  await tutor.page.goto('/tutor-dashboard');
  await expect(tutor.page.locator(`#booking-${requested.id}`)).toBeVisible();
  const waiting = await lastBadge(tutor.page);
  expect(waiting).toBeGreaterThanOrEqual(1);
  await confirmTime(tutor.page.request, requested, '12:30');
  await expect.poll(() => lastBadge(tutor.page)).toBe(waiting! - 1);
  // The live stream brings it to the open page.
  const item = student.page.getByRole('listitem', { name: `Unread: Session confirmed: ${module.name}` });
  await expect(item).toContainText(/12:30 SAST/);
  await expect(item).toContainText(requested.paymentReference);
  await expect(student.page.getByRole('status').filter({ hasText: '1 unread notification' })).toBeVisible();
  expect(await lastBadge(student.page)).toBe(1);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await expectNoAxeViolations(student.page);
    await student.page.screenshot({ path: `test-results/screenshots/notifications-${size}.png`, fullPage: true });
  }

  // The admin's list has the request (the tutor joined after it was made).
  await admin.page.goto('/notifications');
  await expect(
    admin.page.getByRole('listitem').filter({ hasText: `New booking request: ${module.name}` }),
  ).toBeVisible();

  // The admin's page also lists the notices that did not arrive: none here (nobody chose push or WhatsApp).
  await expect(admin.page.getByRole('heading', { name: 'Notices that did not arrive' })).toBeVisible();
  await expect(admin.page.getByText('Every notice arrived. Nothing to do here.')).toBeVisible();
  await expectNoAxeViolations(admin.page);

  // Offline: the list is still there, and "Mark all as read" works, queued until the connection is back.
  await student.context.setOffline(true);
  await student.page.reload();
  await expect(item).toBeVisible();
  await student.page.getByRole('button', { name: noticeMessages.markAllRead }).click();
  await expect(student.page.getByRole('status').filter({ hasText: 'Everything is read.' })).toBeVisible();
  expect(await lastBadge(student.page)).toBe(0);
  await student.context.setOffline(false);
  await expect
    .poll(async () => (await (await student.page.request.get('/api/notices')).json()).unread, { timeout: 30_000 })
    .toBe(0);

  // The notice opens the session it is about.
  await student.page.getByRole('link', { name: `Session confirmed: ${module.name}` }).click();
  await expect(student.page).toHaveURL(new RegExp(`/student-dashboard#booking-${requested.id}$`));
});

test('the choices on the profile: e-mail as before, push and WhatsApp off until ticked, kept', async ({ browser }) => {
  const student = await userPage(browser, 'student');
  await student.page.goto('/profile');
  const section = student.page.getByRole('region', { name: noticeMessages.preferencesTitle });
  await expect(section).toContainText('We never send promotions');
  const box = (kind: keyof typeof noticeKindInfo, channel: string) =>
    section.getByRole('checkbox', { name: new RegExp(`^${noticeKindInfo[kind].label}: ${channel}`) });
  await expect(box('booking-confirmed', 'E-mail')).toBeChecked();
  await expect(box('booking-confirmed', 'E-mail')).toBeDisabled();
  await expect(box('booking-confirmed', 'Push')).not.toBeChecked();
  await expect(box('question-answered', 'E-mail')).toBeChecked();
  // A tutor's kind is not shown to a student.
  await expect(section.getByText(noticeKindInfo['booking-request'].label)).toHaveCount(0);
  for (const [size, viewport] of Object.entries(viewports)) {
    await student.page.setViewportSize(viewport);
    await section.scrollIntoViewIfNeeded();
    expect(await section.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await expectNoAxeViolations(student.page);
    await section.screenshot({ path: `test-results/screenshots/notice-preferences-${size}.png` });
  }

  await box('question-answered', 'E-mail').uncheck();
  await section.getByRole('button', { name: 'Save choices' }).click();
  await expect(student.page.getByText(noticeMessages.saved)).toBeVisible();
  await student.page.reload();
  await expect(box('question-answered', 'E-mail')).not.toBeChecked();
  const saved = await (await student.page.request.get('/api/me/notice-preferences')).json();
  expect(saved.preferences.choices['question-answered'].email.on).toBe(false);
  expect(Date.parse(saved.preferences.choices['question-answered'].email.at)).toBeGreaterThan(Date.now() - 120_000);
});

test('a student follows a classmate’s question at 360 px, and its answer reaches her notifications', async ({
  browser,
}) => {
  const asker = await userPage(browser, 'student');
  const id = crypto.randomUUID();
  const title = `Why is e to the x its own derivative? ${id.slice(0, 6)}`;
  const asked = await asker.page.request.post('/api/questions', {
    data: { id, title, text: 'My textbook says so, but why?' },
    headers: { origin },
  });
  expect(asked.status(), await asked.text()).toBe(201);

  const reader = await userPage(browser, 'student');
  await reader.page.setViewportSize(viewports.phone);
  await reader.page.goto(`/qa/${id}`);
  const follow = reader.page.getByRole('button', { name: 'Follow' });
  await follow.click();
  await expect(reader.page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
  await expectNoAxeViolations(reader.page);

  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const answered = await tutor.page.request.post(`/api/questions/${id}/answers`, {
    data: { id: crypto.randomUUID(), text: 'Its slope at every point equals its height: that is what defines e.' },
    headers: { origin },
  });
  expect(answered.status(), await answered.text()).toBe(201);

  await reader.page.goto('/notifications');
  const item = reader.page.getByRole('listitem', { name: `Unread: New answer: ${title}` });
  await expect(item).toContainText('Its slope at every point equals its height');
  await reader.page.getByRole('link', { name: `New answer: ${title}` }).click();
  await expect(reader.page).toHaveURL(new RegExp(`/qa/${id}`));
});

test('a WhatsApp message refused for good shows on the admin’s notifications; once fixed, Send again delivers it', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const local = `083${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const number = `27${local.slice(1)}`;
  const chosen = await student.page.request.put('/api/me/notice-preferences', {
    data: { set: [{ kind: 'booking-confirmed', channel: 'whatsapp', on: true }], whatsappNumber: local },
    headers: { origin },
  });
  expect(chosen.status(), await chosen.text()).toBe(200);
  // The owner's test number may send only to the numbers on its allowed list (131030): refused, not retried.
  const standin = `http://127.0.0.1:${e2eWhatsApp.port}/stand-in`;
  await fetch(`${standin}/refuse`, {
    method: 'POST',
    body: JSON.stringify({ to: number, status: 400, code: 131030, times: 1 }),
  });
  const requested = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(9),
    slots: ['08:00', '12:30', '16:00'],
  });
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  await confirmTime(tutor.page.request, requested, '16:00');

  await admin.page.goto('/notifications');
  const failed = admin.page
    .getByRole('list', { name: 'Failed deliveries' })
    .getByRole('listitem')
    .filter({ hasText: `WhatsApp …${number.slice(-4)}` });
  await expect(async () => {
    await admin.page.reload();
    await expect(failed).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(failed).toContainText('131030');
  await expect(failed).toContainText('allowed list');
  for (const [size, viewport] of Object.entries(viewports)) {
    await admin.page.setViewportSize(viewport);
    await expectNoAxeViolations(admin.page);
    await admin.page.screenshot({ path: `test-results/screenshots/failed-deliveries-${size}.png`, fullPage: true });
  }
  const received = async () =>
    ((await (await fetch(`${standin}/messages?to=${number}`)).json()) as RecordedMessage[]).length;
  expect(await received()).toBe(0);
  await failed.getByRole('button', { name: 'Send again' }).click();
  await expect.poll(received, { timeout: 30_000 }).toBe(1);
});
