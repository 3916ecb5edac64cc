import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolations, loginAs, viewports } from './fixtures.ts';

/** The lists a student's pages read, and the live stream: what "Save data" must leave alone. */
const watched = /^\/api\/(events|bookings|questions|modules|me\/enrolments)(\/|$)/;

/** The paths of the API requests the browser makes from now on (the pages' and the service worker's). */
function recordApi(context: BrowserContext) {
  const paths: string[] = [];
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (watched.test(pathname)) paths.push(pathname);
  });
  return {
    paths,
    clear: () => void paths.splice(0),
  };
}

const saveData = (page: Page) => page.getByRole('checkbox', { name: /^Save data: no live updates/ });
const refresh = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Refresh' });
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
/** Long enough for what a focus or a page opening would have set off to have gone. */
const settle = (page: Page) => page.waitForTimeout(1500);

test('Save data on: no live stream, nothing read on focus or a page opening; Refresh reads the lists on the page; off again, the stream opens', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await nav(page, 'Community');
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  // The board reads the catalogue too (its module filter): read here once, as the board is, before Save data.
  await expect(page.getByLabel('Filter by module').getByRole('option')).not.toHaveCount(2);
  await nav(page, 'Profile');
  await expect(saveData(page)).not.toBeChecked();
  await expect(page.getByText('For this device only')).toBeVisible();
  await expect(refresh(page)).toHaveCount(0);

  const api = recordApi(context);
  await saveData(page).check();
  await expect(page.getByText(/Refresh at the top of a page to see what changed/)).toBeVisible();
  await expect(refresh(page)).toBeVisible();

  // Pages read before open from the device, and coming back to the tab reads nothing.
  await nav(page, 'Dashboard');
  await expect(page.getByRole('heading', { name: 'Your sessions' })).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await nav(page, 'Community');
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await settle(page);
  // Opened again (a reload): still no stream, no reads.
  await page.reload();
  await expect(refresh(page)).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await settle(page);
  expect(api.paths).toEqual([]);

  // Refresh reads what the board page shows, and only that.
  await refresh(page).click();
  await expect.poll(() => api.paths).toContain('/api/questions');
  await settle(page);
  // The board's lists: its questions, the reader's votes, and the catalogue its module filter offers.
  const boardReads = ['/api/questions', '/api/questions/my-votes', '/api/modules'];
  expect(api.paths.filter((p) => !boardReads.includes(p))).toEqual([]);

  // Off again: the stream opens, and what changed meanwhile is read.
  api.clear();
  await nav(page, 'Profile');
  await saveData(page).uncheck();
  await expect(refresh(page)).toHaveCount(0);
  await expect.poll(() => api.paths).toContain('/api/events');
  await expect.poll(() => api.paths).toContain('/api/bookings');
});

test('Save data on a new device: a page reads the list it has never read here, and not when opened again', async ({
  browser,
}) => {
  const context = await browser.newContext();
  // The setting is the device's: here it was chosen before anyone signed in.
  await context.addInitScript(() => localStorage.setItem('tutorbook:save-data', 'on'));
  const page = await context.newPage();
  await loginAs(page, 'student');
  const api = recordApi(context);
  await nav(page, 'Community');
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await expect.poll(() => api.paths).toContain('/api/questions');
  await settle(page);
  // Opened again: the board is on the device now.
  api.clear();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  await settle(page);
  expect(api.paths.filter((p) => p.startsWith('/api/questions') || p === '/api/events')).toEqual([]);
  await context.close();
});

test("the browser's data saver turns Save data on until the user chooses; the profile says why", async ({
  browser,
}) => {
  const context = await browser.newContext();
  // Chromium's data saver has no switch here: the page is told it instead.
  await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
  const page = await context.newPage();
  await loginAs(page, 'student');
  await nav(page, 'Profile');
  await expect(saveData(page)).toBeChecked();
  await expect(page.getByText('On because your browser asks sites to save data.')).toBeVisible();
  await saveData(page).uncheck();
  await page.reload();
  await expect(saveData(page)).not.toBeChecked();
  await context.close();
});

test('the Save data setting and the Refresh button: no axe violations, screenshots at 360 and 1280 px', async ({
  page,
}) => {
  await loginAs(page, 'student');
  await nav(page, 'Profile');
  await saveData(page).check();
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    const setting = page.getByRole('region', { name: 'This device' });
    await setting.scrollIntoViewIfNeeded();
    await expect(refresh(page)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/data-saver-${size}.png` });
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/data-saver-desktop-dark.png' });
});
