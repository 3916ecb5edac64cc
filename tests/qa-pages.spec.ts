import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Question } from '../src/common/qa.ts';
import {
  expectNoAxeViolations,
  journeyTimeout,
  layoutShifts,
  loginAs,
  origin,
  recordLayoutShifts,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

/**
 * The board as the server renders it for each request (docs/decisions/0024): a visitor, or a search engine,
 * gets the questions in the HTML, and each question has its own address with its answers; the app hydrates
 * it without an error or a shift, and the offline engine takes over.
 */

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function post(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { origin } });
  expect(response.status(), url).toBe(201);
  return response.json() as Promise<unknown>;
}

/** A question by a new student, answered by a tutor. */
async function askedAndAnswered(browser: Browser, title: string) {
  const student = await (await browser.newContext({ baseURL: origin })).newPage();
  await loginAs(student, 'student');
  const question = (await post(student, '/api/questions', {
    id: crypto.randomUUID(),
    title,
    text: 'I sum each column with:\n\n```java\nfor (int r = 0; r < grid.length; r++) sum[c] += grid[r][c];\n```\n\nIs `grid[r].length` needed?',
  })) as Question;
  const tutor = await (await browser.newContext({ baseURL: origin })).newPage();
  await loginAs(tutor, 'tutor', ['Computer Science']);
  await post(tutor, `/api/questions/${question.id}/answers`, {
    id: crypto.randomUUID(),
    text: 'Yes: rows may differ in length, so read `grid[r].length` for each row.',
  });
  await Promise.all([student.context().close(), tutor.context().close()]);
  return question;
}

/** Console errors and uncaught errors (a failed hydration is one: React #418). */
function recordErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

test('a visitor gets the board and a question’s own page as HTML, with its answers, before any script', async ({
  browser,
}) => {
  const title = unique('How do I sum the columns of a 2D array');
  const question = await askedAndAnswered(browser, title);
  const bare = await browser.newContext({ baseURL: origin, javaScriptEnabled: false });
  const page = await bare.newPage();

  await page.goto('/qa');
  const onBoard = page.getByRole('article', { name: title });
  await expect(onBoard).toContainText('Is grid[r].length needed?');
  await expect(onBoard).toContainText('read grid[r].length for each row');
  await expect(onBoard.getByRole('link', { name: title })).toHaveAttribute('href', `/qa/${question.id}`);
  // Until hydrated, no form takes input: it would be sent natively. (A vote button does nothing until then.)
  for (const control of await page.locator('main :is(form :is(input, textarea, button), input)').all())
    await expect(control).toBeDisabled();

  const opened = await page.goto(`/qa/${question.id}`);
  expect(opened?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByText('read grid[r].length for each row')).toBeVisible();
  await expect(page).toHaveTitle(`${title} · TutorBook`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${origin}/qa/${question.id}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /^I sum each column with: for \(int r = 0;/,
  );
  await bare.close();
});

test('the board and a question’s page hydrate without an error or a layout shift, and pass axe', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(120_000));
  const title = unique('Why is my loop off by one');
  const question = await askedAndAnswered(browser, title);
  // A visitor; a student and a tutor, whose Follow (and the tutor's offer) come in once read, into a row held for
  // them. Signed in, a second visit opens from the service worker's shell.
  const readers = [['visitor', await browser.newContext({ baseURL: origin })]] as [string, BrowserContext][];
  for (const role of ['student', 'tutor'] as const) {
    const context = await browser.newContext({ baseURL: origin });
    await loginAs(await context.newPage(), role, ['Computer Science']);
    readers.push([role, context]);
  }

  for (const [who, context] of readers) {
    await recordLayoutShifts(context);
    for (const path of ['/qa', `/qa/${question.id}`])
      for (const [size, viewport] of Object.entries(viewports)) {
        const page = await context.newPage();
        await page.setViewportSize(viewport);
        const errors = recordErrors(page);
        await page.goto(path, { waitUntil: 'networkidle' });
        // Hydrated: its forms take input (the ask form on the board, the answer form on a question's page).
        await expect(page.locator('main textarea').first()).toBeEnabled();
        await expect(page.getByText(title).first()).toBeVisible();
        if (who !== 'visitor' && path !== '/qa')
          await expect(page.getByRole('button', { name: 'Follow' })).toBeEnabled();
        if (who === 'tutor' && path !== '/qa')
          await expect(page.getByRole('button', { name: 'Offer a session' })).toBeVisible();
        const at = `${who}: ${path} at ${size}`;
        expect(errors, at).toEqual([]);
        expect(await layoutShifts(page), at).toEqual([]);
        await expectNoAxeViolations(page);
        if (who === 'visitor' || path !== '/qa')
          await page.screenshot({
            path: `test-results/screenshots/${path === '/qa' ? 'qa-board' : 'qa-question'}-${who}-${size}.png`,
          });
        await page.close();
      }
    await context.close();
  }
});

test('on a question’s page a visitor’s vote and answer ask them to log in, and change nothing', async ({
  browser,
  page,
}) => {
  const title = unique('Is a float exact');
  const question = await askedAndAnswered(browser, title);
  await page.goto(`/qa/${question.id}`);
  const box = page.getByLabel(`Your answer to "${title}"`);
  await box.fill('Not for 0.1.');
  await page.getByRole('button', { name: 'Post answer' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Log in to answer.' })).toBeVisible();
  await expect(box).toHaveValue('Not for 0.1.');
  await page.getByRole('button', { name: /^Upvote/ }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Log in to vote.' })).toBeVisible();
  const stored = (await (await page.request.get(`/api/questions/${question.id}`)).json()) as Question;
  expect(stored).toMatchObject({ upvotes: 0, downvotes: 0 });
  expect(stored.answers).toHaveLength(1);
});

test('a question that is not there is a 404 page that says so and leads back to the board', async ({ page }) => {
  const errors = recordErrors(page);
  const response = await page.goto(`/qa/${crypto.randomUUID()}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Question not found' })).toBeVisible();
  await expect(page.getByText('This question no longer exists.')).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The browser's console reports the 404 of the document itself: nothing else.
  expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/qa-question-missing-${size}.png` });
  }
  await page.getByRole('link', { name: 'See all questions' }).click();
  await expect(page).toHaveURL(/\/qa$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Community Q&A' })).toBeVisible();
});

test('on a question’s page a student answers and votes, and reads it again offline', async ({ page, browser }) => {
  const title = unique('What does static mean in Java');
  const question = await askedAndAnswered(browser, title);
  await loginAs(page, 'student');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  // From the board, by the question's link: the app's own navigation, from the device's copy.
  await page.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/qa/${question.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page).toHaveTitle(`${title} · TutorBook`);

  await page.getByLabel(`Your answer to "${title}"`).fill('It belongs to the class, not to an object.');
  await page.getByRole('button', { name: 'Post answer' }).click();
  // Among the answers (the text was in the field and its preview until queued).
  await expect(
    page.getByRole('region', { name: `Answers to "${title}"` }).getByText('It belongs to the class, not to an object.'),
  ).toBeVisible();
  await page.getByRole('button', { name: /^Upvote/ }).click();
  await expect(page.getByRole('button', { name: /^Upvote/ })).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(async () => {
      const stored = (await (await page.request.get(`/api/questions/${question.id}`)).json()) as Question;
      return [stored.upvotes, stored.answers.length];
    })
    .toEqual([1, 2]);

  // Offline, the worker answers with the shell, and the page is read from the device.
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByText('It belongs to the class, not to an object.')).toBeVisible();
  await page.context().setOffline(false);
});
