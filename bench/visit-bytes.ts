import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { getManifest } from 'workbox-build';
import { pagesAndEntry, precacheGlobPatterns, workerFiles, type LazyChunks } from '../scripts/precache.ts';
import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import { startAppServer } from './app-server.ts';
import { kb, launchChromium, table } from './chromium.ts';
import { recordResults, type Measurement } from './results.ts';

/**
 * Part of `npm run bench`: the bytes a phone on prepaid data pays for (issue 9), on the production build served
 * by our server, counted on the server's sockets (the page's requests and the service worker's, headers
 * included): a visitor's first visit to `/` until the worker is installed and nothing more is sent; a repeat
 * visit (same browser, a new tab); a signed-in student's first visit to `/offers`. Each with the browser's data
 * saver on and off: only when it is off does the worker fetch the rest of the build once it controls the page
 * (decision 0044). Beside them, what the worker downloads, and what precaching every file (as before
 * docs/decisions/0011-precache-budget.md) would. Builds nothing: run `npm run build` first; `-- <dir>`
 * measures the build in another folder (the figures of a build from before that decision compare).
 */

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.resolve(process.argv[2] ?? path.join(root, 'dist/client'));
if (!existsSync(path.join(clientDir, 'index.html')))
  throw new Error(`${clientDir}/index.html is missing: run \`npm run build\` first`);
/**
 * The network counts as quiet once nothing has been sent for this long: longer than the browser waits after a
 * page has loaded before it checks for a new worker (~2 s here), which a repeat visit pays for.
 */
const quietMs = 3500;

const student = { id: randomUUID(), name: 'Bench Student', email: 'visit-bytes@example.com' };
const password = randomBytes(12).toString('hex');
const app = await startAppServer('visit-bytes', {
  clientDir,
  prepare: async (services) => {
    const hash = await services.auth.$context.then((ctx) => ctx.password.hash(password));
    await insertVerifiedUsers(services.db, [student], hash);
  },
});
const browser = await launchChromium();

const rows: [string, string, string][] = [];
const measurements: Measurement[] = [];
const kbFigure = (bytes: number) => ({ value: Number(kb(bytes)), unit: 'KB' });
try {
  const measured = { on: await journeys(true), off: await journeys(false) };
  for (const [label, key] of [
    ['visitor, first visit to / (until the worker is installed)', 'first'],
    ['visitor, repeat visit to / (new tab)', 'repeat'],
    ['student, first visit to /offers (signed in)', 'student'],
  ] as const) {
    rows.push([label, kb(measured.on[key]), kb(measured.off[key])]);
    measurements.push({
      measured: `${label.replace(/ (\/\w*)/, ' `$1`')}, data saver on`,
      figure: kbFigure(measured.on[key]),
      reference: { what: 'data saver off', figure: kbFigure(measured.off[key]) },
      ratio: measured.on[key] / measured.off[key],
    });
  }
} finally {
  await browser.close();
  await app.stop();
}

const everything = await precached(false);
const selected = await precached(true);
const lazyList = path.join(clientDir, 'lazy-chunks.json');
// A build from before decision 0044 lists the chunks fetched unless saving data alone, and precaches the rest.
const listed = existsSync(lazyList) ? (JSON.parse(readFileSync(lazyList, 'utf8')) as string[] | LazyChunks) : [];
const lazy = Array.isArray(listed) ? { always: [], unlessSavingData: listed } : listed;
console.log(`\nBytes sent to the browser, headers included (KB), ${path.relative(root, clientDir) || clientDir}\n`);
table(['', 'data saver on', 'data saver off'], rows);
console.log('\nWhat the service worker downloads on a first visit (KB as sent: brotli where the build has it)\n');
table(
  ['', 'files', 'KB'],
  [
    ['precaching every file (before 0011)', String(everything.length), kb(sentSize(everything))],
    ['precache: the pages and the entry', String(selected.length), kb(sentSize(selected))],
    ["then the public pages' chunks", String(lazy.always.length), kb(sentSize(lazy.always))],
    ['and the others, unless saving data', String(lazy.unlessSavingData.length), kb(sentSize(lazy.unlessSavingData))],
  ],
);
measurements.push(
  {
    measured: `what the service worker precaches on a first visit: the pages and the entry (${selected.length} files)`,
    figure: kbFigure(sentSize(selected)),
    reference: {
      what: `precaching every file as before decision 0011 (${everything.length} files)`,
      figure: kbFigure(sentSize(everything)),
    },
    ratio: sentSize(selected) / sentSize(everything),
  },
  {
    measured: `then the public pages' chunks (${lazy.always.length} files)`,
    figure: kbFigure(sentSize(lazy.always)),
  },
  {
    measured: `and the others, unless saving data (${lazy.unlessSavingData.length} files)`,
    figure: kbFigure(sentSize(lazy.unlessSavingData)),
  },
);
// Another build's figures (`-- <dir>`, to compare) are not this checkout's: they are printed, not recorded.
if (clientDir === path.join(root, 'dist/client'))
  await recordResults(import.meta.filename, measurements, {
    conditions: `Bytes sent to the browser, headers included, on the build in \`dist/client\`; KB as sent (brotli where the build has it) for what the worker downloads.`,
  });
else console.log(`\n(not recorded in docs/bench-results.md: ${clientDir} is not this checkout's dist/client)`);

/** The three visits in fresh browser profiles, with the data saver on or off. */
async function journeys(saveData: boolean) {
  const visitor = await newProfile(saveData);
  const first = await visit(visitor, '/');
  const repeat = await visit(visitor, '/');
  await visitor.close();

  const signedIn = await newProfile(saveData);
  const login = await signedIn.request.post(`${app.url}/api/auth/sign-in/email`, {
    data: { email: student.email, password },
    headers: { origin: app.services.env.publicUrl },
  });
  if (!login.ok()) throw new Error(`Signing in failed: ${login.status()} ${await login.text()}`);
  const studentVisit = await visit(signedIn, '/offers');
  await signedIn.close();
  return { first, repeat, student: studentVisit };
}

async function newProfile(saveData: boolean): Promise<BrowserContext> {
  const context = await browser.newContext();
  // Chromium sets saveData from the user's Lite mode, which no flag turns on: the page is told it instead.
  if (saveData)
    await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
  return context;
}

/** Bytes sent for one page opened in a new tab, from the request until the worker controls it and the network is quiet. */
async function visit(context: BrowserContext, pagePath: string): Promise<number> {
  await quiet();
  const before = app.bytesSent();
  const page = await context.newPage();
  await page.goto(`${app.url}${pagePath}`);
  await page.evaluate(async () => {
    const { serviceWorker } = navigator;
    await serviceWorker.ready;
    if (!serviceWorker.controller)
      await new Promise((resolve) => serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  await quiet();
  const sent = app.bytesSent() - before;
  await page.close();
  return sent;
}

async function quiet() {
  let last = app.bytesSent();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = app.bytesSent();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/** The files the worker precaches with this project's selection, or every file the patterns match. */
async function precached(select: boolean): Promise<string[]> {
  const { manifestEntries = [] } = await getManifest({
    globDirectory: clientDir,
    globPatterns: precacheGlobPatterns,
    globIgnores: workerFiles,
    manifestTransforms: select ? [pagesAndEntry(clientDir)] : [],
  });
  return manifestEntries.map((entry) => entry.url);
}

/** The bytes of these files' bodies as the server sends them. */
function sentSize(urls: string[]): number {
  return urls.reduce((sum, url) => {
    const file = path.join(clientDir, url);
    return sum + (existsSync(`${file}.br`) ? statSync(`${file}.br`) : statSync(file)).size;
  }, 0);
}
