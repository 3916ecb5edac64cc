import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import { loadEnv } from '../src/server/env.ts';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { addStaff } from '../src/server/modules/staff/staff.usecases.ts';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { createServices } from '../src/server/server.ts';

/**
 * `npm run lighthouse`: Lighthouse's mobile audit (simulated slow 4G, a slowed CPU) of every page named in
 * issue 9, on the production build served by our server, and a table of the figures. Builds nothing: run
 * `npm run build` first. A report, not a test: it exits 0 whatever the scores. Signed-in pages are measured
 * with the session cookie of an account written straight to the database. `-- /about /qa` measures only those;
 * `LIGHTHOUSE_REPORTS=<dir>` keeps each full report.
 */

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
if (!existsSync(path.join(clientDir, 'index.html')))
  throw new Error('dist/client/index.html is missing: run `npm run build` first');

type Who = 'visitor' | 'student' | 'tutor' | 'admin';
/** `visitedHome`: the visitor came through Home's Sign Up button, which sets the flag /signup requires (spec §2). */
const pages: { path: string; who: Who; visitedHome?: boolean }[] = [
  { path: '/', who: 'visitor' },
  { path: '/about', who: 'visitor' },
  { path: '/testimonials', who: 'visitor' },
  { path: '/privacy-policy', who: 'visitor' },
  { path: '/login', who: 'visitor' },
  { path: '/signup', who: 'visitor', visitedHome: true },
  // The address typed in, without the flag: sent to `/`.
  { path: '/signup', who: 'visitor' },
  // A visitor's deep link to a signed-in page: sent to `/`.
  { path: '/modules/introduction-to-calculus', who: 'visitor' },
  { path: '/offers', who: 'student' },
  { path: '/qa', who: 'student' },
  // The board as a visitor (or a search engine) first sees it, and one question's own address (issue 19).
  { path: '/qa', who: 'visitor' },
  { path: `/qa/${questionId(0)}`, who: 'visitor' },
  { path: '/student-dashboard', who: 'student' },
  { path: '/tutor-dashboard', who: 'tutor' },
  { path: '/admin-dashboard', who: 'admin' },
];
const only = process.argv.slice(2);
/** `LIGHTHOUSE_REPORTS=<dir>`: each page's full report is written there too, as JSON, to see why a figure is what it is. */
const reportsDir = process.env.LIGHTHOUSE_REPORTS;
if (reportsDir) mkdirSync(reportsDir, { recursive: true });
const chosen = only.length ? pages.filter((p) => only.includes(p.path)) : pages;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-lighthouse-'));
// Logging in checks the request's origin against PUBLIC_URL, so the port is known before the server starts.
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
// Production mode, as users meet it; logging off, so that the table is the only output.
const env = loadEnv({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  PUBLIC_URL: baseUrl,
  LOG_LEVEL: 'silent',
  AUTH_SECRET: randomBytes(32).toString('hex'),
  // Production does not start without the server's VAPID keys (web push).
  ...newVapidKeysEnv(),
  // Production does not start without the bank details students pay into.
  PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
});
const services = await createServices(env, { clientDir });
const server = createHttpServer(services.app.fetch, { production: env.production, prepared: services.prepared }).listen(
  port,
  '127.0.0.1',
);
await new Promise<void>((resolve) => server.once('listening', resolve));

// The flags of playwright.config.ts: Debian's Chromium, headless, nothing fetched from outside.
const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const cookies = new Map<Who, string>();
if (chosen.some((p) => p.path.startsWith('/qa'))) await seedBoard();
const rows: string[][] = [];
let version = '';
try {
  for (const page of chosen) {
    const cookie = page.who === 'visitor' ? undefined : await cookieFor(page.who);
    if (page.visitedHome) await setVisitedHome();
    const result = await audit(page.path, cookie, page.visitedHome);
    if (reportsDir)
      writeFileSync(
        path.join(
          reportsDir,
          `${page.path.replace(/\W+/g, '-')}${page.who}${page.visitedHome ? '-from-home' : ''}.json`,
        ),
        JSON.stringify(result.lhr),
      );
    const { categories, audits } = result.lhr;
    version = result.lhr.lighthouseVersion;
    const score = (name: string) => String(Math.round((categories[name]?.score ?? 0) * 100));
    const scripts = (
      audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined
    )?.items?.find((item) => item.resourceType === 'script');
    rows.push([
      `${page.path}${page.who === 'visitor' ? '' : ` (${page.who})`}${page.path === '/signup' ? (page.visitedHome ? ' (from Home)' : ' (typed: sent to /)') : ''}`,
      score('performance'),
      `${((audits['largest-contentful-paint']?.numericValue ?? 0) / 1000).toFixed(1)} s`,
      (audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(2),
      `${Math.round(audits['total-blocking-time']?.numericValue ?? 0)} ms`,
      score('accessibility'),
      score('best-practices'),
      score('seo'),
      `${((scripts?.transferSize ?? 0) / 1024).toFixed(1)} KB`,
    ]);
    process.stdout.write(`measured ${page.path}\n`);
  }
} finally {
  chrome.kill();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const header = ['page', 'Perf', 'LCP', 'CLS', 'TBT', 'A11y', 'Best pr.', 'SEO', 'JS (compressed)'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(
  `\nLighthouse ${version} mobile, simulated slow 4G; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));

/**
 * One audit, tried again when Lighthouse could not measure the page (on a loaded machine it sometimes sees no
 * paint and scores 0), so that the table shows the page and not the machine.
 */
async function audit(
  pagePath: string,
  cookie: string | undefined,
  keepStorage = false,
  attempt = 1,
): Promise<NonNullable<Awaited<ReturnType<typeof lighthouse>>>> {
  const result = await lighthouse(
    `${baseUrl}${pagePath}`,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      disableStorageReset: keepStorage,
      // Nothing stored on this device: Lighthouse's own reset keeps IndexedDB and localStorage, where an
      // earlier audit's user would still be known (and shown, until the server answers). With a session
      // cookie, this is a device whose site data the browser cleared, and the app says so once idle.
      clearStorageTypes: [
        'file_systems',
        'shader_cache',
        'service_workers',
        'cache_storage',
        'indexeddb',
        'local_storage',
      ],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    },
    undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
  if (result.lhr.categories.performance?.score != null) return result;
  const problem =
    result.lhr.runtimeError?.message ?? result.lhr.audits['largest-contentful-paint']?.errorMessage ?? 'no score';
  if (attempt === 3) throw new Error(`${pagePath}: ${problem}`);
  process.stdout.write(`${pagePath}: ${problem}; measuring again\n`);
  if (keepStorage) await setVisitedHome();
  return audit(pagePath, cookie, keepStorage, attempt + 1);
}

/**
 * A cold start but for the visited-home flag in localStorage: Lighthouse, told to keep storage, would also keep
 * the earlier audits' cache and service worker, so those are cleared here instead.
 */
async function setVisitedHome() {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', {
      origin: baseUrl,
      storageTypes: 'cookies,indexeddb,local_storage,service_workers,cache_storage',
    });
    // A file, not a page: nothing of the app runs, and no worker is registered.
    await page.goto(`${baseUrl}/favicon.svg`);
    await page.evaluate(() => localStorage.setItem('visitedHome', 'true'));
    await page.close();
  } finally {
    await browser.close();
  }
}

function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  return new Promise((resolve) =>
    probe.once('listening', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    }),
  );
}

/** The board's questions get these ids, so that a question's own address is known before it is asked. */
function questionId(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

/**
 * A board as a student meets it: ten questions with code, half of them with maths too (issue 39) and half with
 * two answers by a tutor, one with a formula (within the posting limit of each account, qaLimits).
 */
async function seedBoard() {
  const post = async (who: 'student' | 'tutor', url: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie: await cookieFor(who) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  };
  for (let i = 9; i >= 0; i--) {
    await post('student', '/api/questions', {
      id: questionId(i),
      title: `How do I read a 2D array column by column in Java? (${i + 1})`,
      text: `I have \`int[][] grid\` and need the sum of each column for COMP102.\n\n\`\`\`java\nfor (int r = 0; r < grid.length; r++)\n  for (int c = 0; c < grid[r].length; c++)\n    sum[c] += grid[r][c];\n\`\`\`\n\nIs this right when the rows have different lengths?${
        i % 2 === 0
          ? '\n\nThe sums should add up:\n\n$$\n\\sum_{c=0}^{m-1} s_c = \\sum_{r=0}^{n-1} \\sum_{c=0}^{|g_r|-1} g_{rc}\n$$'
          : ''
      }`,
    });
    for (const n of i < 5 ? [1, 2] : [])
      await post('tutor', `/api/questions/${questionId(i)}/answers`, {
        id: randomUUID(),
        text: `Yes (${n}): the inner loop reads \`grid[r].length\`, so a short row is fine, but \`sum\` must be as long as the longest row: $\\max_r |g_r|$.`,
      });
  }
}

/** The session cookie of a verified account of that role, made once per role. */
async function cookieFor(who: Exclude<Who, 'visitor'>): Promise<string> {
  const known = cookies.get(who);
  if (known) return known;
  const email = `lighthouse-${who}@example.com`;
  const password = randomBytes(12).toString('hex');
  const id = randomUUID();
  const hash = await services.auth.$context.then((ctx) => ctx.password.hash(password));
  await insertVerifiedUsers(services.db, [{ id, name: `Lighthouse ${who}`, email }], hash);
  if (who !== 'student') {
    await addStaff(
      { ...services.deps, auth: services.auth },
      { email, role: who, categories: who === 'tutor' ? ['Mathematics'] : [] },
    );
  }
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`Signing in as ${who} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  cookies.set(who, cookie);
  return cookie;
}
