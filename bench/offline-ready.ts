import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request, type Page } from '@playwright/test';
import type { LazyChunks } from '../scripts/precache.ts';
import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import { startAppServer } from './app-server.ts';
import { startSlowLink } from './slow-link.ts';
import { launchChromium, table } from './chromium.ts';
import { recordResults, type Measurement } from './results.ts';

/**
 * Part of `npm run bench`: how soon a first visit works offline (issue 34 §2), on the production build served
 * by our server, in a fresh Chromium profile each time, data saver off. From navigation start:
 * - "page loaded": the page's load event, the reference of the same visit;
 * - "works offline": a worker controls the page and holds every file the page loaded, so that a reload offline
 *   shows the page, not the browser's error page. Every other visit goes offline at that very moment and
 *   reloads ("reload ok" counts those whose heading came back);
 * - "every page": the worker also holds every other chunk of the app, so that a page never opened opens
 *   offline; the other visits go offline then and open one ("other page ok");
 * - "registered": when the page registered the worker;
 * - "said": when the app told the user it works offline (a build from before issue 34 says nothing);
 * - "KB sent": by the server, headers included, until every page is held.
 * The load event comes early on a slow link: a prerendered page loads the app's scripts after it is painted
 * (src/client/boot.ts).
 * On loopback ("fast") and over a slow 3G link: 400 kbit/s each way and 400 ms round trip, shared by the page
 * and the worker (bench/slow-link.ts). Builds nothing: run `npm run build` first. `-- <dir> [<dir>…]` measures
 * the builds in those folders instead (each `dist/client` of a build), in turns, so that a build from before
 * a change and one from after compare in one run. OFFLINE_READY_RUNS visits of each kind per figure (3).
 */

const root = path.resolve(import.meta.dirname, '..');
const dirs = (process.argv.length > 2 ? process.argv.slice(2) : [path.join(root, 'dist/client')]).map((dir) =>
  path.resolve(dir),
);
for (const dir of dirs)
  if (!existsSync(path.join(dir, 'index.html')))
    throw new Error(`${dir}/index.html is missing: run \`npm run build\` first`);
const runs = Number(process.env.OFFLINE_READY_RUNS ?? 3);
const slow3g = { kbitPerSecond: 400, rttMs: 400 };
/** A visit that is not ready by then counts as never. */
const giveUpMs = 120_000;

const student = { id: randomUUID(), name: 'Bench Student', email: 'offline-ready@example.com' };
const password = randomBytes(12).toString('hex');

const journeys = [
  { label: 'visitor, /', path: '/', who: 'visitor', other: { path: '/about', heading: /^Tutoring started by/ } },
  { label: 'student, /qa', path: '/qa', who: 'student', other: { path: '/offers', heading: /^Courses$/ } },
] as const;
type Journey = (typeof journeys)[number];

const builds = [];
for (const dir of dirs) {
  const app = await startAppServer('offline-ready', {
    clientDir: dir,
    prepare: async (services) => {
      const hash = await services.auth.$context.then((ctx) => ctx.password.hash(password));
      await insertVerifiedUsers(services.db, [student], hash);
    },
  });
  const slow = await startSlowLink(app.url, slow3g);
  // Every chunk the worker does not precache (a build from before decision 0044 lists them alone).
  const listed = JSON.parse(readFileSync(path.join(dir, 'lazy-chunks.json'), 'utf8')) as string[] | LazyChunks;
  const lazy = Array.isArray(listed) ? listed : [...listed.always, ...listed.unlessSavingData];
  builds.push({ name: path.relative(root, dir) || dir, app, slow, lazy, cookies: await signIn(app) });
}
type Build = (typeof builds)[number];
const networks = [
  { name: 'fast', url: (build: Build) => build.app.url },
  { name: 'slow 3G', url: (build: Build) => build.slow.url },
] as const;

// The last flag keeps navigator.onLine false in a page reloaded offline.
const browser = await launchChromium(['--disable-features=RenderDocument']);

interface Visit {
  check: 'reload' | 'other';
  loaded: number;
  registered?: number | undefined;
  works?: number | undefined;
  every?: number | undefined;
  said?: number | undefined;
  kb?: number;
  reloadOk?: boolean;
  otherOk?: boolean;
}
const results = new Map<string, Visit[]>();
const key = (build: Build, network: string, journey: Journey) => `${build.name}|${network}|${journey.label}`;
const started = performance.now();
try {
  for (let run = 0; run < runs; run++)
    for (const network of networks)
      for (const journey of journeys)
        for (const check of ['reload', 'other'] as const)
          for (const build of builds) {
            const visit = await firstVisit(build, network.url(build), journey, check);
            if (process.env.OFFLINE_READY_DEBUG) console.log(build.name, network.name, journey.label, visit);
            const list = results.get(key(build, network.name, journey)) ?? [];
            list.push(visit);
            results.set(key(build, network.name, journey), list);
          }
} finally {
  await browser.close();
  for (const build of builds) {
    await build.slow.stop();
    await build.app.stop();
  }
}

console.log(
  `\nFrom a first visit to working offline (median of ${runs * 2} visits; the checks of ${runs} each), seconds from navigation start; slow 3G: ${slow3g.kbitPerSecond} kbit/s each way, ${slow3g.rttMs} ms RTT; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, ${Math.round((performance.now() - started) / 1000)} s\n`,
);
const rows: string[][] = [];
const measurements: Measurement[] = [];
for (const network of networks)
  for (const journey of journeys)
    for (const build of builds) {
      const visits = results.get(key(build, network.name, journey))!;
      const loaded = median(visits.map((v) => v.loaded));
      const registered = median(visits.map((v) => v.registered));
      const works = median(visits.map((v) => v.works));
      // Measured only by the visits that wait for it (the others go offline at "works offline").
      const waited = visits.filter((v) => v.check === 'other');
      const every = median(waited.map((v) => v.every));
      const said = median(waited.map((v) => v.said));
      const reloads = visits.filter((v) => v.reloadOk !== undefined);
      const others = visits.filter((v) => v.otherOk !== undefined);
      rows.push([
        `${network.name}, ${journey.label}${builds.length > 1 ? `, ${build.name}` : ''}`,
        seconds(loaded),
        seconds(registered),
        seconds(works),
        ratio(works, loaded),
        `${reloads.filter((v) => v.reloadOk).length}/${reloads.length}`,
        seconds(every),
        ratio(every, loaded),
        `${others.filter((v) => v.otherOk).length}/${others.length}`,
        seconds(said),
        String(median(waited.map((v) => v.kb)) ?? '–'),
      ]);
      const okOf = (list: Visit[], ok: (v: Visit) => boolean | undefined) =>
        `${list.filter(ok).length} of ${list.length}`;
      measurements.push({
        goal: 'Works offline soon after a first visit',
        measured: `${network.name}, ${journey.label.replace(/ (\/\w*)$/, ' `$1`')}: works offline`,
        figure: { value: seconds(works), unit: 's' },
        reference: { what: 'the page loaded', figure: { value: seconds(loaded), unit: 's' } },
        ...(works !== undefined && loaded && { ratio: works / loaded }),
        also:
          `reloads offline ok ${okOf(reloads, (v) => v.reloadOk)}; every page held at ${seconds(every)} s ` +
          `(${ratio(every, loaded)}× load), another page offline ok ${okOf(others, (v) => v.otherOk)}; ` +
          `registered ${seconds(registered)} s, said ${seconds(said)} s; ` +
          `${median(waited.map((v) => v.kb)) ?? '–'} KB sent`,
      });
    }
table(
  [
    '',
    'page loaded',
    'registered',
    'works offline',
    '× load',
    'reload ok',
    'every page',
    '× load',
    'other page ok',
    'said',
    'KB sent',
  ],
  rows,
);

/**
 * One first visit in a fresh profile: the times, then the check: offline at once, a reload of the page (at
 * "works offline") or a page never opened (at "every page").
 */
async function firstVisit(build: Build, baseUrl: string, journey: Journey, check: 'reload' | 'other'): Promise<Visit> {
  const context = await browser.newContext();
  try {
    if (journey.who === 'student') await context.addCookies(build.cookies);
    await context.addInitScript(recordMoments);
    const page = await context.newPage();
    const before = build.app.bytesSent();
    await page.goto(`${baseUrl}${journey.path}`);
    const heading = await headingOf(page);
    const moments = await page.evaluate(waitUntilReady, { lazy: build.lazy, stopAt: check, giveUpMs });
    const visit: Visit = { check, ...moments, kb: Math.round((build.app.bytesSent() - before) / 1024) };
    if (check === 'reload' && moments.works !== undefined) {
      await context.setOffline(true);
      visit.reloadOk = await page.reload().then(
        async () => (await headingOf(page)) === heading,
        () => false,
      );
    }
    if (check === 'other' && moments.every !== undefined) {
      await context.setOffline(true);
      visit.otherOk = await page.goto(`${baseUrl}${journey.other.path}`).then(
        async () => journey.other.heading.test((await headingOf(page)) ?? ''),
        () => false,
      );
    }
    return visit;
  } finally {
    await context.close();
  }
}

/**
 * The student's session cookies, signed in once per server (the login limiter of production mode counts every
 * attempt). The cookie is the host's, whatever the port: it holds for the slow link's address too.
 */
async function signIn(app: Awaited<ReturnType<typeof startAppServer>>) {
  const api = await request.newContext();
  try {
    const login = await api.post(`${app.url}/api/auth/sign-in/email`, {
      data: { email: student.email, password },
      headers: { origin: app.services.env.publicUrl },
    });
    if (!login.ok()) throw new Error(`Signing in failed: ${login.status()} ${await login.text()}`);
    return (await api.storageState()).cookies;
  } finally {
    await api.dispose();
  }
}

/** The page's first heading once it shows, or undefined (the browser's error page has one too: compared by text). */
async function headingOf(page: Page): Promise<string | undefined> {
  const h1 = page.locator('h1').first();
  return h1.waitFor({ timeout: 15_000 }).then(
    async () => (await h1.textContent())?.trim(),
    () => undefined,
  );
}

/** In the page, before its scripts: when a worker takes control, and when the app says it works offline. */
function recordMoments() {
  const moments = window as unknown as { registeredAt?: number; controlledAt?: number; saidAt?: number };
  const container = globalThis.ServiceWorkerContainer?.prototype;
  const register = container?.register;
  if (container && register)
    container.register = function (...args) {
      moments.registeredAt ??= performance.now();
      return register.apply(this, args);
    };
  navigator.serviceWorker?.addEventListener('controllerchange', () => (moments.controlledAt ??= performance.now()));
  new MutationObserver((records) => {
    if (moments.saidAt !== undefined) return;
    for (const record of records)
      for (const node of record.addedNodes)
        if (node.textContent?.includes('works offline')) moments.saidAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
}

/**
 * In the page: polls Cache Storage until the worker controls the page and holds every /assets/ file the page
 * has loaded ("works"), then, unless the check is a reload, until it holds every lazy chunk too ("every").
 */
async function waitUntilReady({ lazy, stopAt, giveUpMs }: { lazy: string[]; stopAt: string; giveUpMs: number }) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const allCached = async (urls: string[]) => (await Promise.all(urls.map((url) => caches.match(url)))).every(Boolean);
  const loadedFiles = () =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname);
  let works: number | undefined;
  let every: number | undefined;
  while (performance.now() < giveUpMs) {
    if (navigator.serviceWorker.controller) {
      works ??= (await allCached(loadedFiles())) ? performance.now() : undefined;
      if (works !== undefined && stopAt === 'reload') break;
      every ??= works !== undefined && (await allCached(lazy)) ? performance.now() : undefined;
      if (every !== undefined) break;
    }
    await sleep(50);
  }
  const moments = window as unknown as { registeredAt?: number; saidAt?: number };
  // The message may come a moment after the files: it is waited for, briefly (not by a reload's check, which
  // goes offline at once).
  if (stopAt !== 'reload') for (let i = 0; i < 20 && moments.saidAt === undefined; i++) await sleep(100);
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return { loaded: navigation!.loadEventEnd, registered: moments.registeredAt, works, every, said: moments.saidAt };
}

function median(values: (number | undefined)[]): number | undefined {
  // A visit that never got there sorts last.
  const sorted = values.map((v) => v ?? Infinity).sort((a, b) => a - b);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  return middle === undefined || middle === Infinity ? undefined : middle;
}

function seconds(ms: number | undefined) {
  return ms === undefined ? '–' : (ms / 1000).toFixed(2);
}

function ratio(ms: number | undefined, reference: number | undefined) {
  return ms === undefined || !reference ? '–' : (ms / reference).toFixed(1);
}

// Other builds' figures (`-- <dir>…`, to compare) are not this checkout's: they are printed, not recorded.
if (dirs.length === 1 && dirs[0] === path.join(root, 'dist/client'))
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `Median of ${runs * 2} first visits in fresh Chromium profiles (the checks of ${runs} each), data saver off, ` +
      `seconds from navigation start; slow 3G: ${slow3g.kbitPerSecond} kbit/s each way, ${slow3g.rttMs} ms round trip.`,
  });
else console.log("\n(not recorded in docs/bench-results.md: not this checkout's dist/client alone)");
