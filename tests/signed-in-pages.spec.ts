import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { layoutShifts, logIn, loginAs, origin, recordLayoutShifts, signUpAndVerify, viewports } from './fixtures.ts';

/**
 * The signed-in pages arrive rendered for the user (scripts/prerender.ts, server/http/static.ts): text on screen
 * before any script runs, hydrated without an error, and nothing moving as the data comes in.
 */
const pagesByRole = {
  student: [
    { path: '/offers', heading: 'Courses' },
    { path: '/qa', heading: 'Community Q&A' },
    { path: '/student-dashboard', heading: 'Welcome, Sipho Dlamini!' },
  ],
  tutor: [{ path: '/tutor-dashboard', heading: 'Tutor dashboard', text: 'Your subjects: Mathematics, Statistics.' }],
  admin: [{ path: '/admin-dashboard', heading: 'Admin dashboard' }],
} as const;

/** A fresh browser profile with only the session cookie: a first visit on this device, as Lighthouse measures. */
async function coldContext(browser: Browser, signedIn: BrowserContext, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL: origin, javaScriptEnabled });
  await context.addCookies(await signedIn.cookies());
  return context;
}

for (const [role, pages] of Object.entries(pagesByRole)) {
  test(`${role}: the pages arrive as HTML, hydrate without an error and do not move`, async ({ browser, page }) => {
    await loginAs(page, role as keyof typeof pagesByRole, ['Mathematics', 'Statistics']);
    const bare = await coldContext(browser, page.context(), false);
    const live = await coldContext(browser, page.context());
    await recordLayoutShifts(live);
    for (const { path, heading, ...more } of pages) {
      const html = await bare.newPage();
      await html.goto(path);
      await expect(html.locator('h1'), path).toHaveText(heading);
      if ('text' in more) await expect(html.getByText(more.text), path).toBeVisible();
      // Until hydrated, nothing takes input: a form would be sent natively, and what was typed could be reset.
      for (const control of await html.locator('main :is(input, textarea, select, button)').all())
        await expect(control, path).toBeDisabled();

      for (const viewport of Object.values(viewports)) {
        const opened = await live.newPage();
        await opened.setViewportSize(viewport);
        const errors: string[] = [];
        opened.on('pageerror', (error) => errors.push(error.message));
        opened.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        await opened.goto(path, { waitUntil: 'networkidle' });
        await expect(opened.locator('h1'), path).toHaveText(heading);
        // Hydrated: the signed-in links render only then (app/navbar.tsx).
        if (viewport === viewports.desktop)
          await expect(opened.getByRole('link', { name: 'Profile' }), path).toBeVisible();
        expect(errors, path).toEqual([]);
        expect(await layoutShifts(opened), `${path} at ${viewport.width} px`).toEqual([]);
        await opened.close();
      }
    }
    for (const context of [bare, live]) await context.close();
  });
}

test('a name holding `$` patterns shows as typed, and the app starts for its owner', async ({ browser, page }) => {
  // In a replacement string these are patterns: "$`" once spliced the page's head into the name (issue 19).
  const name = "Eve $` $' $& $1 end";
  const account = await signUpAndVerify(page.request, name);
  await logIn(page, account);
  const live = await coldContext(browser, page.context());
  const opened = await live.newPage();
  const errors: string[] = [];
  opened.on('pageerror', (error) => errors.push(error.message));
  await opened.goto('/student-dashboard', { waitUntil: 'networkidle' });
  await expect(opened.locator('h1')).toHaveText(`Welcome, ${name}!`);
  await expect(opened.getByRole('link', { name: 'Profile' })).toBeVisible();
  expect(errors).toEqual([]);
  await live.close();
});

test('a visitor, and a student on a staff page, get the empty shell, and the app decides', async ({
  browser,
  page,
}) => {
  const visitor = await browser.newContext({ baseURL: origin, javaScriptEnabled: false });
  const shell = await visitor.newPage();
  await shell.goto('/offers');
  await expect(shell.locator('#root')).toBeEmpty();
  await visitor.close();

  await loginAs(page, 'student');
  const sent = await page.request.get('/tutor-dashboard');
  expect(await sent.text()).toContain('<div id="root"></div>');
  expect(sent.headers().vary).toBe('accept-encoding, cookie');
  const student = await coldContext(browser, page.context());
  const opened = await student.newPage();
  await opened.goto('/tutor-dashboard');
  await expect(opened.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await student.close();
});

test("back from Google, the page says so once, and the address loses its '?google='", async ({ page }) => {
  // Google itself cannot be reached from here: its return address, with the session it left, is what matters.
  await loginAs(page, 'student');
  await page.goto('/offers?google=login');
  await expect(page.getByText('Logged in with Google!')).toBeVisible();
  await expect(page).toHaveURL(`${origin}/offers`);
  await page.goto('/student-dashboard?google=signup');
  await expect(page.getByText('Signed up with Google as Sipho Dlamini!')).toBeVisible();
  await expect(page).toHaveURL(`${origin}/student-dashboard`);
});
