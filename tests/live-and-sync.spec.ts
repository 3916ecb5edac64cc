import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import {
  createModule,
  expectNoAxeViolations,
  loginAs,
  origin,
  uniqueModuleName,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';
import { brand } from '../src/common/brand.ts';

const card = (page: Page, name: string) => page.getByRole('article', { name });
const navbar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const isStream = (request: Request) => new URL(request.url()).pathname === '/api/events';
const isCatalogueFetch = (request: Request) =>
  request.method() === 'GET' && new URL(request.url()).pathname === '/api/modules';

/** An admin in a context of their own, with a module the test may change. */
async function adminWithModule(context: BrowserContext, label: string) {
  const admin = await context.newPage();
  await loginAs(admin, 'admin');
  const module = await createModule(admin.request, {
    name: uniqueModuleName(label),
    priceCents: 9000,
    category: 'Mathematics',
  });
  return { admin, module };
}

const raisePrice = async (admin: Page, id: string) =>
  expect((await admin.request.post(`/api/modules/${id}/raise-price`, { headers: { origin } })).status()).toBe(200);

/** The event-stream requests of a context that have not ended, with the page each belongs to. */
function openStreams(context: BrowserContext) {
  const open = new Map<Request, Page>();
  context.on('request', (request) => {
    if (!isStream(request)) return;
    const page = request.frame().page();
    open.set(request, page);
    // A closed tab's request gets no "failed" event.
    page.once('close', () => open.delete(request));
  });
  const ended = (request: Request) => open.delete(request);
  context.on('requestfinished', ended);
  context.on('requestfailed', ended);
  return open;
}

test("a change the admin makes shows on a student's open /offers page without a reload", async ({ page, browser }) => {
  const adminContext = await browser.newContext({ baseURL: origin });
  const { admin, module } = await adminWithModule(adminContext, 'Live Calculus');

  await loginAs(page, 'student');
  await expect(card(page, module.name)).toContainText('Price: R90/hour');
  // Set on this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  await admin.goto('/admin-dashboard#modules');
  const row = card(admin, module.name);
  await row.getByRole('button', { name: '+R10' }).click();
  await expect(admin.getByText('Module updated successfully!')).toBeVisible();
  await expect(card(page, module.name)).toContainText('Price: R100/hour');

  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel('Description').fill('Limits, derivatives and the story they tell.');
  await row.getByRole('button', { name: 'Save changes' }).click();
  await expect(admin.getByText('Module updated successfully!').first()).toBeVisible();
  await expect(card(page, module.name)).toContainText('Limits, derivatives and the story they tell.');

  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await adminContext.close();
});

test('a change made after the page read the server but before its event stream opened still shows, without a reload', async ({
  page,
  browser,
}) => {
  const adminContext = await browser.newContext({ baseURL: origin });
  const { admin, module } = await adminWithModule(adminContext, 'Late Stream');
  // The stream is held back until the page has its catalogue and the price has changed: the notice of that
  // change went out while no stream of this page was listening.
  let openStream!: () => void;
  const streamMayOpen = new Promise<void>((resolve) => (openStream = resolve));
  await page.route('**/api/events', async (route) => {
    await streamMayOpen;
    await route.continue();
  });

  await loginAs(page, 'student');
  await expect(card(page, module.name)).toContainText('Price: R90/hour');
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await raisePrice(admin, module.id);
  openStream();
  await expect(card(page, module.name)).toContainText('Price: R100/hour');
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await adminContext.close();
});

/** Opens /offers and gives the GET requests to the API it made (not the stream), once all of a student's lists are in. */
async function readsOfOffers(page: Page) {
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'GET' && pathname.startsWith('/api/') && !isStream(request)) reads.push(pathname);
  });
  const streamReady = page.waitForResponse((response) => isStream(response.request()));
  await page.goto('/offers');
  await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible();
  await streamReady;
  // The page's list and every list of the student's own, read by the page or as the engine starts (a public list
  // no page here has shown, the board, waits for its page); then a while for any second.
  const lists = ['/api/modules', '/api/me/enrolments', '/api/bookings', '/api/questions/my-votes'];
  await expect.poll(() => lists.every((path) => reads.includes(path))).toBe(true);
  await page.waitForTimeout(1500);
  return reads;
}

test('a page loaded while nothing changes reads each list once: its stream finds that no read missed a notice', async ({
  page,
}) => {
  await loginAs(page, 'student');
  // Away from the page logging in landed on, whose reads may still be on their way.
  await page.goto('about:blank');
  const reads = await readsOfOffers(page);
  expect(reads.filter((path, i) => reads.indexOf(path) !== i)).toEqual([]);
});

test('a device holding only the session cookie (new device, cleared site data) reads each list once, and keeps what it read', async ({
  page,
  browser,
}) => {
  await loginAs(page, 'student');
  const module = (await (await page.request.get('/api/modules')).json()).modules[0] as { id: string; name: string };
  expect(
    (await page.request.post('/api/me/enrolments', { headers: { origin }, data: { moduleId: module.id } })).ok(),
  ).toBe(true);
  const fresh = await browser.newContext();
  await fresh.addCookies(await page.context().cookies());
  const tab = await fresh.newPage();
  const reads = await readsOfOffers(tab);
  expect(reads.filter((path, i) => reads.indexOf(path) !== i)).toEqual([]);
  // What it read was kept on the device, for this student: their enrolment is in IndexedDB.
  const kept = () =>
    tab.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open('tutorbook');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const rows = open.result.transaction('enrolments').objectStore('enrolments').getAll();
            rows.onsuccess = () => resolve(rows.result.map((row: { moduleName: string }) => row.moduleName));
          };
        }),
    );
  await expect.poll(kept).toEqual([module.name]);
  await fresh.close();
});

test('seven tabs share one event stream; one tab fetches for all; when that tab closes another takes over', async ({
  page,
  context,
  browser,
}) => {
  const adminContext = await browser.newContext({ baseURL: origin });
  const { admin, module } = await adminWithModule(adminContext, 'Shared Stream');
  const streams = openStreams(context);
  let catalogueFetches = 0;
  context.on('request', (request) => {
    if (isCatalogueFetch(request)) catalogueFetches += 1;
  });

  await loginAs(page, 'student');
  const tabs = [page];
  for (let i = 1; i < 7; i++) {
    const tab = await context.newPage();
    await tab.goto('/offers');
    tabs.push(tab);
  }
  // Browsers allow six connections per host: a stream per tab would leave the seventh hanging.
  for (const tab of tabs) await expect(card(tab, module.name)).toContainText('Price: R90/hour');
  await expect.poll(() => streams.size).toBe(1);

  const leader = [...streams.values()][0]!;
  await leader.close();
  const others = tabs.filter((tab) => tab !== leader);
  await expect.poll(() => streams.size).toBe(1);
  const newLeader = [...streams.values()][0]!;
  expect(others).toContain(newLeader);
  // The new leader catches up (it may have missed notices): let that settle before counting.
  await expect.poll(() => catalogueFetches).toBeGreaterThan(0);
  await others[0]!.waitForTimeout(1500);

  catalogueFetches = 0;
  await raisePrice(admin, module.id);
  for (const tab of others) await expect(card(tab, module.name)).toContainText('Price: R100/hour');
  // IndexedDB is shared: the tab holding the stream fetched once, and every tab read the result.
  expect(catalogueFetches).toBe(1);
  expect(streams.size).toBe(1);
  await adminContext.close();
});

test('the navbar says "Offline" while the connection is down, at phone and desktop width, and stops when it is back', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  const status = navbar(page).getByRole('status');
  await expect(status).toHaveText('');

  await context.setOffline(true);
  await expect(status).toContainText('Offline');
  await expect(status.getByText('Offline: changes cannot reach the server now.')).toBeAttached();
  await expectNoAxeViolations(page);
  for (const size of Object.values(viewports)) {
    await page.setViewportSize(size);
    await expect(status).toBeVisible();
    await page.getByRole('banner').screenshot({ path: `test-results/navbar-offline-${size.width}.png` });
  }

  await context.setOffline(false);
  await expect(status).toHaveText('');
});

test('offline, a page sends nothing until the browser reports a connection, then catches up at once', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  const api: string[] = [];
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) api.push(`${request.method()} ${pathname}`);
  });

  await context.setOffline(true);
  await page.reload();
  await expect(navbar(page).getByRole('status')).toContainText('Offline');
  // Counted from here: Chromium's offline emulation may reach a reloaded page's navigator.onLine a moment late.
  api.length = 0;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click();
  await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Community' }).click();
  // Long enough for the stream's reconnects (every 3 s) and the queue's first retries.
  await page.waitForTimeout(8_000);
  expect(api).toEqual([]);

  await context.setOffline(false);
  await expect.poll(() => api.filter((r) => r === 'GET /api/events').length).toBeGreaterThan(0);
  await expect.poll(() => api.filter((r) => r === 'GET /api/questions').length).toBeGreaterThan(0);
  await expect(navbar(page).getByRole('status')).toHaveText('');
});

/**
 * Queues, for the signed-in user, an item as a newer build would have written it: this build does not know the
 * mutation and must keep it, shown as needing attention (after a reload).
 */
async function queueItemOfANewerBuild(page: Page) {
  const { user } = (await (await page.request.get('/api/session')).json()) as { user: { id: string } };
  await page.evaluate(
    (userId) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('tutorbook');
        opening.onerror = () => reject(opening.error ?? new Error('IndexedDB did not open'));
        opening.onsuccess = () => {
          const db = opening.result;
          const tx = db.transaction('outbox', 'readwrite');
          tx.objectStore('outbox').add({
            name: 'future.post',
            version: 1,
            payload: { id: 'p1' },
            userId,
            target: { table: 'posts', id: 'p1' },
            state: 'waiting',
            attempts: 0,
            nextAttemptAt: 0,
            createdAt: new Date().toISOString(),
          });
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('The row was not written'));
        };
      }),
    user.id,
  );
}

test('an item another version of the app left behind: the indicator asks for attention, the list shows it, discarding asks first, and log-out warns while it is there', async ({
  page,
}) => {
  await loginAs(page, 'student');
  await queueItemOfANewerBuild(page);
  await page.reload();

  const indicator = navbar(page).getByRole('button', { name: /1 item could not be sent and needs your attention/ });
  await expect(indicator).toContainText('1 needs attention');
  await page.setViewportSize(viewports.phone);
  await page.getByRole('banner').screenshot({ path: 'test-results/navbar-attention-360.png' });
  await page.setViewportSize(viewports.desktop);

  // Log-out names what would be lost.
  await navbar(page).getByRole('button', { name: 'Log out', exact: true }).click();
  const warning = page.getByRole('alertdialog');
  await expect(warning).toContainText(
    'You have 1 item that has not been sent yet. If you log out now they are lost. Log out anyway?',
  );
  await warning.getByRole('button', { name: 'Cancel' }).click();

  await indicator.click();
  const list = page.getByRole('alertdialog', { name: 'Changes not sent yet' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('A change made on this device');
  await expect(list.getByRole('listitem')).toContainText(
    'This was saved by another version of the app. Reload the page to send it.',
  );
  await expect(list.getByRole('button', { name: 'Send again' })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/unsent-items-dialog-1280.png' });

  await list.getByRole('button', { name: 'Discard' }).click();
  const confirmation = page.getByRole('alertdialog', { name: 'Discard this change?' });
  await expect(confirmation).toContainText(
    '"A change made on this device" will not be sent, and it is removed from this device.',
  );
  await confirmation.getByRole('button', { name: 'Discard' }).click();
  await expect(list).toContainText('All changes saved.');
  await list.getByRole('button', { name: 'Close' }).click();
  await expect(navbar(page).getByRole('status')).toContainText('All saved');

  // Nothing left to lose: the usual question.
  await navbar(page).getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page.getByRole('alertdialog')).not.toContainText('not been sent');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the indicator says how many items wait and how many need attention, on every page a signed-in user opens', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await queueItemOfANewerBuild(page);
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  const indicator = navbar(page).getByRole('status').getByRole('button');
  await expect(indicator).toContainText('1 needs attention');

  // A question typed offline waits behind the refused item, which holds nothing back but its own dependants.
  await context.setOffline(true);
  const ask = page.getByRole('form', { name: 'Ask a question' });
  await ask.getByLabel('Title').fill(`Asked with one item refused ${Date.now()}`);
  await ask.getByLabel('Description').fill('Typed on the bus.');
  await ask.getByRole('button', { name: 'Post question' }).click();
  await expect(indicator).toHaveAccessibleName(
    /^1 item could not be sent and needs your attention\. 1 other item waits to be sent\. Show/,
  );
  await expect(indicator).toContainText('1 needs attention, 1 waiting');
  for (const size of Object.values(viewports)) {
    await page.setViewportSize(size);
    await expect(indicator).toBeVisible();
    await page.getByRole('banner').screenshot({ path: `test-results/navbar-attention-and-waiting-${size.width}.png` });
  }

  // Every page a signed-in user reaches says the same.
  for (const name of ['Courses', 'Dashboard', 'Profile', 'Home', 'Community']) {
    // Home is the brand's link.
    const link = navbar(page).getByRole('link', { name: name === 'Home' ? brand.name : name, exact: true });
    const path = (await link.getAttribute('href'))!;
    await link.click();
    await expect(page).toHaveURL(new URL(path, origin).href);
    await expect(indicator, `on ${path}`).toContainText('1 needs attention, 1 waiting');
  }

  // Back online the question goes; the refused item still needs the user.
  await context.setOffline(false);
  await expect(indicator).toHaveAccessibleName(/^1 item could not be sent and needs your attention\. Show/);
  await expect(indicator).not.toContainText('waiting');
});

test('a session signed out on one device loses its stream on another at once; that browser resumes where it was and catches up', async ({
  page,
  browser,
}) => {
  const adminContext = await browser.newContext({ baseURL: origin });
  const { admin, module } = await adminWithModule(adminContext, 'Resumed Stream');
  await loginAs(page, 'student');
  // A second browser holding the same session cookie (a copied cookie, a device left signed in).
  const other = await browser.newContext({ baseURL: origin });
  await other.addCookies(await page.context().cookies());
  const tab = await other.newPage();
  // What the page's first EventSource hears, in order: its own reconnects included (the browser's, which
  // send Last-Event-ID), not the streams the app may open later.
  await tab.addInitScript(() => {
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    const Original = EventSource;
    let first = true;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        if (!first) return;
        first = false;
        // Told once the server has taken the stream in: notices from then on reach it.
        this.addEventListener('ready', () => ((window as unknown as { streamReady: boolean }).streamReady = true));
        for (const type of ['change', 'resync', 'error'])
          this.addEventListener(type, (event) =>
            heard.push(
              type === 'change'
                ? `change ${(JSON.parse((event as MessageEvent).data) as { table: string }).table}`
                : type,
            ),
          );
      }
    } as typeof EventSource;
  });
  const heard = () => tab.evaluate(() => (window as unknown as { heard: string[] }).heard);
  const firstStream = tab.waitForRequest(isStream);
  await tab.goto('/offers');
  await expect(card(tab, module.name)).toContainText('Price: R90/hour');
  const opened = await firstStream;
  // A change made before the server took the stream in reaches the page by its catch-up read, not as a notice.
  await tab.waitForFunction(() => (window as unknown as { streamReady?: boolean }).streamReady === true);
  await raisePrice(admin, module.id);
  await expect(card(tab, module.name)).toContainText('Price: R100/hour');
  await tab.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // The browser's reconnect is held until a change has been made while it was away.
  let reconnect!: () => void;
  const mayReconnect = new Promise<void>((resolve) => (reconnect = resolve));
  let reconnects = 0;
  await tab.route('**/api/events', async (route) => {
    reconnects += 1;
    await mayReconnect;
    await route.continue();
  });
  const ended = tab.waitForEvent('requestfinished', { predicate: (request) => request === opened, timeout: 5_000 });
  await navbar(page).getByRole('button', { name: 'Log out', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The server ends the signed-out session's stream at once: it no longer hears the student's notices.
  await ended;
  await raisePrice(admin, module.id);
  await expect.poll(() => reconnects).toBe(1);
  reconnect();
  // The same EventSource reconnects with the id of the last notice it heard and is sent the one it missed.
  await expect(card(tab, module.name)).toContainText('Price: R110/hour');
  expect(await heard()).toEqual(['change modules', 'error', 'change modules']);
  expect(await tab.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  for (const [name, size] of Object.entries(viewports)) {
    await tab.setViewportSize(size);
    await tab.screenshot({ path: `test-results/screens/stream-resumed-${name}.png`, fullPage: true });
  }
  await expectNoAxeViolations(tab);
  await other.close();
  await adminContext.close();
});
