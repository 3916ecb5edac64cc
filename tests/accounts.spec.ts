import { expect, test } from '@playwright/test';
import {
  expectNoAxeViolations,
  linkFromEmail,
  origin,
  password,
  signUpAndVerify,
  submitLogin,
  uniqueEmail,
  viewports,
} from './fixtures.ts';

test('a visitor signs up from the home page, verifies with the e-mailed link and logs in', async ({ page }) => {
  const email = uniqueEmail('nomsa');
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).first().click();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel('Name').fill('Nomsa Khumalo');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(
    page.getByText('Welcome, Nomsa Khumalo! Please check your email inbox or spam folder to verify your account.'),
  ).toBeVisible();
  // A "check your inbox" screen with the address, and a way to have the link sent again once a minute is up.
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('button', { name: /Send it again/ })).toBeDisabled();

  await page.goto(await linkFromEmail(email, /Verify/));
  await expect(page).toHaveURL(/\/login\?verify=/);
  await expect(page.getByText('Log in with the password you chose to confirm your e-mail address.')).toBeVisible();

  await submitLogin(page, { email, password });
  await expect(page).toHaveURL(/\/offers$/);
  await expect(page.getByText('Your e-mail address is confirmed. Welcome!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Community' })).toBeVisible();
  await linkFromEmail(email, /Welcome/);
});

test('login before verifying is refused with the spec message and goes to /home', async ({ page }) => {
  const email = uniqueEmail('unverified');
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Zanele', email, password },
    headers: { origin },
  });
  expect(res.status()).toBe(200);
  await page.goto('/login');
  await submitLogin(page, { email, password });
  await expect(
    page.getByText('Please verify your email before logging in. Check your inbox or spam folder.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('the unverified-login toast, phone and desktop: the message on wide lines, its action under it, its close button inside', async ({
  page,
}) => {
  const email = uniqueEmail('unverified');
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Zanele', email, password },
    headers: { origin },
  });
  expect(res.status()).toBe(200);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.goto('/login');
    await submitLogin(page, { email, password });
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Please verify your email' });
    await expect(toast).toBeVisible();
    await toast.hover(); // holds it, as a reader would
    await page.waitForTimeout(500); // the slide-in ends
    const box = (await toast.boundingBox())!;
    const message = (await toast.locator('[data-title]').boundingBox())!;
    const action = (await toast.getByRole('button', { name: 'Send the link again' }).boundingBox())!;
    const close = (await toast.getByRole('button', { name: 'Close toast' }).boundingBox())!;
    // Beside the action on a phone, the message took five narrow lines.
    const lineHeight = await toast
      .locator('[data-title]')
      .evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(Math.round(message.height / lineHeight), `${size}: lines of the message`).toBeLessThanOrEqual(3);
    expect(action.y, `${size}: the action under the message`).toBeGreaterThanOrEqual(message.y + message.height);
    expect(action.height, `${size}: a 44 px touch target`).toBeGreaterThanOrEqual(44);
    // The close button inside the toast, not hanging off its corner.
    expect(close.x).toBeGreaterThanOrEqual(box.x);
    expect(close.y).toBeGreaterThanOrEqual(box.y);
    expect(close.x + close.width).toBeLessThanOrEqual(box.x + box.width);
    expect(close.x, `${size}: at the right`).toBeGreaterThan(message.x + message.width - 1);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/toast-unverified-${size}.png` });
    await toast.getByRole('button', { name: 'Close toast' }).click();
    await expect(toast).toHaveCount(0);
  }
});

test('a wrong password shows the spec message and keeps what was typed', async ({ page }) => {
  const account = await signUpAndVerify(page.request);
  await page.goto('/login');
  await submitLogin(page, { email: account.email, password: 'not the password' });
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password. Please try again.');
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
});

test('sign-up errors appear next to the field and keep the form filled in', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).first().click();
  await page.getByLabel('Name').fill('Short Password');
  await page.getByLabel('Email').fill(uniqueEmail('short'));
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Short Password');
});

test('forgot password: the e-mailed link sets a new password that works', async ({ page }) => {
  const account = await signUpAndVerify(page.request, 'Pieter van Wyk');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/change-password$/);

  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Please enter your email address.')).toBeVisible();
  // An unknown address gets the answer a known one gets: nobody learns who has an account here.
  await page.getByLabel('Email').fill('nobody-here@example.com');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset email sent! Check your inbox.')).toBeVisible();
  await expect(page.getByText('No user found with that email address.')).toHaveCount(0);
  await expectNoAxeViolations(page);
  // A new try replaces what the last one said: an invalid address shows its error alone, not beside "sent".
  await page.getByLabel('Email').fill('not-an-address');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Invalid email address. Please enter a valid email.')).toBeVisible();
  await expect(page.getByText('Password reset email sent! Check your inbox.')).toHaveCount(0);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/screenshots/forgot-password-invalid-after-sent-${size}.png` });
  }

  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset email sent! Check your inbox.')).toBeVisible();

  await page.goto(await linkFromEmail(account.email, /Reset/));
  await expect(page).toHaveURL(/\/change-password\?token=/);
  await page.getByLabel('New password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await submitLogin(page, { email: account.email, password: 'a brand new passphrase' });
  await expect(page).toHaveURL(/\/offers$/);
});

test('/signup without the visited-home flag goes back to /, before the app loads', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto('/signup');
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The boot script sends the visitor on (src/client/boot.ts): `/` is asked for before any of the app's code.
  const firstAppScript = asked.findIndex((path) => /^\/assets\/(?!boot-).*\.js$/.test(path));
  expect(asked.indexOf('/')).toBeGreaterThan(-1);
  if (firstAppScript !== -1) expect(asked.indexOf('/')).toBeLessThan(firstAppScript);
});

test('/verify_login shows an e-mail login form without navbar or footer', async ({ page }) => {
  await page.goto('/verify_login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  // Google is not configured in this run: its button is absent.
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);
});
