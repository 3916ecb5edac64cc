import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolations, loginAs, viewports, waitForActiveServiceWorker } from './fixtures.ts';

// The engine on a prepaid phone (src/client/lib/connectivity.ts): offline or unanswered, one request per half
// minute at most, whatever the app does meanwhile; an item that keeps failing is shown, with a way to try now.

const navbar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const askForm = (page: Page) => page.getByRole('form', { name: 'Ask a question' });

async function ask(page: Page, title: string) {
  await askForm(page).getByLabel('Title').fill(title);
  await askForm(page).getByLabel('Description').fill('Asked where there is no signal.');
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
}

/** Every request to the API from the context's pages (the stream's included), with when it left. */
function recordApi(context: BrowserContext) {
  const sent: { at: number; what: string }[] = [];
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) sent.push({ at: Date.now(), what: `${request.method()} ${pathname}` });
  });
  return sent;
}

/** When the queued item first failed (IndexedDB's `outbox` row, offline/outbox-rules.ts `retried`), if it has. */
const failingSince = (page: Page) =>
  page.evaluate(async () => {
    const opening = indexedDB.open('tutorbook');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB did not open'));
    });
    try {
      const reading = db.transaction('outbox').objectStore('outbox').getAll();
      const rows = await new Promise<{ failingSince?: number }[]>((resolve, reject) => {
        reading.onsuccess = () => resolve(reading.result as { failingSince?: number }[]);
        reading.onerror = () => reject(reading.error ?? new Error('The outbox could not be read'));
      });
      return rows[0]?.failingSince;
    } finally {
      db.close();
    }
  });

const questionOnServer = async (page: Page, title: string) => {
  const answer = await page.request.get(`/api/questions?q=${encodeURIComponent(title)}`);
  const body = (await answer.json()) as { questions: { title: string }[] };
  return body.questions.some((question) => question.title === title);
};

test('offline, three starts of the app and a question cost one request per 30 s at most (backing off); back online, it goes at once', async ({
  page,
  context,
}) => {
  // The page's clock jumps where the engine would wait (half a minute, a minute): Date and timers, not the network.
  await page.clock.install();
  await loginAs(page, 'student');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  const sent = recordApi(context);

  await context.setOffline(true);
  await expect(navbar(page).getByRole('status')).toContainText('Offline');
  sent.length = 0;
  const title = `Asked offline ${Date.now()}`;
  // Three starts of the app, a question typed between them: none of it asks the network at once.
  await page.reload();
  await ask(page, title);
  await expect(navbar(page).getByRole('status')).toContainText('Offline, 1 waiting');
  await page.reload();
  await page.reload();
  await expect(page.getByRole('article', { name: title })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(sent, 'at once').toEqual([]);
  // Then one probe after half a minute, and one more every 30 s, 60 s, 120 s…, whatever the sources and the queue want.
  const after = async (ms: number) => {
    await page.clock.fastForward(ms);
    await page.waitForTimeout(1_500);
    return sent.length;
  };
  expect(await after(31_000), `after 31 s: ${JSON.stringify(sent)}`).toBeLessThanOrEqual(1);
  expect(await after(31_000), `after 62 s: ${JSON.stringify(sent)}`).toBeLessThanOrEqual(2);
  expect(await after(31_000), `after 93 s: ${JSON.stringify(sent)}`).toBeLessThanOrEqual(2);

  // The browser says it is back: one probe at once, and once it is answered, everything.
  await context.setOffline(false);
  await expect.poll(() => questionOnServer(page, title), { timeout: 15_000 }).toBe(true);
  await expect(navbar(page).getByRole('status')).not.toContainText('waiting');
  await expect.poll(() => sent.filter((request) => request.what === 'GET /api/events').length).toBeGreaterThan(0);
});

test('a question the server keeps refusing to take for a minute is shown as stuck, with "Try now", and goes once it can', async ({
  page,
  context,
}) => {
  await page.clock.install();
  await loginAs(page, 'student');
  await page.goto('/qa');
  // The server is there (everything else is answered) but cannot take questions for now: for the page, and for
  // the service worker, which the page asks to send when the connection is back (background-send.ts).
  let busy = true;
  await context.route('**/api/questions', async (route) => {
    if (route.request().method() !== 'POST' || !busy) return route.fallback();
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'server.busy', message: 'The server is busy.' } }),
    });
  });
  const title = `Asked while the server was busy ${Date.now()}`;
  await ask(page, title);
  const status = navbar(page).getByRole('status');
  await expect(status).toContainText('1 waiting');
  // Its first try has failed (by the page, or by the service worker the page asked to send it): the stall is
  // counted from then, so the minute below starts after it.
  await expect.poll(() => failingSince(page)).toBeDefined();

  // A minute and more of tries later (1 s, 2 s, 4 s, … apart), the navbar says it is stuck, and for how long.
  await page.clock.fastForward(70_000);
  await expect(status.getByText('1 item waiting for 1 minute; trying again.')).toBeAttached();
  await page.setViewportSize(viewports.phone);
  await expect(status).toContainText('1 stuck');
  await status.getByRole('button').click();
  const dialog = page.getByRole('alertdialog', { name: 'Changes not sent yet' });
  await expect(dialog.getByText('1 item waiting for 1 minute; trying again.')).toBeVisible();
  await expectNoAxeViolations(page);
  for (const size of Object.values(viewports)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `test-results/stuck-item-${size.width}.png` });
  }

  busy = false;
  await dialog.getByRole('button', { name: 'Try now' }).click();
  await expect(dialog.getByText('All changes saved.')).toBeVisible();
  await expect.poll(() => questionOnServer(page, title)).toBe(true);
});
