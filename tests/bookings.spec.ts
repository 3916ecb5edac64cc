import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  bookingMessages,
  latestBookableDate,
  lateFeeCents,
  type Booking,
  type BookingPage,
} from '../src/common/bookings.ts';
import { formatSastDate, sastDate, sastInstant, sastZone } from '../src/common/sast.ts';
import { textMessages } from '../src/common/validation.ts';
import {
  emailTo,
  expectNoAxeViolations,
  journeyTimeout,
  loginAs,
  newModule,
  origin,
  requestBooking,
  type TestModule,
  uniqueModuleName,
  userPage,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

// The e2e server books at least 20 hours ahead (tests/start-server.ts), so that a session inside the 24-hour
// late-cancellation window can be booked at all.
const leadHours = 20;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** A date `days` from now, in SAST. */
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

const form = (page: Page) => page.getByRole('form', { name: 'Your session' });
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
const studentCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your bookings' }).getByRole('article', { name });
const staffCard = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Bookings' }).getByRole('article', { name });

interface Typed {
  date: string;
  slots: [string, string, string];
  hours: string;
  concepts: string;
}

async function fillBooking(page: Page, typed: Typed) {
  const f = form(page);
  await f.getByLabel('Date').fill(typed.date);
  for (const [i, label] of ['First choice', 'Second choice', 'Third choice'].entries())
    await f.getByLabel(label).fill(typed.slots[i]!);
  await f.getByLabel('Hours').fill(typed.hours);
  await f.getByLabel('Concepts you need help with').fill(typed.concepts);
}

async function expectTyped(page: Page, typed: Typed) {
  const f = form(page);
  await expect(f.getByLabel('Date')).toHaveValue(typed.date);
  for (const [i, label] of ['First choice', 'Second choice', 'Third choice'].entries())
    await expect(f.getByLabel(label)).toHaveValue(typed.slots[i]!);
  await expect(f.getByLabel('Hours')).toHaveValue(typed.hours);
  await expect(f.getByLabel('Concepts you need help with')).toHaveValue(typed.concepts);
}

/** Submit, and say yes to 'Are you sure you want to submit?'. */
async function submitBooking(page: Page) {
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(bookingMessages.confirmSubmit);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
}

async function bookFromModulePage(page: Page, module: TestModule) {
  await page.goto(`/modules/${module.slug}`);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await expect(page).toHaveURL(/\/booking$/);
  await expect(form(page)).toBeVisible();
}

async function bookingsOf(request: APIRequestContext, module: string): Promise<Booking[]> {
  const res = await request.get('/api/bookings');
  expect(res.status()).toBe(200);
  return ((await res.json()) as BookingPage).bookings.filter((b) => b.moduleName === module);
}

/** What the page's IndexedDB holds in a store, by key (the draft, the outbox). */
const stored = (page: Page, store: string) =>
  page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction(name).objectStore(name).getAll();
          all.onsuccess = () => resolve(all.result as unknown[]);
        };
      }),
    store,
  );

/** Three distinct times on one SAST date, all between `fromMs` and `toMs` from now. */
function slotsBetween(fromMs: number, toMs: number): { date: string; slots: string[] } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: sastZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const byDate = new Map<string, string[]>();
  const step = 10 * 60_000;
  for (let at = Math.ceil((Date.now() + fromMs) / step) * step; at <= Date.now() + toMs; at += step) {
    const p = Object.fromEntries(parts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    const date = `${p.year}-${p.month}-${p.day}`;
    byDate.set(date, [...(byDate.get(date) ?? []), `${p.hour}:${p.minute}`]);
  }
  const [date, times] = [...byDate].find(([, t]) => t.length >= 3)!;
  return { date, slots: times.slice(0, 3) };
}

async function confirmDialog(page: Page, text: string, button: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toHaveCount(0);
}

/** Scrolls `target`'s top to just under the sticky navbar, for a screenshot that shows what matters. */
async function showAtTop(target: Locator) {
  await target.evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -80);
  });
}

/** Nothing sticks out sideways (a phone would scroll the whole page). */
async function expectNoHorizontalOverflow(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

// ---------------------------------------------------------------------------------------------------------
// Journeys

test('a student books a session, the tutor confirms a time, and the student sees only that time, the payment reference and both e-mails', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const student = await userPage(browser, 'student');
  const { page } = student;

  await bookFromModulePage(page, module);
  const summary = page.getByRole('region', { name: module.name });
  await expect(summary).toContainText('Mathematics');
  await expect(summary).toContainText('Matrices, vectors and the systems they solve.');
  await expect(summary.getByRole('listitem')).toHaveText(['Row reduction', 'Determinants', 'Eigenvalues']);
  await expect(form(page)).toContainText('Times are SAST');
  await expect(form(page).getByLabel('Hours')).toHaveValue('1');
  await expect(form(page)).toContainText('R90');

  const date = daysAhead(5);
  await fillBooking(page, {
    date,
    slots: ['09:00', '13:30', '17:00'],
    hours: '2',
    concepts: 'Eigenvalues, and why my determinant is zero.',
  });
  await expect(form(page)).toContainText('R180');
  await submitBooking(page);
  await expect(toastWith(page, bookingMessages.sent)).toBeVisible();
  await expect(page).toHaveURL(/\/student-dashboard$/);

  const card = studentCard(page, module.name);
  await expect(card).toContainText('09:00, 13:30 and 17:00 SAST');
  await expect(card).toContainText('R180');
  await expect(card.locator('.status-label.pending')).toHaveText('Pending');
  const [booking] = await bookingsOf(page.request, module.name);
  expect(booking).toMatchObject({
    status: 'Pending',
    date,
    slots: ['09:00', '13:30', '17:00'],
    hours: 2,
    totalCents: 18000,
    moduleCategory: 'Mathematics',
  });
  await expect(card).toContainText(booking!.paymentReference);
  const receipt = await emailTo(student.account.email, /Booking request received/);
  expect(receipt.text).toContain('Eigenvalues, and why my determinant is zero.');

  // The form is empty again for the next booking.
  await page.goto('/booking');
  await expect(form(page).getByLabel('Concepts you need help with')).toHaveValue('');
  await expect(form(page).getByLabel('Date')).toHaveValue('');
  await page.goto('/student-dashboard');

  await tutor.page.goto('/tutor-dashboard');
  const tutorCard = staffCard(tutor.page, module.name);
  await expect(tutorCard).toContainText(student.account.name);
  await tutorCard.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(tutor.page, bookingMessages.selectSlot)).toBeVisible();
  await tutorCard.getByLabel('Time slot').selectOption('13:30');
  await tutorCard.getByRole('button', { name: 'Confirm' }).click();
  // The booking is named by its payment reference, never by its internal id.
  await expect(
    toastWith(tutor.page, bookingMessages.timeConfirmedTutor(booking!.paymentReference, '13:30')),
  ).toBeVisible();
  await expect(tutorCard.locator('.status-label.confirmed')).toHaveText('Confirmed');
  await expect(tutorCard).toContainText(`Booking ${booking!.paymentReference}`);
  await expect(tutorCard).not.toContainText(booking!.id);
  await expect(tutor.page.locator('[data-sonner-toast]').filter({ hasText: booking!.id })).toHaveCount(0);

  // The student's open dashboard hears of it without a reload.
  await expect(card.locator('.status-label.confirmed')).toHaveText('Confirmed');
  await expect(card).toContainText('Confirmed time');
  await expect(card).toContainText('13:30 SAST');
  // Who tutors it: the tutor who confirmed.
  await expect(card.getByRole('definition').filter({ hasText: 'Lerato Tutor' })).toBeVisible();
  await expect(card.getByRole('term').filter({ hasText: /^Tutor$/ })).toBeVisible();
  await expect(card).not.toContainText('09:00');
  await expect(card).not.toContainText('17:00');
  await expect(card).toContainText(booking!.paymentReference);
  await card.getByText(/^History/).click();
  await expect(card.getByRole('listitem')).toHaveCount(2);
  await expect(card.getByRole('listitem').last()).toContainText('Lerato Tutor (tutor) confirmed 13:30 SAST');

  const confirmation = await emailTo(student.account.email, /Session confirmed/);
  expect(confirmation.text).toContain(booking!.paymentReference);
  expect(confirmation.text).toContain('13:30');
  expect(confirmation.text).toContain('Your session with Lerato Tutor is confirmed');
  expect(confirmation.attachments.some((a) => a.contentType.startsWith('text/calendar'))).toBe(true);
  for (const { context } of [admin, tutor, student]) await context.close();
});

test('on a phone, the toast after booking is opaque and leaves "Cancel booking" free to press, in light and dark', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await page.setViewportSize(viewports.phone);
  await bookFromModulePage(page, module);
  // Each toast's opacity at every frame of its first 600 ms: sonner's fade-in let the page show through.
  await page.evaluate(() => {
    const seen: number[] = ((window as unknown as { toastOpacities: number[] }).toastOpacities = []);
    const sample = (toast: Element, until: number) => {
      seen.push(Number(getComputedStyle(toast).opacity));
      if (performance.now() < until) requestAnimationFrame(() => sample(toast, until));
    };
    new MutationObserver((records) => {
      for (const node of records.flatMap((record) => [...record.addedNodes]))
        if (node instanceof Element)
          for (const toast of [node, ...node.querySelectorAll('*')].filter((e) => e.matches('[data-sonner-toast]')))
            sample(toast, performance.now() + 600);
    }).observe(document.body, { childList: true, subtree: true });
  });
  await fillBooking(page, { date: daysAhead(5), slots: ['09:00', '10:00', '11:00'], hours: '1', concepts: 'Rank.' });
  await submitBooking(page);
  await expect(page).toHaveURL(/\/student-dashboard$/);
  const toast = toastWith(page, bookingMessages.sent);
  const cancel = studentCard(page, module.name).getByRole('button', { name: 'Cancel booking' });
  await expect(toast).toBeVisible();
  await expect(cancel).toBeInViewport();
  const opacities = () => page.evaluate(() => (window as unknown as { toastOpacities: number[] }).toastOpacities);
  await expect(toast).toHaveCSS('transform', /^(none|matrix\(1, 0, 0, 1, 0, 0\))$/); // slid in
  expect((await opacities()).length).toBeGreaterThan(5);
  expect(Math.min(...(await opacities())), 'the lowest opacity of a toast as it came').toBe(1);

  // As the student finds the dashboard: the button is hers to press, the toast over nothing she needs.
  const [toastBox, cancelBox] = [(await toast.boundingBox())!, (await cancel.boundingBox())!];
  const overlap = (a: typeof toastBox, b: typeof toastBox) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap(toastBox, cancelBox), `toast ${JSON.stringify(toastBox)}, button ${JSON.stringify(cancelBox)}`).toBe(
    false,
  );
  const centre = { x: cancelBox.x + cancelBox.width / 2, y: cancelBox.y + cancelBox.height / 2 };
  expect(await cancel.evaluate((button, { x, y }) => button.contains(document.elementFromPoint(x, y)), centre)).toBe(
    true,
  );
  const navbar = (await page.getByRole('banner').boundingBox())!;
  expect(toastBox.y, 'under the navbar').toBeGreaterThanOrEqual(navbar.y + navbar.height);

  // Opaque: nothing of the page shows through it, in either scheme.
  await toast.hover(); // holds it on screen, as a reader would
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('[data-sonner-toaster]')).toHaveAttribute('data-sonner-theme', scheme);
    const alpha = await toast.evaluate((element) => {
      const canvas = document.createElement('canvas').getContext('2d')!;
      canvas.fillStyle = getComputedStyle(element).backgroundColor;
      canvas.fillRect(0, 0, 1, 1);
      return canvas.getImageData(0, 0, 1, 1).data[3];
    });
    expect(alpha, `${scheme}: the toast's background`).toBe(255);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/toast-after-booking-phone-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(viewports.desktop);
  await toast.hover();
  await expect(toast).toBeInViewport();
  await page.screenshot({ path: `test-results/screenshots/toast-after-booking-desktop-light.png` });
  for (const c of [admin.context, context]) await c.close();
});

test('a booking made offline waits on the dashboard, survives a reload, and is sent once when the connection returns', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  await waitForActiveServiceWorker(page);

  await context.setOffline(true);
  await fillBooking(page, {
    date: daysAhead(6),
    slots: ['10:00', '11:00', '12:00'],
    hours: '1',
    concepts: 'Booked on the train.',
  });
  await submitBooking(page);
  await expect(page).toHaveURL(/\/student-dashboard$/);
  const card = studentCard(page, module.name);
  await expect(card.getByText('Waiting to send')).toBeVisible();
  await expect(card).toContainText('Given once the request reaches us');
  await expect(card.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);

  await page.reload();
  await expect(card.getByText('Waiting to send')).toBeVisible();

  // The page's and the service worker's (it may send once the connection is back: background-send.ts).
  let posts = 0;
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/bookings') posts += 1;
  });
  await context.setOffline(false);
  await expect(card.getByText('Waiting to send')).toHaveCount(0);
  const bookings = await bookingsOf(page.request, module.name);
  expect(bookings).toHaveLength(1);
  await expect(card).toContainText(bookings[0]!.paymentReference);
  expect(posts).toBe(1);
  await expect.poll(() => stored(page, 'outbox')).toEqual([]);
  // Accepted: the draft it came from is gone.
  expect(await stored(page, 'bookingDrafts')).toEqual([]);
  for (const c of [admin.context, context]) await c.close();
});

test('a booking submitted offline ends on the dashboard as waiting to send; /booking then offers a new form, and nothing moves her away from it', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  await waitForActiveServiceWorker(page);

  await context.setOffline(true);
  await fillBooking(page, {
    date: daysAhead(6),
    slots: ['10:00', '11:00', '12:00'],
    hours: '1',
    concepts: 'Booked in a dead zone.',
  });
  await submitBooking(page);
  // As online: on to the dashboard, which says where the request is.
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await expect(toastWith(page, bookingMessages.queued)).toBeVisible();
  const card = studentCard(page, module.name);
  await expect(card.getByText('Waiting to send')).toBeVisible();
  await expect(card).toContainText('10:00, 11:00 and 12:00 SAST');
  await expect(card).toContainText('Given once the request reaches us');
  await page.setViewportSize(viewports.phone);
  await toastWith(page, bookingMessages.queued).getByRole('button', { name: 'Close toast' }).click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: `test-results/screenshots/student-dashboard-waiting-phone-${scheme}.png`,
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(viewports.desktop);

  // Booking again while the first still waits: a new form, not the first one's locked copy.
  await page.goto('/booking');
  await expect(form(page).getByLabel('Date')).toBeEnabled();
  await expectTyped(page, { date: '', slots: ['', '', ''], hours: '1', concepts: '' });
  await expect(form(page).getByRole('button', { name: 'Submit booking request' })).toBeEnabled();
  await expect(form(page).getByRole('button', { name: 'Book another session' })).toHaveCount(0);

  // She types; the connection returns and the first request goes, under her: the page stays where it is.
  const second: Typed = {
    date: daysAhead(8),
    slots: ['14:00', '15:00', '16:00'],
    hours: '2',
    concepts: 'Typed while the first one went.',
  };
  await form(page).getByLabel('Concepts you need help with').fill('Typed while');
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await context.setOffline(false);
  await expect.poll(async () => (await bookingsOf(page.request, module.name)).length).toBe(1);
  await expect.poll(() => stored(page, 'outbox')).toEqual([]);
  await fillBooking(page, second);
  await expect(page).toHaveURL(/\/booking$/);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expectTyped(page, second);
  await expect(toastWith(page, bookingMessages.sent)).toHaveCount(0);

  // Her second request goes as any online one does.
  await submitBooking(page);
  await expect(toastWith(page, bookingMessages.sent)).toBeVisible();
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await expect(studentCard(page, module.name)).toHaveCount(2);
  await expect(page.getByText('Waiting to send')).toHaveCount(0);
  expect((await bookingsOf(page.request, module.name)).map((b) => b.concepts).sort()).toEqual(
    ['Booked in a dead zone.', second.concepts].sort(),
  );
  for (const c of [admin.context, context]) await c.close();
});

test('a request whose first try gets no answer, the browser online, also ends on the dashboard as waiting to send', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  // A network that says it is up and carries nothing (a phone without data): the request fails without an answer,
  // for the page and for the service worker it asks to send later (background-send.ts).
  let tries = 0;
  await context.route('**/api/bookings', (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    tries += 1;
    return route.abort('internetdisconnected');
  });
  await fillBooking(page, { date: daysAhead(6), slots: ['10:00', '11:00', '12:00'], hours: '1', concepts: 'Lie-fi.' });
  await submitBooking(page);
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await expect(toastWith(page, bookingMessages.retrying)).toBeVisible();
  const card = studentCard(page, module.name);
  await expect(card.getByText('Waiting to send')).toBeVisible();
  expect(tries).toBeGreaterThan(0);

  await context.unroute('**/api/bookings');
  await expect(card.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
  expect(await bookingsOf(page.request, module.name)).toHaveLength(1);
  for (const c of [admin.context, context]) await c.close();
});

test('a page that stops just after queueing a booking leaves the request linked to its draft: it cannot be submitted twice', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  // Once armed, and once a request is added to the outbox, the page starts no other transaction, as if it
  // stopped as that one committed: a draft linked in a transaction of its own (before the fix) is never linked.
  // Installed before any page loads, since Dexie keeps IndexedDB's `transaction` from when it opens the database.
  await context.addInitScript(() => {
    const state = window as unknown as { armed?: boolean; stopped?: boolean };
    const add = IDBObjectStore.prototype.add;
    IDBObjectStore.prototype.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
      if (state.armed && this.name === 'outbox') state.stopped = true;
      return add.apply(this, args);
    };
    const transaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<typeof transaction>) {
      if (state.stopped) throw new DOMException('The page stopped.', 'AbortError');
      return transaction.apply(this, args);
    };
  });
  await bookFromModulePage(page, module);
  await waitForActiveServiceWorker(page);
  await context.setOffline(true);
  const typed: Typed = { date: daysAhead(6), slots: ['09:00', '10:00', '11:00'], hours: '1', concepts: 'Just once.' };
  await fillBooking(page, typed);
  await expect
    .poll(async () => (await stored(page, 'bookingDrafts'))[0])
    .toMatchObject({ values: { concepts: typed.concepts } });
  await page.evaluate(() => ((window as unknown as { armed?: boolean }).armed = true));
  await submitBooking(page);
  await page.waitForFunction(() => (window as unknown as { stopped?: boolean }).stopped === true);
  await page.close();

  const again = await context.newPage();
  await again.goto('/booking');
  // The draft is the queued request's: it is not offered as a form to submit again, but a new form is.
  await expectTyped(again, { date: '', slots: ['', '', ''], hours: '1', concepts: '' });
  await expect(form(again).getByRole('button', { name: 'Submit booking request' })).toBeEnabled();
  await expect.poll(() => stored(again, 'bookingDrafts')).toEqual([]);
  expect(await stored(again, 'outbox')).toHaveLength(1);
  await context.setOffline(false);
  await expect.poll(async () => (await stored(again, 'outbox')).length).toBe(0);
  expect(await bookingsOf(again.request, module.name)).toHaveLength(1);
  for (const c of [admin.context, context]) await c.close();
});

test('logging out forgets the module chosen for booking: the next person on the device starts clean', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await loginAs(page, 'student');
  await page.goto('/booking');
  await expect(page.getByRole('heading', { name: 'No module chosen yet' })).toBeVisible();
  await expect(page.getByText(module.name)).toHaveCount(0);
  for (const c of [admin.context, context]) await c.close();
});

test('what the student types is kept as a draft through a reload and a closed tab', async ({ browser }) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  const typed: Typed = {
    date: daysAhead(7),
    slots: ['08:15', '12:45', '19:00'],
    hours: '3',
    concepts: 'Gram–Schmidt, slowly.',
  };
  await fillBooking(page, typed);
  await expect
    .poll(async () => (await stored(page, 'bookingDrafts'))[0])
    .toMatchObject({ values: { concepts: typed.concepts, hours: '3' } });

  await page.reload();
  await expectTyped(page, typed);
  await expect(page.getByRole('region', { name: module.name })).toBeVisible();

  await page.close();
  const again = await context.newPage();
  await again.goto('/booking');
  await expectTyped(again, typed);
  await expect(again.getByRole('region', { name: module.name })).toBeVisible();
  for (const c of [admin.context, context]) await c.close();
});

test('the chosen date is said in words under the date field, as the app writes dates, and announced once', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  const date = form(page).getByLabel('Date');
  const leadTime = bookingMessages.leadTime(leadHours);
  await expect(date).toHaveAccessibleDescription(leadTime);

  // The input shows the browser's own order (mm/dd/yyyy here); the hint says which day that is.
  const chosen = daysAhead(9);
  const words = formatSastDate(chosen);
  await date.fill(chosen);
  await expect(date).toHaveAccessibleDescription(`${words}. ${leadTime}`);
  await expect(form(page)).toContainText(`${words}. ${leadTime}`);
  // Said to a screen reader once the date has stayed put, by a polite live region of its own.
  const announced = form(page).getByRole('status').filter({ hasText: words });
  await expect(announced).toHaveAttribute('aria-live', 'polite');
  await expect(announced).toHaveText(words);

  // Typed as on a keyboard, the year passes through 0002, 0020 and 0202: those are not dates to say.
  await date.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('20');
  await expect(date).toHaveValue(`0020${chosen.slice(4)}`);
  await expect(date).toHaveAccessibleDescription(leadTime);
  await page.keyboard.type('27');
  const later = `2027${chosen.slice(4)}`;
  await expect(date).toHaveValue(later);
  await expect(date).toHaveAccessibleDescription(`${formatSastDate(later)}. ${leadTime}`);
  await date.fill(chosen);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await showAtTop(form(page));
    await page.screenshot({ path: `test-results/screenshots/bookings-date-in-words-${size}.png` });
  }

  await page.reload();
  await expect(form(page).getByLabel('Date')).toHaveAccessibleDescription(`${words}. ${leadTime}`);
  await form(page).getByLabel('Date').fill('');
  await expect(form(page).getByLabel('Date')).toHaveAccessibleDescription(leadTime);
  for (const c of [admin.context, context]) await c.close();
});

test('the form says what is wrong next to each field and keeps everything typed', async ({ browser }) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  // Yesterday: no time on it is far enough ahead, whatever the hour. (Today is still bookable in the first
  // hours after midnight SAST, when the lead time ends before the day does.)
  await fillBooking(page, { date: daysAhead(-1), slots: ['09:00', '09:00', ''], hours: '9', concepts: ' ' });
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(form(page)).toContainText(`${formatSastDate(daysAhead(-1))} has passed; the earliest is`);
  await expect(form(page)).toContainText(bookingMessages.slotsRequired);
  await expect(form(page)).toContainText(bookingMessages.hoursInvalid);
  await expect(form(page)).toContainText(bookingMessages.conceptsRequired);
  await expect(form(page).getByLabel('Date')).toBeFocused();
  await expect(form(page).getByLabel('Hours')).toHaveValue('9');

  await form(page).getByLabel('Third choice').fill('11:00');
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  await expect(form(page)).toContainText(bookingMessages.slotsDistinct);
  expect(await bookingsOf(page.request, module.name)).toEqual([]);
  for (const c of [admin.context, context]) await c.close();
});

test('concepts pasted with a hidden right-to-left override are refused next to the field, and kept', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context } = await userPage(browser, 'student');
  await bookFromModulePage(page, module);
  // U+202E shows what follows backwards: in a tutor's e-mail, "gnitset" would read "testing".
  const typed: Typed = {
    date: daysAhead(10),
    slots: ['09:00', '11:00', '14:00'],
    hours: '1',
    concepts: 'Eigenvalues\n\u202Egnitset',
  };
  await fillBooking(page, typed);
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(form(page)).toContainText(textMessages.multiLine);
  await expect(form(page).getByLabel('Concepts you need help with')).toBeFocused();
  await expectTyped(page, typed);
  await expectNoAxeViolations(page);
  expect(await bookingsOf(page.request, module.name)).toEqual([]);

  // Without it, the lines go as typed.
  await form(page).getByLabel('Concepts you need help with').fill('Eigenvalues\ntesting');
  await submitBooking(page);
  await expect(toastWith(page, bookingMessages.sent)).toBeVisible();
  await expect
    .poll(async () => (await bookingsOf(page.request, module.name)).map((b) => b.concepts))
    .toEqual(['Eigenvalues\ntesting']);
  for (const c of [admin.context, context]) await c.close();
});

test('a request the server refuses (the date is now too close) needs attention with its message, the draft intact, and can be put right', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  // This device's clock is three days behind: a session yesterday looks far enough ahead here, and the
  // server, on the real clock, refuses it (as when a request waited offline for days).
  const { page, context } = await userPage(browser, 'student', { clockAt: Date.now() - 3 * dayMs });
  await bookFromModulePage(page, module);
  const typed: Typed = {
    date: daysAhead(-1),
    slots: ['00:05', '00:10', '00:15'],
    hours: '2',
    concepts: 'Refused, then put right.',
  };
  await fillBooking(page, typed);
  await submitBooking(page);

  // The server's words: the date has passed, and the earliest time it would take.
  const refused = `${formatSastDate(typed.date)} has passed; the earliest is`;
  const refusal = new RegExp(`^${bookingMessages.failed.replace('.', '\\.')} ${refused} \\d\\d:\\d\\d on `);
  await expect(form(page).getByRole('status').filter({ hasText: bookingMessages.failed })).toHaveText(refusal);
  await expectTyped(page, typed);
  await page.reload();
  await expect(form(page).getByRole('status').filter({ hasText: bookingMessages.failed })).toHaveText(refusal);
  await expectTyped(page, typed);

  await page.goto('/student-dashboard');
  const card = studentCard(page, module.name);
  await expect(card).toContainText(`Needs attention: ${refused}`);
  await card.getByRole('button', { name: 'Edit and send again' }).click();
  await expect(page).toHaveURL(/\/booking$/);
  await expectTyped(page, typed);

  const later = sastDate(new Date(Date.now() + 5 * dayMs));
  await form(page).getByLabel('Date').fill(later);
  await submitBooking(page);
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await expect(card.getByText(/Needs attention/)).toHaveCount(0);
  const bookings = await bookingsOf(page.request, module.name);
  expect(bookings.map((b) => b.date)).toEqual([later]);
  await expect.poll(() => stored(page, 'outbox')).toEqual([]);
  for (const c of [admin.context, context]) await c.close();
});

test('a module the catalogue does not know is booked as a custom subject: Uncategorized, at R100 an hour', async ({
  browser,
}) => {
  const { page, context } = await userPage(browser, 'student');
  await page.goto('/booking');
  await expect(page.getByRole('heading', { name: 'No module chosen yet' })).toBeVisible();
  const subject = uniqueModuleName('Data Structures and Algorithms');
  await page.getByLabel('Subject').fill(subject);
  await page.getByRole('button', { name: 'Continue' }).click();
  const summary = page.getByRole('region', { name: subject });
  await expect(summary).toContainText(bookingMessages.customSubject);
  await expect(summary).toContainText('Uncategorized');
  await expect(summary).toContainText('R100/hour');
  await fillBooking(page, {
    date: daysAhead(4),
    slots: ['14:00', '15:00', '16:00'],
    hours: '2',
    concepts: 'Red-black trees.',
  });
  await expect(form(page)).toContainText('R200');
  await submitBooking(page);
  await expect(page).toHaveURL(/\/student-dashboard$/);
  const [booking] = await bookingsOf(page.request, subject);
  expect(booking).toMatchObject({ moduleCategory: 'Uncategorized', priceCentsPerHour: 10000, totalCents: 20000 });
  await context.close();
});

test('a student cancels: in good time it is simply cancelled; inside 24 hours the late-cancellation fee is recorded and shown', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const { page, context, account } = await userPage(browser, 'student');
  const early = await requestBooking(page.request, {
    module: module.name,
    date: daysAhead(5),
    slots: ['09:00', '10:00', '11:00'],
    hours: 2,
  });
  const soon = slotsBetween((leadHours + 0.5) * hourMs, 23.5 * hourMs);
  const late = await requestBooking(page.request, {
    module: module.name,
    date: soon.date,
    slots: soon.slots,
    hours: 2,
  });
  await page.goto('/student-dashboard');

  const earlyCard = page.locator(`#booking-${early.id}`);
  await earlyCard.getByRole('button', { name: 'Cancel booking' }).click();
  await confirmDialog(page, bookingMessages.cancelConfirm, 'Cancel booking');
  await expect(toastWith(page, bookingMessages.cancelled)).toBeVisible();
  await expect(earlyCard.locator('.status-label.cancelled')).toHaveText('Cancelled');
  await expect(earlyCard.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
  await expect(earlyCard).not.toContainText('Late cancellation');

  const lateCard = page.locator(`#booking-${late.id}`);
  await lateCard.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep booking' }).click();
  await expect(lateCard.locator('.status-label.pending')).toBeVisible();
  await lateCard.getByRole('button', { name: 'Cancel booking' }).click();
  // The dialog gives the fee in rand: half of 2 hours at R90.
  expect(bookingMessages.cancelLateConfirm(lateFeeCents(late.totalCents))).toContain('(R90)');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/bookings-late-cancel-dialog-${size}.png` });
  }
  await confirmDialog(page, bookingMessages.cancelLateConfirm(lateFeeCents(late.totalCents)), 'Cancel booking');
  // The toast gives the fee in rand too, as the dialog did.
  await expect(toastWith(page, 'the late-cancellation fee (50%, R90) applies.')).toBeVisible();
  await expect(lateCard.locator('.status-label.cancelled')).toHaveText('Cancelled');
  await expect(lateCard).toContainText('Late cancellation');
  await expect(lateCard).toContainText('R90');
  // The e-mail says what to pay and how: the fee, the reference, and whom to pay (or whom to ask).
  const email = await emailTo(account.email, new RegExp(`^Booking cancelled: .*${formatSastDate(soon.date)}$`));
  expect(email.text).toContain(
    `the late-cancellation fee (50%, R90) applies. Please pay it by EFT, with the payment reference ${late.paymentReference}-F.`,
  );
  expect(email.text).toMatch(/For the bank details, e-mail \S+@\S+ or send a WhatsApp message to \+27/);
  const stored = await bookingsOf(page.request, module.name);
  expect(stored.find((b) => b.id === late.id)).toMatchObject({ status: 'Cancelled', lateCancellation: true });
  expect(stored.find((b) => b.id === early.id)).toMatchObject({ status: 'Cancelled', lateCancellation: false });
  for (const c of [admin.context, context]) await c.close();
});

test('a tutor reads their cards offline; confirming then says it needs the connection and changes nothing', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(3),
    slots: ['09:00', '10:00', '11:00'],
    concepts: 'Vector spaces.',
  });
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const { page, context } = tutor;
  await page.goto('/tutor-dashboard');
  const card = staffCard(page, module.name);
  await expect(card).toContainText('Vector spaces.');
  await waitForActiveServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(card).toContainText('Vector spaces.');
  await expect(card).toContainText(student.account.email);
  await expect(page.getByText(/You are offline/)).toBeVisible();
  await card.getByLabel('Time slot').selectOption('10:00');
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(page, 'You are offline. Connect to the internet to change a booking.')).toBeVisible();
  // The choosers go back to what is stored: no time, Pending.
  await expect(card.getByLabel('Time slot')).toHaveValue('');
  await card.getByLabel('Status').selectOption('Completed');
  await card.getByRole('button', { name: 'Update status' }).click();
  await expect(card.getByLabel('Status')).toHaveValue('Pending');
  await expect(card.getByRole('button', { name: 'Update status' })).toBeDisabled();
  await context.setOffline(false);
  const [booking] = await bookingsOf(student.page.request, module.name);
  expect(booking).toMatchObject({ status: 'Pending', confirmedSlot: null });
  for (const c of [admin.context, student.context, context]) await c.close();
});

test('a tutor with no category is told so', async ({ browser }) => {
  // `staff add` gives every tutor a category: the session's answer is what the page goes by, so it is changed here.
  const { page, context } = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  await page.route('**/api/session', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { user: { categories: string[] } };
    await route.fulfill({ response, json: { user: { ...body.user, categories: [] } } });
  });
  await page.goto('/tutor-dashboard');
  await expect(page.getByText(bookingMessages.notAssigned)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bookings' })).toHaveCount(0);
  await context.close();
});

test('the admin filters every booking by status, category and date, confirms a time, and a stale card gets 409 rather than overwriting', async ({
  browser,
}) => {
  // Three signed-in browsers, two dashboards, axe and screenshots at two sizes: 26 to 42 s in CI's lane, and past the
  // default 60 s when CI's two lanes and other work share the machine's two cores.
  test.setTimeout(journeyTimeout(120_000));
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const custom = uniqueModuleName('Data Structures and Algorithms');
  const customDate = daysAhead(9);
  const customBooking = await requestBooking(student.page.request, {
    module: custom,
    date: customDate,
    slots: ['10:00', '11:00', '12:00'],
  });
  const statsBooking = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(8),
    slots: ['14:00', '15:00', '16:00'],
  });
  const { page } = admin;
  await page.goto('/admin-dashboard');
  await expect(staffCard(page, custom)).toBeVisible();
  await expect(staffCard(page, module.name)).toBeVisible();

  const filters = page.getByRole('search', { name: 'Filter bookings' });
  await filters.getByLabel('Category').selectOption('Uncategorized');
  await expect(staffCard(page, module.name)).toHaveCount(0);
  await expect(staffCard(page, custom)).toContainText('Uncategorized');
  await filters.getByLabel('Category').selectOption('');
  await filters.getByLabel('Status').selectOption('Confirmed');
  await expect(staffCard(page, custom)).toHaveCount(0);
  await filters.getByLabel('Status').selectOption('');
  await filters.getByLabel('From (session date)').fill(customDate);
  await filters.getByLabel('To (session date)').fill(customDate);
  await expect(staffCard(page, module.name)).toHaveCount(0);
  await expect(staffCard(page, custom)).toBeVisible();
  // A reversed range says so next to the dates, and the list stays as it was.
  await filters.getByLabel('From (session date)').fill(daysAhead(12));
  await expect(filters.getByLabel('To (session date)')).toHaveAccessibleDescription(bookingMessages.dateRangeReversed);
  await expect(staffCard(page, custom)).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await showAtTop(filters);
    await page.screenshot({ path: `test-results/screenshots/bookings-filters-reversed-${size}.png` });
  }
  await filters.getByLabel('From (session date)').fill(customDate);
  await expect(filters.getByText(bookingMessages.dateRangeReversed)).toHaveCount(0);
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(staffCard(page, module.name)).toBeVisible();

  await staffCard(page, custom).getByLabel('Time slot').selectOption('11:00');
  await staffCard(page, custom).getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(page, bookingMessages.timeConfirmedAdmin('11:00'))).toBeVisible();
  await expect(staffCard(page, custom).locator('.status-label.confirmed')).toBeVisible();

  // A second admin whose page hears no live notices still shows the booking as it was.
  const other = await userPage(browser, 'admin');
  await other.context.route('**/api/events', (route) => route.abort());
  await other.page.goto('/admin-dashboard');
  const stale = staffCard(other.page, module.name);
  await expect(stale.locator('.status-label.pending')).toBeVisible();
  // Its opening fetches done: one answered after the change below would make the card current, not stale.
  await other.page.waitForLoadState('networkidle');
  await staffCard(page, module.name).getByLabel('Status').selectOption('Completed');
  await staffCard(page, module.name).getByRole('button', { name: 'Update status' }).click();
  // The session is days away: the admin is asked first; saying no changes nothing.
  const notStarted = bookingMessages.notStartedYet(`${formatSastDate(statsBooking.date)}, 14:00 SAST`);
  await confirmDialog(page, notStarted, 'Keep status');
  await expect(staffCard(page, module.name).locator('.status-label.pending')).toBeVisible();
  await staffCard(page, module.name).getByLabel('Status').selectOption('Completed');
  await staffCard(page, module.name).getByRole('button', { name: 'Update status' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(notStarted);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/bookings-not-started-dialog-${size}.png` });
  }
  await confirmDialog(page, notStarted, 'Mark as completed');
  await expect(staffCard(page, module.name).locator('.status-label.completed')).toBeVisible();

  // Its stream kept failing meanwhile: two tries in a row without an answer, and its engine counts the server
  // unreachable. The 409 below is an answer all the same: the card catches up at once, and the navbar knows.
  const connection = other.page.getByRole('navigation', { name: 'Main' }).getByRole('status');
  await expect(connection).toContainText('Server not answering', { timeout: 20_000 });
  await stale.getByLabel('Time slot').selectOption('15:00');
  await stale.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(other.page, bookingMessages.changedMeanwhile)).toBeVisible();
  await expect(stale.locator('.status-label.completed')).toBeVisible();
  await expect(connection).not.toContainText('Server not answering');
  const [stats] = await bookingsOf(page.request, module.name);
  expect(stats).toMatchObject({ id: statsBooking.id, status: 'Completed', confirmedSlot: null });
  expect(stats!.history.map((h) => h.to)).toEqual(['Pending', 'Completed']);
  const [confirmed] = await bookingsOf(page.request, custom);
  expect(confirmed).toMatchObject({ id: customBooking.id, status: 'Confirmed', confirmedSlot: '11:00' });
  for (const c of [admin.context, student.context, other.context]) await c.close();
});

test("a time inside the lead time is named with the earliest accepted, only its field is marked, and the lead time is the server's from the first render", async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  // The device's clock at 10:00 SAST: with the server's 20 hours, the earliest session is 06:00 the next day.
  const today = daysAhead(2);
  const tomorrow = sastDate(new Date(sastInstant(today, '12:00').getTime() + dayMs));
  const { page, context } = await userPage(browser, 'student', { clockAt: sastInstant(today, '10:00').getTime() });
  // The server's answer comes late: the form waits for it rather than showing a lead time of its own first.
  await page.route('**/api/config', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto(`/modules/${module.slug}`);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await expect(form(page)).toBeVisible();
  expect(await form(page).textContent()).toContain(bookingMessages.leadTime(leadHours));
  const date = form(page).getByLabel('Date');
  await expect(date).toHaveAttribute('min', tomorrow);
  await expect(date).toHaveAttribute('max', latestBookableDate(sastInstant(today, '10:00')));

  // 24-hour times, typed as a phone's number pad allows: "530" becomes 05:30.
  await fillBooking(page, { date: tomorrow, slots: ['530', '09:00', '1200'], hours: '1', concepts: 'Limits.' });
  await form(page).getByLabel('Hours').click();
  await expect(form(page).getByLabel('First choice')).toHaveValue('05:30');
  await expect(form(page).getByLabel('Third choice')).toHaveValue('12:00');
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  // The device's clock has moved on a few seconds since 10:00: the earliest whole minute may be 06:01.
  const message = new RegExp(
    `05:30 on ${formatSastDate(tomorrow)} is less than ${leadHours} hours away; the earliest is 06:0[01] SAST\\.`,
  );
  await expect(form(page)).toContainText(message);
  await expect(form(page).getByLabel('First choice')).toHaveAttribute('aria-invalid', 'true');
  await expect(form(page).getByLabel('First choice')).toBeFocused();
  for (const label of ['Second choice', 'Third choice'])
    await expect(form(page).getByLabel(label)).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await showAtTop(form(page));
    await page.screenshot({ path: `test-results/screenshots/bookings-lead-time-${size}.png` });
  }
  // A date more than a year ahead is refused next to the date.
  await date.fill('9999-01-01');
  await form(page).getByRole('button', { name: 'Submit booking request' }).click();
  await expect(date).toHaveAccessibleDescription(
    new RegExp(bookingMessages.tooFar(latestBookableDate(sastInstant(today, '10:00'))).replace(/[.()]/g, '\\$&')),
  );
  expect(await bookingsOf(page.request, module.name)).toEqual([]);
  for (const c of [admin.context, context]) await c.close();
});

test('the student sees the next session first; a tutor filters by status and does not confirm their own booking', async ({
  browser,
}) => {
  const { admin, module } = await newModule(browser);
  const student = await userPage(browser, 'student');
  const later = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(9),
    slots: ['09:00', '10:00', '11:00'],
  });
  const next = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(4),
    slots: ['09:00', '10:00', '11:00'],
  });
  const dropped = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(12),
    slots: ['09:00', '10:00', '11:00'],
  });
  expect(
    (await student.page.request.post(`/api/bookings/${dropped.id}/cancel`, { headers: { origin } })).status(),
  ).toBe(200);
  await student.page.goto('/student-dashboard');
  const cards = student.page.getByRole('list', { name: 'Your bookings' }).getByRole('article');
  await expect(cards).toHaveCount(3);
  const order = await cards.evaluateAll((articles) => articles.map((a) => a.id));
  expect(order).toEqual([next.id, later.id, dropped.id].map((id) => `booking-${id}`));

  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const own = await requestBooking(tutor.page.request, {
    module: module.name,
    date: daysAhead(6),
    slots: ['13:00', '14:00', '15:00'],
  });
  await tutor.page.goto('/tutor-dashboard');
  const filters = tutor.page.getByRole('search', { name: 'Filter bookings' });
  await expect(filters.getByLabel('Category')).toHaveCount(0);
  // The tutor sees every Mathematics booking of the run: this module's cards are the ones counted.
  const cardsOfModule = staffCard(tutor.page, module.name);
  await expect(cardsOfModule).toHaveCount(4);
  await filters.getByLabel('Status').selectOption('Cancelled');
  await expect(cardsOfModule).toHaveCount(1);
  await expect(cardsOfModule).toContainText(dropped.paymentReference);
  // A cancelled booking offers no Confirm, and says why.
  await expect(cardsOfModule.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  await expect(cardsOfModule).toContainText(bookingMessages.cannotConfirm);
  for (const [size, viewport] of Object.entries(viewports)) {
    await tutor.page.setViewportSize(viewport);
    await showAtTop(cardsOfModule);
    await tutor.page.screenshot({ path: `test-results/screenshots/bookings-cancelled-card-${size}.png` });
  }
  await filters.getByLabel('Status').selectOption('Pending');
  await expect(cardsOfModule).toHaveCount(3);
  const ownCard = cardsOfModule.filter({ hasText: own.paymentReference });
  await expect(ownCard).toContainText(bookingMessages.ownBooking);
  await expect(ownCard.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  await expect(ownCard.getByRole('button', { name: 'Update status' })).toHaveCount(0);
  await expectNoAxeViolations(tutor.page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await tutor.page.setViewportSize(viewport);
    await showAtTop(ownCard);
    await tutor.page.screenshot({ path: `test-results/screenshots/bookings-tutor-own-${size}.png` });
  }
  // The server refuses it too, and the booking stays as it was.
  const refused = await tutor.page.request.post(`/api/bookings/${own.id}/confirm`, {
    data: { slot: '13:00', version: own.version },
    headers: { origin },
  });
  expect(refused.status()).toBe(403);
  const [stored] = (await bookingsOf(tutor.page.request, module.name)).filter((b) => b.id === own.id);
  expect(stored).toMatchObject({ status: 'Pending', confirmedSlot: null, version: own.version });
  for (const c of [admin.context, student.context, tutor.context]) await c.close();
});

test("the About page tells students to pay with their booking's payment reference", async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByText(/use your booking's payment reference \(TB-…/)).toBeVisible();
  await expect(page.getByText(/your name and module as the reference/)).toHaveCount(0);
});

test('the booking page and the three dashboards: no axe violations, nothing sideways on a phone, screenshots at 360 and 1280 px in light and dark', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(180_000));
  const { admin, module } = await newModule(browser);
  const tutor = await userPage(browser, 'tutor', { categories: ['Mathematics'] });
  const student = await userPage(browser, 'student');
  const confirmed = await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(4),
    slots: ['09:00', '13:30', '17:00'],
    hours: 2,
    concepts: 'Eigenvectors.',
  });
  await requestBooking(student.page.request, {
    module: module.name,
    date: daysAhead(6),
    slots: ['10:00', '11:30', '15:00'],
    concepts: 'Row reduction, step by step.',
  });
  const res = await tutor.page.request.post(`/api/bookings/${confirmed.id}/confirm`, {
    data: { slot: '13:30', version: confirmed.version },
    headers: { origin },
  });
  expect(res.status()).toBe(200);

  // The booking page and the student's list whole; the staff lists hold every booking of the run, so the
  // screenshot shows the top of the list.
  const shots: {
    page: Page;
    path: string;
    name: string;
    ready: (page: Page) => Locator;
    fullPage?: boolean;
    before?: (page: Page) => Promise<void>;
  }[] = [
    {
      page: student.page,
      path: `/modules/${module.slug}`,
      name: 'booking',
      ready: (p) => form(p),
      before: async (p) => {
        await p.getByRole('button', { name: 'Book Now' }).click();
        await fillBooking(p, {
          date: daysAhead(5),
          slots: ['09:00', '09:00', ''],
          hours: '2',
          concepts: 'Determinants.',
        });
        await form(p).getByRole('button', { name: 'Submit booking request' }).click();
        await expect(form(p)).toContainText(bookingMessages.slotsRequired);
      },
    },
    {
      page: student.page,
      path: '/student-dashboard',
      name: 'student-dashboard',
      ready: (p) => studentCard(p, module.name).first(),
    },
    {
      page: tutor.page,
      path: '/tutor-dashboard',
      name: 'tutor-dashboard',
      ready: (p) => staffCard(p, module.name).first(),
      fullPage: false,
    },
    {
      page: admin.page,
      path: '/admin-dashboard',
      name: 'admin-dashboard',
      ready: (p) => staffCard(p, module.name).first(),
      fullPage: false,
    },
  ];
  for (const { page, path, name, ready, before, fullPage = true } of shots) {
    await page.goto(path);
    await before?.(page);
    await expect(ready(page)).toBeVisible();
    // The history of the confirmed booking, open.
    for (const summary of (await page.getByText(/^History \(/).all()).slice(0, 3)) await summary.click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of Object.entries(viewports)) {
        await page.setViewportSize(viewport);
        await expectNoHorizontalOverflow(page);
        await expectNoAxeViolations(page);
        // From the top of the page (or of the list): a sticky navbar would otherwise sit across the middle.
        if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
        else await showAtTop(page.getByRole('region', { name: 'Bookings' }));
        await page.screenshot({ path: `test-results/screenshots/bookings-${name}-${size}-${scheme}.png`, fullPage });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  for (const { context } of [admin, tutor, student]) await context.close();
});
