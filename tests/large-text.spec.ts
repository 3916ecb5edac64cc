import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, loginAs, viewports } from './fixtures.ts';

/**
 * Text at 200 %, as a reader who needs it sets it: the root font size doubled, which every rem of the app's CSS
 * follows (Tailwind's sizes are rems), as the browser's text-size setting does. Set again on each page opened.
 */
const largeText = (page: Page) =>
  page.addInitScript(() => {
    const style = () => {
      const tag = document.createElement('style');
      tag.textContent = 'html { font-size: 200% !important }';
      document.head.append(tag);
    };
    if (document.head) style();
    else document.addEventListener('DOMContentLoaded', style);
  });

/** The sticky navbar's share of the screen's height. */
const headerShare = async (page: Page) => {
  const box = (await page.getByRole('banner').boundingBox())!;
  return box.height / page.viewportSize()!.height;
};

const phone = viewports.phone; // 360 × 740

test('at 200 % text the phone navbar keeps to a seventh of the screen, signed out and signed in, offline too', async ({
  page,
  context,
}) => {
  await page.setViewportSize(phone);
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'TutorBook' })).toBeVisible();
  const normal = await headerShare(page);
  expect(normal, 'at the usual size').toBeLessThanOrEqual(0.09);

  await largeText(page);
  await page.reload();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');
  const shares: Record<string, number> = { 'signed out, 100 %': normal };
  shares['signed out, 200 %'] = await headerShare(page);
  await expect(page.getByRole('banner').getByRole('link', { name: 'TutorBook' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/large-text-home-phone.png' });

  await loginAs(page, 'student');
  shares['signed in, 200 %'] = await headerShare(page);
  // The navbar's fullest state on a phone: the word on the connection beside the logo and the menu.
  await context.setOffline(true);
  const indicator = page.getByRole('banner').getByRole('status');
  await expect(indicator).toContainText('Offline');
  shares['signed in offline, 200 %'] = await headerShare(page);
  console.log('navbar height ÷ screen height at 360 × 740:', shares);
  for (const [state, share] of Object.entries(shares)) expect(share, state).toBeLessThanOrEqual(0.15);
  // Nothing of it sticks out sideways: the menu button, its last control, ends inside the screen.
  const menuButton = (await page.getByRole('button', { name: 'Open menu' }).boundingBox())!;
  expect(menuButton.x + menuButton.width).toBeLessThanOrEqual(phone.width);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/large-text-offers-offline-${size}.png` });
  }

  // The phone menu still opens with every link, in words.
  await page.setViewportSize(phone);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#main-menu');
  for (const name of ['Community', 'Courses', 'Dashboard', 'Profile'])
    await expect(menu.getByRole('link', { name })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/large-text-menu-phone.png' });
  await context.setOffline(false);
});

test('at 200 % text no public page of a 360-px phone scrolls sideways: long words break, columns shrink', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await largeText(page);
  // The home page, the visitor's redirect from /offers (with its notice), and the pages a visitor reads.
  for (const path of ['/', '/offers', '/about', '/testimonials', '/privacy-policy', '/qa', '/login', '/signup']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: document.documentElement.clientWidth,
    }));
    expect(widths.page, `${path}: the page's width against the screen's`).toBeLessThanOrEqual(widths.screen);
    await page.screenshot({ path: `test-results/screenshots/large-text-${path.slice(1) || 'home'}-phone.png` });
  }
});
