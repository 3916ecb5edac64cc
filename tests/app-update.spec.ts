import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test, type Page, type Request } from '@playwright/test';
import type { QuestionPage } from '../src/common/qa.ts';
import { e2eClientDir, e2eDir } from '../playwright.config.ts';
import { loginAs, origin, waitForActiveServiceWorker } from './fixtures.ts';

/** The copy of the build this run's server serves (tests/start-server.ts), not dist/ itself. */
const clientDir = e2eClientDir;
const deployDir = path.join(e2eDir, 'deploy');

/**
 * Deploys a new version the way a release does: the served folder is replaced by one whose shell and service
 * worker differ (the worker's precache manifest names the new shell's revision, so browsers see an update).
 * Nothing else changes: the server reads the folder on every request. Returns the undo.
 */
function deployNextVersion(): () => void {
  rmSync(deployDir, { recursive: true, force: true });
  mkdirSync(deployDir, { recursive: true });
  const next = path.join(deployDir, 'next');
  cpSync(clientDir, next, { recursive: true });
  const write = (file: string, text: string) => {
    writeFileSync(path.join(next, file), text);
    writeFileSync(path.join(next, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(next, `${file}.gz`), gzipSync(text));
  };
  const shell = readFileSync(path.join(next, 'shell.html'), 'utf8').replace(
    '<head>',
    '<head>\n    <meta name="tutorbook-build" content="next" />',
  );
  write('shell.html', shell);
  const worker = readFileSync(path.join(next, 'sw.js'), 'utf8');
  const updated = worker.replace(
    /\{url:"shell\.html",revision:"[0-9a-f]+"\}/,
    `{url:"shell.html",revision:"${createHash('md5').update(shell).digest('hex')}"}`,
  );
  expect(updated, 'the worker names the shell it precaches').not.toBe(worker);
  write('sw.js', updated);
  const previous = path.join(deployDir, 'previous');
  renameSync(clientDir, previous);
  renameSync(next, clientDir);
  return () => {
    renameSync(clientDir, next);
    renameSync(previous, clientDir);
  };
}

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const askForm = (page: Page) => page.getByRole('form', { name: 'Ask a question' });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const waiting = (page: Page) => page.getByText('Waiting to send');
const updatePrompt = (page: Page) => page.getByRole('status').filter({ hasText: 'A new version is available.' });
/** Which build the page runs: the new one carries a marker in its shell. */
const build = (page: Page) =>
  page.evaluate(() => document.querySelector('meta[name="tutorbook-build"]')?.getAttribute('content') ?? 'first');

async function ask(page: Page, title: string) {
  await askForm(page).getByLabel('Title').fill(title);
  await askForm(page).getByLabel('Description').fill('Typed offline.');
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
  await expect(card(page, title).getByText('Waiting to send')).toBeVisible();
}

async function answer(page: Page, title: string, text: string) {
  await page.getByLabel(`Your answer to "${title}"`).fill(text);
  await card(page, title).getByRole('button', { name: 'Post answer' }).click();
  await expect(card(page, title).getByRole('listitem').filter({ hasText: text })).toContainText('Waiting to send');
}

/** Question and answer POSTs that reached the server (attempts made offline fail in the browser), by the id in the body. */
function countPosts(request: Request, posts: Map<string, number>) {
  const { pathname } = new URL(request.url());
  if (request.method() !== 'POST' || !/^\/api\/questions(\/[^/]+\/answers)?$/.test(pathname)) return;
  const { id } = request.postDataJSON() as { id: string };
  posts.set(id, (posts.get(id) ?? 0) + 1);
}

test('a new version is deployed while an old tab holds queued posts: each is sent once, a new tab takes the update, and reloading onto it loses nothing', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: origin });
  const posts = new Map<string, number>();
  context.on('requestfinished', (request) => countPosts(request, posts));
  const old = await context.newPage();
  await loginAs(old, 'student');
  await old.goto('/qa');
  await waitForActiveServiceWorker(old);
  await expect(old.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();

  await context.setOffline(true);
  const first = unique('Queued before the release');
  await ask(old, first);
  await answer(old, first, 'An answer queued before the release.');

  const undeploy = deployNextVersion();
  try {
    // Back online, the old tab (old code, old worker) sends what it queued.
    await context.setOffline(false);
    await expect(waiting(old)).toHaveCount(0);

    // A tab opened now starts on the version its worker holds; the browser finds the new one, and every tab offers it.
    const fresh = await context.newPage();
    await fresh.goto('/qa');
    await expect(card(fresh, first).getByRole('listitem')).toContainText('An answer queued before the release.');
    for (const tab of [old, fresh]) {
      await expect(updatePrompt(tab)).toBeVisible();
      expect(await build(tab)).toBe('first');
    }

    // Offline again, both tabs queue on the old code; then the update is accepted in the old tab, and every
    // tab reloads onto the new version (from the new worker's cache: still offline) with it all kept.
    await context.setOffline(true);
    const second = unique('Queued on the old code after the release');
    await ask(old, second);
    await answer(fresh, first, 'Queued in the new tab before it updated.');
    await updatePrompt(old).getByRole('button', { name: 'Reload' }).click();
    for (const tab of [old, fresh]) {
      await expect.poll(() => build(tab).catch(() => 'reloading')).toBe('next');
      await expect(card(tab, second).getByText('Waiting to send')).toBeVisible();
      await expect(
        card(tab, first).getByRole('listitem').filter({ hasText: 'Queued in the new tab before it updated.' }),
      ).toContainText('Waiting to send');
      await expect(updatePrompt(tab)).toHaveCount(0);
    }

    // The tabs may still be loading their engine as the connection returns, after the browser's 'online' event:
    // its word counts all the same (lib/connectivity.ts), and each sends at once, not at the next probe window.
    await context.setOffline(false);
    await expect(waiting(old)).toHaveCount(0);
    await expect(waiting(fresh)).toHaveCount(0);
    for (const title of [first, second]) {
      const found = (await (
        await old.request.get(`/api/questions?q=${encodeURIComponent(title)}`)
      ).json()) as QuestionPage;
      expect(found.questions).toHaveLength(1);
    }
    const [stored] = (
      (await (await old.request.get(`/api/questions?q=${encodeURIComponent(first)}`)).json()) as QuestionPage
    ).questions;
    expect(stored!.answers.map((a) => a.text).sort()).toEqual([
      'An answer queued before the release.',
      'Queued in the new tab before it updated.',
    ]);
    expect(posts.size).toBe(4);
    expect([...posts.values()]).toEqual([1, 1, 1, 1]);
  } finally {
    undeploy();
    await context.close();
  }
});
