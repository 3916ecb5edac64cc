import { expect, request as apiRequest, test, type APIRequestContext } from '@playwright/test';
import { statsPath } from '../scripts/hosting-standin.ts';
import { journeyTimeout, origin, password, signUpAndVerify } from './fixtures.ts';

// Behind the Firebase Hosting stand-in only (scripts/e2e-hosting.ts, docs/decisions/0038), which ends every
// request, the board's event stream included, after E2E_HOSTING_LIMIT_MS: the browser's own EventSource and the
// app's live events living with that.

interface Stats {
  proxied: Record<string, number>;
  cut: number;
}

async function stats(request: APIRequestContext): Promise<Stats> {
  return (await (await request.get(statsPath)).json()) as Stats;
}

const streams = (s: Stats) => s.proxied['/api/events'] ?? 0;

test('the board stays live while Hosting cuts its stream, and a quiet board fetches nothing again', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const hosting = await apiRequest.newContext({ baseURL: origin });
  // The author asks through the API: no page, so the reader's is the only stream open.
  const author = await apiRequest.newContext({ baseURL: origin });
  const account = await signUpAndVerify(author, 'Naledi Author');
  const login = await author.post('/api/auth/sign-in/email', {
    data: { email: account.email, password },
    headers: { origin },
  });
  expect(login.status()).toBe(200);

  const reader = await browser.newContext({ baseURL: origin });
  const page = await reader.newPage();
  const boardReads: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/questions')) boardReads.push(url.pathname + url.search);
  });
  const opened = streams(await stats(hosting));
  await page.goto('/qa');
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await expect.poll(async () => streams(await stats(hosting))).toBe(opened + 1);
  const start = await stats(hosting);

  // Nothing happens through a cut: the browser reconnects, and the board reads nothing again.
  await page.waitForTimeout(1_000);
  const readsBefore = boardReads.length;
  await expect.poll(async () => (await stats(hosting)).cut, { timeout: 30_000 }).toBeGreaterThanOrEqual(start.cut + 1);
  await expect.poll(async () => streams(await stats(hosting)), { timeout: 15_000 }).toBe(streams(start) + 1);
  await page.waitForTimeout(1_000);
  expect(boardReads.slice(readsBefore)).toEqual([]);

  // A question asked while the stream is down (just cut, the browser waiting its 3 s) reaches the open board.
  const cutBefore = (await stats(hosting)).cut;
  await expect.poll(async () => (await stats(hosting)).cut, { timeout: 30_000 }).toBeGreaterThan(cutBefore);
  const title = `Asked between two streams ${Date.now().toString(36)}`;
  const asked = await author.post('/api/questions', {
    data: { id: crypto.randomUUID(), title, text: 'Does it still arrive?' },
    headers: { origin },
  });
  expect(asked.status()).toBe(201);
  await expect(page.getByRole('article', { name: title })).toBeVisible({ timeout: 20_000 });

  // One new stream for each cut, no more.
  const end = await stats(hosting);
  expect(streams(end) - streams(start)).toBeLessThanOrEqual(end.cut - start.cut + 1);
  await reader.close();
  await author.dispose();
  await hosting.dispose();
});
