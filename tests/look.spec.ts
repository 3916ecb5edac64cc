import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, fillTitleOnline, journeyTimeout, loginAs, viewports } from './fixtures.ts';

const schemes = ['light', 'dark'] as const;

/** Axe and a screenshot at phone and desktop size, in light and dark. */
async function lookEverywhere(
  page: Page,
  name: string,
  options: { fullPage?: boolean; each?: () => Promise<void> } = {},
) {
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await options.each?.();
      await expectNoAxeViolations(page);
      await page.screenshot({
        path: `test-results/screenshots/${name}-${size}-${scheme}.png`,
        fullPage: options.fullPage ?? true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Records whether a Sign Up button or Login link is ever in the page, from its very first render. */
async function watchForSignUpOrLogin(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { sawSignUpOrLogin: boolean };
    w.sawSignUpOrLogin = false;
    const check = () => {
      for (const el of document.querySelectorAll('main button, main a')) {
        if (/^(Sign Up|Login)$/.test(el.textContent?.trim() ?? '')) w.sawSignUpOrLogin = true;
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  });
}

test('home signed out: Sign Up and Login, a three-line headline on a phone, icons that keep their size', async ({
  page,
}) => {
  await page.setViewportSize(viewports.phone);
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Sign Up' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(main.getByRole('link', { name: /Courses|Dashboard|Community/ })).toHaveCount(0);

  // The headline fits three lines of a 360 px phone.
  const headline = page.getByRole('heading', { level: 1 });
  const lines = await headline.evaluate((h) =>
    Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)),
  );
  expect(lines).toBeLessThanOrEqual(3);

  // No icon collapses on a narrow phone (the contact block's WhatsApp icon did).
  const contact = page.getByRole('region', { name: 'Contact us' });
  for (const icon of await contact.locator('a svg').all()) expect((await icon.boundingBox())?.width).toBe(20);
  await expect(contact.getByRole('link', { name: /WhatsApp \+27/ })).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+$/);

  await lookEverywhere(page, 'look-home-signed-out');
});

test('on the public pages, body text is regular weight: only headings, labels and emphasis are bolder', async ({
  page,
}) => {
  for (const path of ['/', '/about', '/testimonials', '/privacy-policy']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    const bold = await page.getByRole('main').evaluate((main) => {
      const found = new Set<string>();
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement!;
        if (
          !node.textContent?.trim() ||
          el.closest('h1, h2, h3, h4, a, button, strong, dt, figcaption, [aria-hidden="true"], .sr-only')
        )
          continue;
        if (Number(getComputedStyle(el).fontWeight) >= 600) found.add(node.textContent.trim());
      }
      return [...found];
    });
    expect(bold, path).toEqual([]);
  }
});

test('home signed in: no Sign Up or Login, not even for a moment; Courses, Dashboard and Community instead', async ({
  page,
}) => {
  await watchForSignUpOrLogin(page);
  const account = await loginAs(page, 'student');
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: /Courses/ })).toHaveAttribute('href', '/offers');
  await expect(main.getByRole('link', { name: /Dashboard/ })).toHaveAttribute('href', '/student-dashboard');
  await expect(main.getByRole('link', { name: /Community/ })).toHaveAttribute('href', '/qa');
  await expect(main.getByText(`Welcome back, ${account.name}.`)).toBeVisible();
  await expect(main.getByRole('button', { name: 'Sign Up' })).toHaveCount(0);
  await expect(main.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);

  // A reload reads the session again: the visitor's buttons must not flash meanwhile.
  await page.evaluate(() => ((window as unknown as { sawSignUpOrLogin: boolean }).sawSignUpOrLogin = false));
  await page.reload();
  await expect(main.getByRole('link', { name: /Courses/ })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sawSignUpOrLogin: boolean }).sawSignUpOrLogin)).toBe(false);

  await main.getByRole('link', { name: /Dashboard/ }).click();
  await expect(page).toHaveURL(/\/student-dashboard$/);
  await page.goto('/');
  await lookEverywhere(page, 'look-home-signed-in');
});

test('/qa: a question in Markdown with a code block, a vote and an answer, in light and dark, phone and desktop', async ({
  page,
}) => {
  await loginAs(page, 'student');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Community' }).click();
  await expect(page).toHaveURL(/\/qa$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Community Q&A' })).toBeVisible();
  const title = `Why does my Java loop never end? ${Date.now()}`;
  await fillTitleOnline(main.getByRole('form', { name: 'Ask a question' }), title);
  await main
    .getByLabel('Description')
    .fill(
      'I wrote this:\n\n```java\nfor (int i = 0; i < 10; i--) {\n  System.out.println(i);\n}\n```\n\nIt prints `0, -1, -2` for ever. What is wrong?',
    );
  await main.getByRole('button', { name: 'Post question' }).click();
  const card = main.getByRole('article', { name: title });
  await expect(card.getByText('Waiting to send')).toHaveCount(0);
  await card.getByRole('button', { name: /^Upvote/ }).click();
  await expect(card.getByRole('button', { name: /^Upvote/ })).toHaveAttribute('aria-pressed', 'true');
  await card.getByLabel(`Your answer to "${title}"`).fill('Same here, following. Is it the `i--`?');
  await card.getByRole('button', { name: 'Post answer' }).click();
  // Posted: the field empties (its preview with it) and the answer is listed.
  await expect(card.getByLabel(`Your answer to "${title}"`)).toHaveValue('');
  await expect(card.getByRole('region', { name: `Answers to "${title}"` }).getByText('Is it the')).toBeVisible();
  await expect(card.locator('pre code')).toContainText('i--');
  await lookEverywhere(page, 'look-qa');
});

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string) {
  const luminance = (rgb: string) => {
    const [r, g, bl] = rgb
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * Text and background colour of each toast type, read from sonner's variables inside the toaster (the app
 * raises no info toast yet, so its colours are checked this way, alongside the others).
 */
const toastColours = (page: Page) =>
  page.locator('[data-sonner-toaster]').evaluate((toaster) => {
    // Any CSS colour as rgb(…), drawn on a canvas.
    const rgb = (colour: string) => {
      const context = document.createElement('canvas').getContext('2d')!;
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return `rgb(${[...context.getImageData(0, 0, 1, 1).data].slice(0, 3).join(', ')})`;
    };
    return Object.fromEntries(
      ['normal', 'success', 'info', 'error'].map((type) => {
        const probe = document.createElement('span');
        probe.style.color = `var(--${type}-text)`;
        probe.style.backgroundColor = `var(--${type}-bg)`;
        toaster.append(probe);
        const style = getComputedStyle(probe);
        const colours = [rgb(style.color), rgb(style.backgroundColor)] as const;
        probe.remove();
        return [type, colours];
      }),
    );
  });

const enrolments = [
  'Introduction To Calculus',
  'Introduction to Statistics',
  'FET Mathematics',
  'FET Physical Science',
];

test('toasts: under the navbar on a phone, bottom-right on a desktop, never over the navbar; one toast for the same alert twice; AA contrast in light and dark', async ({
  page,
  context,
}) => {
  test.setTimeout(journeyTimeout(180_000));
  // This device was told it works offline already: that toast, coming whenever the worker is done, would stack
  // above the ones measured here.
  await page.addInitScript(() => localStorage.setItem('offlineReadyTold', new Date().toISOString()));
  await loginAs(page, 'student');
  const offline = 'You are offline. Connect to the internet to change your enrolments or account.';
  let round = 0;
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await page.goto('/profile');
      // A success toast: enrol.
      const module = enrolments[round++]!;
      await page.getByLabel('Enroll in a module').selectOption({ label: module });
      await page.getByRole('button', { name: 'Enroll' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Enroll' }).click();
      const success = page.locator('[data-sonner-toast][data-type="success"]', {
        hasText: `Enrolled in "${module}" successfully.`,
      });
      await expect(success).toBeVisible();
      // An error toast, raised twice: shown once.
      await context.setOffline(true);
      // (a link today; a button in the profile page's next version)
      const download = page
        .getByRole('link', { name: 'Download my data' })
        .or(page.getByRole('button', { name: 'Download my data' }));
      await download.click();
      await download.click();
      const error = page.locator('[data-sonner-toast][data-type="error"]', { hasText: offline });
      await expect(error).toBeVisible();
      await expect(page.locator('[data-sonner-toast]', { hasText: offline })).toHaveCount(1);
      await context.setOffline(false);
      await error.hover(); // expands the stack and holds it, as a reader would
      await page.waitForTimeout(500); // the slide-in ends

      const navbar = (await page.getByRole('banner').boundingBox())!;
      for (const toast of [success, error]) {
        const box = (await toast.boundingBox())!;
        expect(box.y, `${size} ${scheme}: below the navbar`).toBeGreaterThanOrEqual(navbar.y + navbar.height);
        if (size === 'phone') {
          // At the top: at the bottom they lay over the buttons a thumb reaches for next.
          expect(box.y, `${size} ${scheme}: at the top`).toBeLessThan(navbar.y + navbar.height + 200);
          expect(Math.abs(box.x + box.width / 2 - viewport.width / 2), 'centred').toBeLessThanOrEqual(1);
        } else {
          expect(box.y + box.height, `${size} ${scheme}: at the bottom`).toBeGreaterThan(viewport.height - 200);
          expect(box.x, 'on the right').toBeGreaterThan(viewport.width / 2);
          expect(viewport.width - (box.x + box.width), 'near the right edge').toBeLessThanOrEqual(48);
        }
      }

      await expect(page.locator('[data-sonner-toaster]')).toHaveAttribute('data-sonner-theme', scheme);
      const colours = await toastColours(page);
      for (const [type, [text, background]] of Object.entries(colours)) {
        expect(contrast(text, background), `${type} toast, ${scheme}`).toBeGreaterThanOrEqual(4.5);
      }
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `test-results/screenshots/look-toasts-${size}-${scheme}.png` });
    }
  }
});

test('the confirmation dialog has a visible edge in dark mode', async ({ page }) => {
  await loginAs(page, 'student');
  await page.goto('/profile');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  const { width, border, background } = await dialog.evaluate((el) => {
    // Tailwind's colours are oklch: draw them on a canvas to read them as rgb(…).
    const rgb = (colour: string) => {
      const context = document.createElement('canvas').getContext('2d')!;
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return `rgb(${[...context.getImageData(0, 0, 1, 1).data].slice(0, 3).join(', ')})`;
    };
    const style = getComputedStyle(el);
    return {
      width: parseFloat(style.borderTopWidth),
      border: rgb(style.borderTopColor),
      background: rgb(style.backgroundColor),
    };
  });
  expect(width).toBeGreaterThanOrEqual(1);
  expect(contrast(border, background)).toBeGreaterThanOrEqual(1.5);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/look-dialog-${size}-dark.png` });
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
