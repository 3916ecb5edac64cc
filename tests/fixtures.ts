import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { e2eDatabaseUrl, e2eDataDir, e2ePort } from '../playwright.config.ts';
import type { Booking } from '../src/common/bookings.ts';

export const origin = `http://127.0.0.1:${e2ePort}`;
const mailDir = path.join(e2eDataDir, 'mail');
export const password = 'correct horse battery';

export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Waits for an e-mail to `to` (written by the server's mail-folder transport) and returns its first link. */
export async function linkFromEmail(to: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(to)) {
          if (subject.test(mail.subject ?? '')) {
            link = /https?:\/\/\S+/.exec(mail.text ?? '')?.[0];
            if (link) return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `e-mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return link!;
}

/** Waits for an e-mail to `to` whose subject matches (written by the server's mail-folder transport), parsed. */
export async function emailTo(to: string, subject: RegExp): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(to)) if (subject.test(mail.subject ?? '')) found = mail;
        return found !== undefined;
      },
      { timeout: 15_000, message: `e-mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/**
 * The e-mails to `to` in the mail folder, oldest first, parsed. A file whose bytes do not hold the address is
 * not parsed: an address stands as it is in the To header, never encoded. The folder holds every e-mail of the
 * run (a CI lane's: 1,619 on 3 December, most of them booking requests to every admin), each polled for again
 * and again; parsing them all took about 3 ms of CPU each, a poll late in the lane several seconds.
 */
async function mailsTo(to: string): Promise<ParsedMail[]> {
  const mails: ParsedMail[] = [];
  for (const file of safeList(mailDir)) {
    const raw = readFileSync(path.join(mailDir, file));
    if (!raw.includes(to)) continue;
    const mail = await simpleParser(raw);
    const recipients = Array.isArray(mail.to) ? mail.to : [mail.to];
    if (recipients.some((r) => r?.text.includes(to))) mails.push(mail);
  }
  return mails;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
}

/**
 * The setup requests below are sent again when the connection is reset (ECONNRESET, the only error Playwright
 * retries). Playwright's request client reuses an idle keep-alive connection, and on a loaded machine it sometimes
 * sends just as the server closes it (Node closes idle ones after 5 s): the request never reached the server, so a
 * second try is safe. A browser does the same for a page's own requests. Seen twice in CI rehearsals, each time
 * in a journey's setup, never in what the journey checks.
 */
const resentOnReset = 2;

/**
 * Signs up through the API, opens the e-mailed verification link and logs in with its token (which confirms
 * the address, docs/decisions/0003), then logs out again: a ready, verified student.
 */
export async function signUpAndVerify(request: APIRequestContext, name = 'Thandi Mokoena') {
  const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password },
    headers: { origin },
    maxRetries: resentOnReset,
  });
  expect(res.status()).toBe(200);
  const link = await linkFromEmail(email, /Verify/);
  const opened = await request.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  const verificationToken = new URL(opened.headers().location!, origin).searchParams.get('verify');
  const login = await request.post('/api/auth/sign-in/email', {
    data: { email, password, verificationToken },
    headers: { origin },
    maxRetries: resentOnReset,
  });
  expect(login.status()).toBe(200);
  expect((await request.post('/api/auth/sign-out', { data: {}, headers: { origin } })).status()).toBe(200);
  return { name, email, password };
}

/** Makes an account staff through the real CLI, as an operator would. */
export function makeStaff(email: string, role: 'admin' | 'tutor', categories: string[] = []) {
  const args = [
    'src/server/cli.ts',
    'staff',
    'add',
    email,
    '--role',
    role,
    ...(categories.length ? ['--category', ...categories] : []),
  ];
  execFileSync(process.execPath, args, {
    env: {
      ...process.env,
      DATA_DIR: e2eDataDir,
      // The server's engine when it is not SQLite in DATA_DIR (FIRESTORE_EMULATOR_HOST comes with process.env).
      ...(e2eDatabaseUrl && { DATABASE_URL: e2eDatabaseUrl }),
      PUBLIC_URL: origin,
      LOG_LEVEL: 'error',
    },
  });
}

/** Where a login lands: students on the courses, staff on their dashboard. */
export const landingByRole = {
  student: /\/offers$/,
  tutor: /\/tutor-dashboard$/,
  admin: /\/admin-dashboard$/,
} as const;

/** Fills in the login form on the page (or in the part of it given) and presses Login. */
export async function submitLogin(where: Page | Locator, account: { email: string; password: string }) {
  await where.getByLabel('Email').fill(account.email);
  await where.getByLabel('Password', { exact: true }).fill(account.password);
  await where.getByRole('button', { name: 'Login' }).click();
}

export async function logIn(
  page: Page,
  account: { email: string; password: string },
  landing: RegExp = landingByRole.student,
) {
  await page.goto('/login');
  await submitLogin(page, account);
  await expect(page).toHaveURL(landing);
}

export async function loginAs(page: Page, role: 'student' | 'tutor' | 'admin', categories: string[] = ['Mathematics']) {
  const account = await signUpAndVerify(
    page.request,
    role === 'student' ? 'Sipho Dlamini' : role === 'tutor' ? 'Lerato Tutor' : 'Ayanda Admin',
  );
  if (role !== 'student') makeStaff(account.email, role, role === 'tutor' ? categories : []);
  await logIn(page, account, landingByRole[role]);
  return account;
}

/**
 * Axe reads colours as they are at the moment it looks: a toast sliding in or out is half transparent, and its
 * text then fails contrast (it once did in CI: a sign-up's welcome toast, slid in again as the window was resized). The check
 * runs with reduced motion, which ends every toast transition at once (sonner honours it); the look journey
 * measures toasts held on screen.
 */
export async function expectNoAxeViolations(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // A colour still changing is read half-way too (a button's transition after a switch to dark mode once failed
  // contrast in CI): finite animations and transitions end first, or 2 s pass (Node's time: a test may have
  // installed Playwright's clock in the page).
  await Promise.race([
    page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ).then(() => undefined),
    ),
    new Promise<void>((resolve) => setTimeout(resolve, 2000)),
  ]);
  const violations = await axeViolations(page).finally(() => page.emulateMedia({ reducedMotion: null }));
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * axe's default rules on the page, run in the page: its source is evaluated once per document, then one `axe.run`.
 * @axe-core/playwright's AxeBuilder evaluated axe's 1.5 MB source at every check, ran it by parts, and opened a
 * blank page to evaluate it again and join the parts (which lets it test frames of other origins): a check took
 * about twice the CPU. A page with frames still goes through it; the app has none.
 */
async function axeViolations(page: Page): Promise<axe.Result[]> {
  if (page.frames().length > 1) return (await new AxeBuilder({ page }).analyze()).violations;
  // A string, as AxeBuilder does: Playwright evaluates it past the page's CSP, which refuses eval().
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => (await (window as unknown as { axe: typeof axe }).axe.run(document)).violations);
}

/**
 * A journey's own time limit (`test.setTimeout`), doubled on CI as the default one is (playwright.config.ts): CI's
 * machine has run the journeys at a third of the speed they run here.
 */
export const journeyTimeout = (ms: number) => (process.env.CI ? 2 * ms : ms);

export const viewports = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;

/**
 * Resolves once the service worker is active (its precache complete) and holds the rest of the app too: a first
 * install takes control before the other chunks are in, and fetches them when a page asks (src/client/sw-assets.js,
 * docs/decisions/0044); asked here too, with the files this page loaded, it answers once it holds them all. A
 * page loaded while the worker was still activating is not claimed by it, but every later navigation, a reload
 * included, is.
 */
export async function waitForActiveServiceWorker(page: Page) {
  await page.evaluate(async () => {
    const { active } = await navigator.serviceWorker.ready;
    const loaded = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname);
    await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      active!.postMessage({ type: 'FILL_ASSETS', loaded }, [channel.port2]);
    });
  });
}

/** Chromium reports CSP violations as DevTools issues, not console errors: collect them in the page. */
export async function recordCspViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} in ${e.sourceFile}`),
    );
  });
}

export const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

export interface TestModule {
  id: string;
  slug: string;
  name: string;
  priceCents: number;
}

/** A module name no other test uses (the catalogue is shared by the whole run). */
export const uniqueModuleName = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Adds a module through the API as the signed-in admin of `request` (quicker than the form when the form is not under test). */
export async function createModule(
  request: APIRequestContext,
  input: {
    name: string;
    priceCents: number;
    category: 'Computer Science' | 'Mathematics' | 'Statistics';
    description?: string;
    topics?: string[];
  },
): Promise<TestModule> {
  const res = await request.post('/api/modules', { data: input, headers: { origin }, maxRetries: resentOnReset });
  expect(res.status()).toBe(201);
  return (await res.json()) as TestModule;
}

/**
 * Records the layout shifts of every page opened from here on, by the browser's own measure (not those just
 * after a tap or key): each as its score and what moved, from where to where, so a failure says which element.
 */
export const recordLayoutShifts = (target: Page | BrowserContext) =>
  target.addInitScript(() => {
    interface Source {
      node?: Node | null;
      previousRect: DOMRectReadOnly;
      currentRect: DOMRectReadOnly;
    }
    const shifts: string[] = [];
    Object.assign(window, { layoutShifts: shifts });
    const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`;
    const name = (node: Node | null | undefined) => {
      if (!(node instanceof Element)) return node ? `${node.nodeName} "${node.textContent?.slice(0, 30)}"` : '?';
      const classes = node.classList.length ? `.${[...node.classList].slice(0, 3).join('.')}` : '';
      return `${node.localName}${classes} "${(node.textContent ?? '').trim().slice(0, 30)}"`;
    };
    new PerformanceObserver((list) => {
      const entries = list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: Source[];
      })[];
      for (const entry of entries)
        if (!entry.hadRecentInput)
          shifts.push(
            `${entry.value.toFixed(5)} at ${Math.round(entry.startTime)} ms: ` +
              entry.sources.map((s) => `${name(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`).join('; '),
          );
    }).observe({ type: 'layout-shift', buffered: true });
  });

/** The layout shifts the page has seen (`recordLayoutShifts`): none, or what moved in each. */
export const layoutShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShifts: string[] }).layoutShifts);

/** A browser context of its own (its own cookies and IndexedDB) with a fresh account of `role` signed in. */
export async function userPage(
  browser: Browser,
  role: 'student' | 'tutor' | 'admin',
  options: { categories?: string[]; clockAt?: number } = {},
) {
  const context = await browser.newContext({ baseURL: origin });
  if (options.clockAt !== undefined) await context.clock.install({ time: options.clockAt });
  const page = await context.newPage();
  const account = await loginAs(page, role, options.categories);
  return { context, page, account };
}

/** A catalogue module of its own, so that no other test's bookings share its cards. */
export async function newModule(
  browser: Browser,
  category: 'Mathematics' | 'Statistics' | 'Computer Science' = 'Mathematics',
) {
  const admin = await userPage(browser, 'admin');
  const module = await createModule(admin.page.request, {
    name: uniqueModuleName('Linear Algebra Drills'),
    priceCents: 9000,
    category,
    description: 'Matrices, vectors and the systems they solve.',
    topics: ['Row reduction', 'Determinants', 'Eigenvalues'],
  });
  return { admin, module };
}

/** A booking request straight through the API, as the student signed in on `request`. */
export async function requestBooking(
  request: APIRequestContext,
  input: { module: string; date: string; slots: string[]; hours?: number; concepts?: string },
): Promise<Booking> {
  const res = await request.post('/api/bookings', {
    data: { id: crypto.randomUUID(), hours: 1, concepts: 'Past exam questions.', ...input },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Booking;
}

/** A time of `booking` confirmed straight through the API, as the staff member signed in on `request`. */
export async function confirmTime(request: APIRequestContext, booking: Booking, slot: string): Promise<Booking> {
  const res = await request.post(`/api/bookings/${booking.id}/confirm`, {
    data: { slot, version: booking.version },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Booking;
}

/**
 * Online, fills in the ask form's title and waits for the questions like it: they show under the title a moment
 * after the typing stops and move what is below it, Post among it, so a click meanwhile could land where it was.
 */
export async function fillTitleOnline(form: Locator, title: string): Promise<void> {
  const looked = form.page().waitForResponse((response) => response.url().includes('/api/questions/similar'));
  await form.getByLabel('Title').fill(title);
  await looked;
}
