import { expect, test, type Page } from '@playwright/test';
import { testimonialSeed } from '../src/common/testimonials-seed.ts';
import type { Testimonial } from '../src/common/testimonials.ts';
import { expectNoAxeViolations, loginAs, origin, viewports, waitForActiveServiceWorker } from './fixtures.ts';

/** The admin's testimonials section, opened by its address (a reload keeps it). */
async function openSection(page: Page) {
  await page.goto('/admin-dashboard#testimonials');
  const section = page.getByRole('region', { name: 'Testimonials' });
  await expect(section.getByRole('list', { name: 'Testimonials, in the order shown' })).toBeVisible();
  return section;
}

const row = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Testimonials' }).getByRole('article', { name: new RegExp(`^${name} · `) });

/** The run shares one server: what a journey changed goes back as it was (by the API, as the admin). */
async function restore(page: Page, name: string, fields: Partial<Testimonial>) {
  const all = (await (await page.request.get('/api/testimonials/all')).json()) as { testimonials: Testimonial[] };
  const target = all.testimonials.find((t) => t.name === name)!;
  const answer = await page.request.patch(`/api/testimonials/${target.id}`, { data: fields, headers: { origin } });
  expect(answer.status()).toBe(200);
}

test('the admin edits a quote and the public page shows it; a device that saw it once reads it offline', async ({
  page,
  browser,
}) => {
  const [first, second] = testimonialSeed;
  const edited = `Edited by the admin ${Date.now()}: the practicals make sense now.`;
  await loginAs(page, 'admin');
  try {
    await openSection(page);
    await row(page, first!.name).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: `Edit the testimonial of ${first!.name}` });
    await form.getByLabel('Quote').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.getByText('Enter what the student said.')).toBeVisible();
    await form.getByLabel('Quote').fill(edited);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Testimonial saved.')).toBeVisible();
    await expect(row(page, first!.name)).toContainText(edited);

    // A visitor's device: the page as built, then the admin's list from the server, kept in IndexedDB.
    const visitor = await browser.newContext({ baseURL: origin });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto('/testimonials');
    await expect(visitorPage.getByText(edited)).toBeVisible();
    await expect(visitorPage.getByText(first!.quote)).toHaveCount(0);
    await waitForActiveServiceWorker(visitorPage);

    // Hidden by the admin: the open page drops it (a live notice), the quote after it moves up.
    await row(page, second!.name).getByRole('button', { name: 'Hide' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Hide testimonial' });
    await expect(dialog).toContainText(`Hide the testimonial of ${second!.name}?`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, second!.name)).toContainText('Shown');
    await row(page, second!.name).getByRole('button', { name: 'Hide' }).click();
    await page.getByRole('alertdialog', { name: 'Hide testimonial' }).getByRole('button', { name: 'Hide' }).click();
    await expect(row(page, second!.name)).toContainText('Hidden');
    await expect(visitorPage.getByText(second!.quote)).toHaveCount(0);

    // Offline, a reload shows the device's copy: the edited quote and not the hidden one, which the page as
    // built (the service worker's copy) still holds.
    await visitor.setOffline(true);
    await visitorPage.reload();
    await expect(visitorPage.getByRole('heading', { level: 1, name: 'What students say' })).toBeVisible();
    await expect(visitorPage.getByText(edited)).toBeVisible();
    await expect(visitorPage.getByText(second!.quote)).toHaveCount(0);
    const built = await (await page.request.get('/testimonials')).text();
    expect(built).toContain(second!.quote.slice(0, 40));
    await visitor.close();
  } finally {
    await restore(page, first!.name, { quote: first!.quote });
    await restore(page, second!.name, { hidden: false });
  }
});

test('the admin adds a testimonial, moves it up and down, and the section works on a phone and a desktop', async ({
  page,
}) => {
  await loginAs(page, 'admin');
  const section = await openSection(page);
  const name = `Busisiwe Nkosi ${Date.now() % 100_000}`;
  await section.getByRole('button', { name: 'Add a testimonial' }).click();
  const form = page.getByRole('form', { name: 'Add a testimonial' });
  await form.getByRole('button', { name: 'Add testimonial' }).click();
  await expect(form.getByText('Enter the student’s name.')).toBeVisible();
  await expect(form.getByText('Enter the course or module, for example COMP102.')).toBeVisible();
  await form.getByLabel('Student’s name').fill(name);
  await form.getByLabel('Course').fill('MATHS130');
  await form.getByLabel('Quote').fill('Calm, clear and always on time.');
  await form.getByRole('button', { name: 'Add testimonial' }).click();
  await expect(page.getByText('Testimonial added.')).toBeVisible();
  const added = row(page, name);
  await expect(added.getByRole('button', { name: 'Move down' })).toBeDisabled();

  const names = () =>
    section
      .getByRole('article')
      .evaluateAll((cards) => cards.map((c) => c.querySelector('h3')!.textContent!.split(' · ')[0]));
  const count = (await names()).length;
  await added.getByRole('button', { name: 'Move up' }).click();
  await expect(page.getByText('Order saved.')).toBeVisible();
  await expect.poll(async () => (await names()).indexOf(name)).toBe(count - 2);
  await added.getByRole('button', { name: 'Move down' }).click();
  await expect.poll(async () => (await names()).indexOf(name)).toBe(count - 1);

  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await added.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/admin-testimonials-${size}.png` });
  }
  await row(page, testimonialSeed[0]!.name).getByRole('button', { name: 'Edit' }).click();
  await page.setViewportSize(viewports.phone);
  await page.screenshot({ path: 'test-results/screenshots/admin-testimonials-edit-phone.png', fullPage: false });
  await expectNoAxeViolations(page);

  // Hidden, so the public page is as it was for the journeys after this one.
  await added.getByRole('button', { name: 'Hide' }).click();
  await page.getByRole('alertdialog', { name: 'Hide testimonial' }).getByRole('button', { name: 'Hide' }).click();
  await expect(added).toContainText('Hidden');
});
