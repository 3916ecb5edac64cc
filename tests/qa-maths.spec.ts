import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Question } from '../src/common/qa.ts';
import { expectNoAxeViolations, fillTitleOnline, loginAs, origin, viewports } from './fixtures.ts';

/**
 * Maths and code on the board (issue 39 §1, docs/decisions/0060): rendered by the server into the HTML, so a
 * visitor with scripts off reads a formula and highlighted Java; the ask and answer forms preview a post with the
 * same pipeline, loaded lazily, at a phone's width and a desktop's; whatever is written stays inert.
 */

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const mathsAndJava =
  'The sum runs to $n-1$:\n\n$$\n\\sum_{i=0}^{n-1} a_i = \\frac{n(n-1)}{2}\n$$\n\n' +
  '```java\nfor (int i = 0; i < n; i++) { total += a[i]; } // not i <= n\n```\n\nBut is $\\frac{1}{$ right?';

async function post(page: Page, url: string, data: unknown) {
  const response = await page.request.post(url, { data, headers: { origin } });
  expect(response.status(), url).toBe(201);
  return response.json() as Promise<unknown>;
}

async function asked(browser: Browser, title: string, text: string) {
  const context = await browser.newContext({ baseURL: origin });
  const student = await context.newPage();
  await loginAs(student, 'student');
  const question = (await post(student, '/api/questions', { id: crypto.randomUUID(), title, text })) as Question;
  await context.close();
  return question;
}

/**
 * Layout shifts, as tests/fixtures.ts records them, told apart by where they happen. KaTeX's fonts are the one web
 * font the board loads (DESIGN: the system's fonts otherwise): preloaded in the head, they are fetched with its style
 * sheet, but a formula laid out before they arrive is laid out again once they do, moving the words after it by a
 * pixel or less. Such a shift inside a post is tolerated up to 0.01 in all (Web Vitals call a page's 0.1 good);
 * anything else that moves fails.
 */
const recordShifts = (context: BrowserContext) =>
  context.addInitScript(() => {
    const shifts: { value: number; inPost: boolean; what: string }[] = [];
    Object.assign(window, { shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const elements = entry.sources.map((s) => (s.node instanceof Element ? s.node : s.node?.parentElement));
        shifts.push({
          value: entry.value,
          inPost: elements.every((e) => e?.closest('.post-text')),
          what: elements.map((e) => `${e?.localName}.${e?.className}`).join('; '),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
const shiftsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { shifts: { value: number; inPost: boolean; what: string }[] }).shifts);

/** Console errors and uncaught errors (a failed hydration is one: React #418). */
function recordErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

test('a visitor with scripts off reads a formula and highlighted Java, and bad maths as typed', async ({ browser }) => {
  const title = unique('Why is my loop sum off by one');
  const question = await asked(browser, title, mathsAndJava);
  const bare = await browser.newContext({ baseURL: origin, javaScriptEnabled: false });
  const page = await bare.newPage();
  const sheets: number[] = [];
  page.on('response', (response) => response.url().includes('/assets/katex.min-') && sheets.push(response.status()));

  for (const [path, size] of [
    ['/qa', 'phone'],
    [`/qa/${question.id}`, 'desktop'],
  ] as const) {
    await page.setViewportSize(viewports[size]);
    await page.goto(path);
    const post = page.getByRole('article', { name: title }).locator('.post-text').first();
    // The formula, typeset by KaTeX's style sheet: its MathML for screen readers is clipped out of sight, and
    // its HTML shows the fraction.
    const display = post.locator('.katex-display');
    await expect(display).toBeVisible();
    await expect(display.locator('.mfrac')).toBeVisible();
    await expect(display.locator('annotation')).toHaveText('\\sum_{i=0}^{n-1} a_i = \\frac{n(n-1)}{2}');
    expect(await display.locator('.katex-mathml').evaluate((e) => getComputedStyle(e).position)).toBe('absolute');
    expect(await display.locator('.katex-html').boundingBox()).toMatchObject({ height: expect.any(Number) });
    // The Java, its keywords in the theme's colour.
    const keyword = post.locator('pre code.language-java .hljs-keyword').first();
    await expect(keyword).toHaveText('for');
    expect(await keyword.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(249, 168, 212)');
    // Maths KaTeX cannot read: as typed, quietly marked, the page still whole.
    const bad = post.locator('.math-error');
    await expect(bad).toHaveText('$\\frac{1}{$');
    await expect(bad).toHaveAttribute('title', /^Not shown as maths: KaTeX parse error/);
    expect(await bad.evaluate((e) => getComputedStyle(e).textDecorationStyle)).toBe('dotted');
    await page
      .getByRole('article', { name: title })
      .screenshot({ path: `test-results/screenshots/qa-maths-scripts-off-${size}.png` });
  }
  // KaTeX's style sheet, linked from the head, was served from the build.
  expect(sheets.length).toBeGreaterThan(0);
  expect(sheets.every((status) => status === 200 || status === 304)).toBe(true);
  await bare.close();
});

test('the board with maths hydrates without an error or a shift but a formula’s, and passes axe at both widths', async ({
  browser,
}) => {
  const title = unique('A formula and a snippet');
  const question = await asked(browser, title, mathsAndJava);
  const visitor = await browser.newContext({ baseURL: origin });
  await recordShifts(visitor);
  for (const path of ['/qa', `/qa/${question.id}`])
    for (const [size, viewport] of Object.entries(viewports)) {
      const page = await visitor.newPage();
      await page.setViewportSize(viewport);
      const errors = recordErrors(page);
      await page.goto(path, { waitUntil: 'networkidle' });
      await expect(page.locator('main textarea').first()).toBeEnabled();
      await expect(page.getByRole('article', { name: title }).locator('.katex').first()).toBeVisible();
      expect(errors, `${path} at ${size}`).toEqual([]);
      const shifts = await shiftsOf(page);
      expect(
        shifts.filter((shift) => !shift.inPost),
        `${path} at ${size}`,
      ).toEqual([]);
      expect(
        shifts.reduce((sum, shift) => sum + shift.value, 0),
        `${path} at ${size}`,
      ).toBeLessThan(0.01);
      await expectNoAxeViolations(page);
      await page.close();
    }
  await visitor.close();
});

test('the ask form previews maths and code beside the description, as the server will render them', async ({
  browser,
}) => {
  for (const [size, viewport] of Object.entries(viewports)) {
    const context = await browser.newContext({ baseURL: origin, viewport });
    const page = await context.newPage();
    await loginAs(page, 'student');
    await page.goto('/qa');
    const form = page.getByRole('form', { name: 'Ask a question' });
    const preview = form.getByRole('region', { name: 'Preview of your question' });
    await expect(preview).toContainText('Your description appears here');
    const title = unique('Preview of a sum');
    await fillTitleOnline(form, title);
    await form.getByLabel('Description').fill(mathsAndJava);
    await expect(preview.locator('.katex-display .mfrac')).toBeVisible();
    await expect(preview.locator('.hljs-keyword').first()).toHaveText('for');
    await expect(preview.locator('.math-error')).toHaveText('$\\frac{1}{$');

    // Beside the field on a desktop, under it on a phone.
    const field = (await form.getByLabel('Description').boundingBox())!;
    const box = (await preview.boundingBox())!;
    if (size === 'desktop') expect(box.x).toBeGreaterThan(field.x + field.width);
    else expect(box.y).toBeGreaterThan(field.y + field.height);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await expectNoAxeViolations(page);
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/qa-ask-preview-${size}.png` });

    // Posted, the server renders it as the preview did: the same pipeline on both sides.
    const previewed = await preview.locator('.post-text').innerHTML();
    await form.getByRole('button', { name: 'Post question' }).click();
    const card = page.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    const stored = await page.evaluate(async (t) => {
      const response = await fetch(`/api/questions?q=${encodeURIComponent(t)}`);
      return ((await response.json()) as { questions: Question[] }).questions[0]!.html;
    }, title);
    const fromServer = await page.evaluate((html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      return div.innerHTML;
    }, stored);
    expect(fromServer).toBe(previewed);
    await expect(card.locator('.post-text').first()).toHaveJSProperty('innerHTML', fromServer);
    await context.close();
  }
});

test('the answer form previews under the field once there is text, at a phone’s width and a desktop’s', async ({
  browser,
}) => {
  const title = unique('How do I read a p-value');
  const question = await asked(browser, title, 'Is $p < 0.05$ enough?');
  for (const [size, viewport] of Object.entries(viewports)) {
    const context = await browser.newContext({ baseURL: origin, viewport });
    const page = await context.newPage();
    await loginAs(page, 'tutor', ['Statistics']);
    await page.goto(`/qa/${question.id}`);
    const label = `Preview of the answer to "${title}"`;
    await expect(page.getByRole('region', { name: label })).toHaveCount(0);
    await page
      .getByLabel(`Your answer to "${title}"`)
      .fill('Compare it with $\\alpha$:\n\n```r\np <- t.test(x)$p.value\nif (p < 0.05) print("reject")\n```');
    const preview = page.getByRole('region', { name: label });
    await expect(preview.locator('.katex')).toBeVisible();
    await expect(preview.locator('code.language-r .hljs-string')).toHaveText('"reject"');
    const box = (await preview.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await expectNoAxeViolations(page);
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/qa-answer-preview-${size}.png` });
    await context.close();
  }
});

test('a post that tries script, javascript: links or maths that links stays inert in the preview and once posted', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await loginAs(page, 'student');
  await page.goto('/qa');
  const form = page.getByRole('form', { name: 'Ask a question' });
  const title = unique('Inert');
  const attack =
    '<script>alert("script")</script>\n\nHi <img src=x onerror="alert(\'img\')"> [click](javascript:alert("link")) ' +
    '$\\href{javascript:alert("href")}{maths}$ $\\htmlId{x}{y}$ <a href="javascript:alert(1)">a</a>';
  await fillTitleOnline(form, title);
  await form.getByLabel('Description').fill(attack);
  const preview = form.getByRole('region', { name: 'Preview of your question' });
  await expect(preview.locator('.math-error').first()).toHaveText('$\\href{javascript:alert("href")}{maths}$');
  for (const where of [preview, page.getByRole('article', { name: title })]) {
    if (where !== preview) {
      await form.getByRole('button', { name: 'Post question' }).click();
      await expect(where).toBeVisible();
      await page.reload();
      await expect(where.locator('.math-error').first()).toBeVisible();
    }
    await expect(where.locator('script, img, [onerror], a[href^="javascript" i], #x')).toHaveCount(0);
    await expect(where).toContainText('<script>alert("script")</script>');
    // The javascript: link is its text alone: nothing to follow.
    await expect(where.getByRole('link', { name: 'click' })).toHaveCount(0);
    await where.locator('.post-text').first().click();
  }
  expect(dialogs).toEqual([]);
  await context.close();
});
