import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { photoLimits, type Question, type QuestionPage } from '../src/common/qa.ts';
import { expectNoAxeViolations, loginAs, origin, viewports, waitForActiveServiceWorker } from './fixtures.ts';

/**
 * Photos of working (issue 39 §2): a student on a phone picks a camera-sized photo, the device makes it small,
 * the question waits offline with its thumbnail, arrives once when the connection returns, and a visitor with
 * scripts off sees the thumbnail and opens the photo full size.
 */
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * A photo as a phone camera makes one: 4,000 × 3,000 pixels of lined paper with writing and a little sensor
 * noise, as a JPEG at quality 0.92 (a few MB), drawn in the page by its canvas.
 */
async function cameraPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(4000, 3000);
    const c = canvas.getContext('2d')!;
    c.fillStyle = '#f4f1e8';
    c.fillRect(0, 0, 4000, 3000);
    c.strokeStyle = '#9db4d6';
    c.lineWidth = 4;
    for (let y = 200; y < 3000; y += 120) {
      c.beginPath();
      c.moveTo(0, y);
      c.lineTo(4000, y);
      c.stroke();
    }
    c.fillStyle = '#1f2a6b';
    c.font = 'italic 90px serif';
    const lines = ['∫ x·e^x dx = x·e^x − ∫ e^x dx', '= x·e^x − e^x + C', 'check: d/dx (x e^x − e^x) = x e^x ✓'];
    lines.forEach((line, i) => c.fillText(line, 300, 420 + i * 360));
    const noise = c.getImageData(0, 0, 4000, 3000);
    let seed = 7;
    for (let i = 0; i < noise.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = (seed % 25) - 12;
      for (let k = i; k < i + 3; k++) noise.data[k] = noise.data[k]! + n;
    }
    c.putImageData(noise, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

/** The sizes of the photos queued in the page's outbox, full and thumbnail. */
const queuedPhotoSizes = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ full: number; thumb: number }[]>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as { payload: { photos?: { full: Blob; thumb: Blob }[] } }[]).flatMap((row) =>
                (row.payload.photos ?? []).map((p) => ({ full: p.full.size, thumb: p.thumb.size })),
              ),
            );
        };
      }),
  );

const outboxCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );

/** The natural size of the image `selector` names, once it has loaded (0 × 0 when it could not). */
const naturalSize = (page: Page, selector: string) =>
  page.locator(selector).evaluate(async (img: HTMLImageElement) => {
    await img.decode().catch(() => undefined);
    return { width: img.naturalWidth, height: img.naturalHeight };
  });

test('a photo picked on a phone is made small, waits offline with its post, arrives once, and opens full size', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: origin, viewport: viewports.phone });
  const page = await context.newPage();
  await loginAs(page, 'student');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();
  const photo = await cameraPhoto(page);
  expect(photo.length).toBeGreaterThan(1_500_000);

  await context.setOffline(true);
  const title = unique('Where does my integration by parts go wrong');
  const form = page.getByRole('form', { name: 'Ask a question' });
  await form.getByLabel('Title').fill(title);
  // Issue 39's done-means: a formula, a Java snippet and a photo, posted offline.
  await form
    .getByLabel('Description')
    .fill(
      'My working is in the photo: is $\\int x e^x \\, dx = (x - 1) e^x + C$? I checked it in Java:\n\n' +
        '```java\ndouble f(double x) { return (x - 1) * Math.exp(x); }\n```',
    );
  await form.getByLabel('Add photos of your working').setInputFiles({
    name: 'IMG_20261204_101500.jpg',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await expect(form.getByRole('img', { name: 'Photo 1 to post' })).toBeVisible({ timeout: 20_000 });
  await form.getByRole('button', { name: 'Remove photo 1' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/qa-photo-picked-phone.png' });
  await form.getByRole('button', { name: 'Post question' }).click();

  const question = page.getByRole('article', { name: title });
  await expect(question.getByText('Waiting to send')).toBeVisible();
  await expect(question.getByRole('img', { name: 'Photo 1 of 1 of the question' })).toBeVisible();
  const [queued] = await queuedPhotoSizes(page);
  expect(queued!.full).toBeLessThanOrEqual(photoLimits.targetBytes);
  expect(queued!.thumb).toBeLessThanOrEqual(photoLimits.thumbMaxBytes);
  console.log(`photo: ${photo.length} bytes from the camera, ${queued!.full} queued, thumbnail ${queued!.thumb}`);
  await question.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/qa-photo-waiting-phone.png' });

  // A reload offline keeps it, photo and all.
  await page.reload();
  await expect(question.getByText('Waiting to send')).toBeVisible();
  expect(await queuedPhotoSizes(page)).toEqual([queued]);

  await context.setOffline(false);
  await expect(question.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => outboxCount(page), { message: 'the outbox empties' }).toBe(0);

  // Once, with its one photo, as the device made it.
  const found = (await (
    await page.request.get(`/api/questions?q=${encodeURIComponent(title)}`)
  ).json()) as QuestionPage;
  expect(found.questions).toHaveLength(1);
  const stored: Question = found.questions[0]!;
  expect(stored.photos).toHaveLength(1);
  const full = await page.request.get(`/api/photos/${stored.photos![0]}`);
  expect(full.headers()['content-type']).toBe('image/jpeg');
  expect((await full.body()).length).toBe(queued!.full);
  // To look at: is the working still readable?
  writeFileSync('test-results/screenshots/qa-photo-as-stored.jpg', await full.body());

  // The thumbnail is the server's now, and opens the photo full size.
  const thumbnail = question.getByRole('img', { name: 'Photo 1 of 1 of the question, opens full size' });
  await expect(thumbnail).toBeVisible();
  expect((await naturalSize(page, `article[id="q-${stored.id}"] img[src$="/thumb"]`)).width).toBe(
    photoLimits.thumbEdge,
  );
  const [opened] = await Promise.all([page.waitForEvent('popup'), thumbnail.click()]);
  await opened.waitForLoadState();
  expect(opened.url()).toBe(`${origin}/api/photos/${stored.photos![0]}`);
  expect(await naturalSize(opened, 'img')).toEqual({ width: photoLimits.maxEdge, height: 1200 });
  await opened.close();

  // Its own page, at both sizes, with nothing axe objects to.
  await page.goto(`/qa/${stored.id}`);
  await expect(page.getByRole('img', { name: 'Photo 1 of 1 of the question, opens full size' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/qa-photo-phone.png', fullPage: true });
  await page.setViewportSize(viewports.desktop);
  // An answer with a photo, online this time: sent at once, shown with the server's thumbnail.
  await page
    .getByLabel(`Add photos to the answer to "${title}"`)
    .setInputFiles({ name: 'working.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('img', { name: 'Photo 1 to post' })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(`Your answer to "${title}"`).fill('The sign flips in the second step: see my photo.');
  await page.getByRole('button', { name: 'Post answer' }).click();
  const answers = page.getByRole('region', { name: `Answers to "${title}"` });
  await expect(answers.getByRole('img', { name: /^Photo 1 of 1 of the answer by .*, opens full size$/ })).toBeVisible();
  await expect.poll(() => outboxCount(page), { message: 'the answer is sent' }).toBe(0);
  await expectNoAxeViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/screenshots/qa-photo-desktop.png', fullPage: true });
  await context.close();

  // A visitor with scripts off: the page the server rendered shows the thumbnail, which links to the photo.
  const visitor = await browser.newContext({ baseURL: origin, javaScriptEnabled: false, viewport: viewports.phone });
  const reader = await visitor.newPage();
  await reader.goto(`/qa/${stored.id}`);
  // It reads right: the formula laid out, the Java highlighted, as the server rendered them.
  await expect(reader.locator('.katex').first()).toBeVisible();
  await expect(reader.locator('.katex-mathml annotation').first()).toHaveText('\\int x e^x \\, dx = (x - 1) e^x + C');
  await expect(reader.locator('code.language-java .hljs-type').first()).toHaveText('double');
  await expect(reader.locator('code.language-java .hljs-keyword').first()).toHaveText('return');
  const link = reader.getByRole('link', { name: 'Photo 1 of 1 of the question, opens full size' });
  await expect(link).toHaveAttribute('href', `/api/photos/${stored.photos![0]}`);
  expect((await naturalSize(reader, `img[src="/api/photos/${stored.photos![0]}/thumb"]`)).width).toBe(
    photoLimits.thumbEdge,
  );
  await reader.screenshot({ path: 'test-results/screenshots/qa-photo-no-script-phone.png', fullPage: true });
  const [fullSize] = await Promise.all([reader.waitForEvent('popup'), link.click()]);
  await fullSize.waitForLoadState();
  expect(fullSize.url()).toBe(`${origin}/api/photos/${stored.photos![0]}`);
  expect((await naturalSize(fullSize, 'img')).width).toBe(photoLimits.maxEdge);
  await visitor.close();
});

test('a photo the device cannot read is refused on the form, and the post keeps what was typed', async ({ page }) => {
  await loginAs(page, 'student');
  await page.goto('/qa');
  const form = page.getByRole('form', { name: 'Ask a question' });
  await form.getByLabel('Title').fill('A title I keep');
  await form.getByLabel('Add photos of your working').setInputFiles({
    name: 'notes.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('These are my notes, not a photo.'),
  });
  await expect(form.getByRole('alert')).toContainText('cannot be read as a photo');
  await expect(form.getByLabel('Title')).toHaveValue('A title I keep');
  await expect(form.getByRole('img')).toHaveCount(0);
});
