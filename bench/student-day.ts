import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import { sastDate } from '../src/common/sast.ts';
import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import type { Services } from '../src/server/server.ts';
import { addStaff } from '../src/server/modules/staff/staff.usecases.ts';
import { findClosedPort } from '../src/server/test/free-port.ts';
import { readFirebaseJson, startHostingStandin } from '../scripts/hosting-standin.ts';
import { startAppServer } from './app-server.ts';
import { countWireBytes, difference, type WireCount, type WireCounts } from './wire-bytes.ts';
import { kb, launchChromium, table } from './chromium.ts';
import { recordResults, type Measurement } from './results.ts';

/**
 * Part of `npm run bench` (issue 34): the data a signed-in student's day costs, after the first visit (the
 * service worker installed, every list read once). The day: the app opened five times, each a new tab (the
 * second and fourth reloaded once), reading the dashboard's bookings and the board, one booking made through
 * the form on the third; then ten minutes with the dashboard open and live, while others ask, answer and a
 * tutor confirms her booking, and she comes back to the tab three times (window focus). Every byte both ways
 * on the sockets of the server the browser talks to (requests and answers, headers included, the page's and
 * the service worker's), by kind. Goal: at most 100 KB a day.
 *
 * Days, run at once, each with a server of its own: straight to our server; with the app's "Save data" setting
 * on (no live updates: she presses Refresh once an open and once while the tab is open); and behind the Firebase
 * Hosting stand-in (scripts/hosting-standin.ts), which ends each stream after 60 s and sends its files gzipped
 * with an ETag, as Hosting does; after the first visit the service worker answers for nearly all of them.
 *
 *   npm run build && node bench/student-day.ts [--minutes 10] [--days direct,saver,hosting]
 *
 * Measured on HTTP/1.1 without TLS: a phone on HTTPS pays a few KB more for each new connection, and with
 * HTTP/2 (Hosting) repeated headers cost less.
 */

const { values: args } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, days: { type: 'string', default: 'direct,saver,hosting' } },
});
const liveMinutes = Number(args.minutes);
if (!(liveMinutes > 0)) throw new Error('--minutes: a number of minutes above 0');
const goalBytes = 100 * 1024;

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
if (!existsSync(path.join(clientDir, 'index.html')))
  throw new Error(`${clientDir}/index.html is missing: run \`npm run build\` first`);

interface DayOptions {
  name: string;
  label: string;
  saver: boolean;
  hosting: boolean;
  note?: string;
}
const standinNote =
  'Counted on HTTP/1.1: Hosting speaks HTTP/2 and HTTP/3, whose header compression sends a repeated header in ' +
  'a few bytes.';
const allDays: DayOptions[] = [
  { name: 'direct', label: 'straight to the server', saver: false, hosting: false },
  { name: 'saver', label: 'straight to the server, "Save data" on', saver: true, hosting: false },
  {
    name: 'hosting',
    label: 'behind the Hosting stand-in (streams end after 60 s)',
    saver: false,
    hosting: true,
    note: standinNote,
  },
  {
    name: 'hosting-saver',
    label: 'behind the Hosting stand-in, "Save data" on',
    saver: true,
    hosting: true,
    note: standinNote,
  },
];
const wanted = args.days.split(',');
const days = allDays.filter((day) => wanted.includes(day.name));
if (days.length === 0) throw new Error(`--days: some of ${allDays.map((d) => d.name).join(',')}`);

/** The network counts as quiet once nothing has moved for this long (bench/visit-bytes.ts says why 3.5 s). */
const quietMs = 3500;
const password = randomBytes(12).toString('hex');
/** A header the benchmark's own requests (others' activity, seeding) carry: left out of the counts. */
const benchHeader = 'x-bench-others';

/** The kinds the day's bytes are split into. */
function kindOf(req: IncomingMessage): string | undefined {
  if (req.headers[benchHeader]) return undefined;
  const { pathname } = new URL(req.url ?? '/', 'http://x');
  if (pathname === '/api/events') return 'event stream';
  if (pathname.startsWith('/api/bookings') && req.method !== 'GET') return 'the booking';
  if (pathname.startsWith('/api/') && req.method === 'GET') return 'API reads';
  if (pathname.startsWith('/api/')) return 'other API requests';
  return 'page loads (documents, files, the worker)';
}

/** Requests grouped by method, path (ids and file hashes out) and status. */
function detailOf(req: IncomingMessage, status: number): string | undefined {
  if (req.headers[benchHeader]) return undefined;
  const url = new URL(req.url ?? '/', 'http://x');
  const pathname = url.pathname
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')
    .replace(/^\/assets\/(.+)-[\w-]{8}\.(\w+)$/, '/assets/$1-*.$2');
  const query = [...url.searchParams.keys()].join('&');
  return `${req.method} ${pathname}${query ? `?${query}=` : ''} ${status}`;
}

interface DayResult {
  options: DayOptions;
  opens: WireCounts;
  live: WireCounts;
  details: WireCounts;
  cut: number;
}

async function runDay(options: DayOptions): Promise<DayResult> {
  // The browser's origin: the stand-in's, or the server's. The server's PUBLIC_URL is that origin, the only one
  // that may post.
  const originPort = await findClosedPort();
  const student = { id: crypto.randomUUID(), name: 'Naledi Student', email: `day-${options.name}@example.com` };
  const peers = [1, 2, 3].map((n) => ({
    id: crypto.randomUUID(),
    name: `Peer ${n}`,
    email: `peer-${n}-${options.name}@example.com`,
  }));
  const tutor = { id: crypto.randomUUID(), name: 'Lerato Tutor', email: `tutor-${options.name}@example.com` };
  const app = await startAppServer(`day-${options.name}`, {
    clientDir,
    ...(options.hosting ? { env: { PUBLIC_URL: `http://127.0.0.1:${originPort}` } } : { port: originPort }),
    prepare: async (services) => {
      const hash = await services.auth.$context.then((ctx) => ctx.password.hash(password));
      await insertVerifiedUsers(services.db, [student, tutor, ...peers], hash);
      await addStaff(
        { ...services.deps, auth: services.auth },
        { email: tutor.email, role: 'tutor', categories: ['Mathematics'] },
      );
    },
  });
  const standin = options.hosting
    ? await startHostingStandin({
        config: readFirebaseJson(path.join(root, 'firebase.json')).hosting,
        publicDir: clientDir,
        upstream: app.url,
        port: originPort,
      })
    : undefined;
  const origin = standin?.url ?? app.url;
  const wire = countWireBytes(standin?.server ?? app.server, kindOf, detailOf);
  const others = await benchClient(app.url, app.services);
  const context = await browser.newContext({ baseURL: origin });
  try {
    await seed(others, { peers: peers.map((p) => p.email), tutor: tutor.email, student: student.email });
    const login = await context.request.post('/api/auth/sign-in/email', {
      data: { email: student.email, password },
      headers: { origin },
    });
    if (!login.ok()) throw new Error(`Signing in failed: ${login.status()} ${await login.text()}`);
    await firstVisit(context, options);
    await quiet(wire.total);

    const start = wire.snapshot();
    let page: Page | undefined;
    for (let open = 1; open <= 5; open++) {
      page = await openApp(context, open, options);
      await quiet(wire.total);
      if (open < 5) await page.close();
    }
    const afterOpens = wire.snapshot();
    await stayLive(page!, others, { peer: peers[1]!.email, tutor: tutor.email }, options);
    await quiet(wire.total);
    const end = wire.snapshot();
    await page!.close();
    return {
      options,
      opens: difference(afterOpens.byKind, start.byKind),
      live: difference(end.byKind, afterOpens.byKind),
      details: difference(end.byDetail, start.byDetail),
      cut: standin?.stats().cut ?? 0,
    };
  } finally {
    await context.close();
    await standin?.close();
    await app.stop();
  }
}

/** Requests of the others (and of the seeding), straight to the server, left out of the counts. */
async function benchClient(url: string, services: Services) {
  const publicUrl = services.env.publicUrl;
  const cookies = new Map<string, string>();
  const call = async (who: string, method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${url}${pathname}`, {
      method,
      headers: {
        [benchHeader]: '1',
        origin: publicUrl,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(cookies.has(who) && { cookie: cookies.get(who)! }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} as ${who}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  /** Signed in through better-auth itself, as bench/signed-in.ts does: the login limit is for browsers. */
  const signIn = async (email: string) => {
    const response = await services.auth.api.signInEmail({ body: { email, password }, asResponse: true });
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    cookies.set(email, cookie);
  };
  return { call, signIn };
}
type BenchClient = Awaited<ReturnType<typeof benchClient>>;

const words =
  'how do I find the derivative of a product when one factor is itself a quotient and the chain rule also applies to the inner function'.split(
    ' ',
  );
const sentence = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => words[(from + i * 7) % words.length]).join(' ');

/**
 * A board of 30 questions (20 answered), asked by three peers and answered by the tutor and a peer (each may post
 * 20 in a window), and two earlier bookings of the student's.
 */
async function seed(others: BenchClient, people: { peers: string[]; tutor: string; student: string }) {
  const { peers, tutor, student } = people;
  for (const who of [...peers, tutor, student]) await others.signIn(who);
  for (let i = 0; i < 30; i++) {
    const id = crypto.randomUUID();
    await others.call(peers[i % 3]!, 'POST', '/api/questions', {
      id,
      title: `Question ${i + 1}: ${sentence(8, i)}`,
      text: `${sentence(60, i)}?`,
    });
    if (i % 3 !== 2)
      await others.call(i % 2 ? tutor : peers[0]!, 'POST', `/api/questions/${id}/answers`, {
        id: crypto.randomUUID(),
        text: sentence(50, i + 3),
      });
  }
  for (const days of [6, 9])
    await others.call(student, 'POST', '/api/bookings', {
      id: crypto.randomUUID(),
      module: 'Introduction to Statistics',
      date: daysAhead(days),
      slots: ['09:00', '13:30', '17:00'],
      hours: 1,
      concepts: 'Hypothesis testing and p-values.',
    });
}

const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));

/**
 * The first visit, not counted: the dashboard until the worker controls the page, then the other pages once, so
 * that every list has been read; with "Save data" on, she turns it on in her profile.
 */
async function firstVisit(context: BrowserContext, options: DayOptions) {
  const page = await context.newPage();
  await page.goto('/student-dashboard');
  await page.evaluate(async () => {
    const { serviceWorker } = navigator;
    await serviceWorker.ready;
    if (!serviceWorker.controller)
      await new Promise((resolve) => serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  await bookings(page).waitFor();
  await nav(page, 'Community');
  await board(page).waitFor();
  await nav(page, 'Courses');
  await page.getByRole('heading', { name: 'Courses', level: 1 }).waitFor();
  await nav(page, 'Profile');
  await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  if (options.saver) await page.getByRole('checkbox', { name: /Save data/ }).check();
  await nav(page, 'Dashboard');
  await bookings(page).waitFor();
  await page.close();
}

const bookings = (page: Page) => page.getByRole('list', { name: 'Your bookings' });
const board = (page: Page) => page.getByText('Question 30:').first();

async function nav(page: Page, link: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
}

/** With "Save data" on, lists refresh when she asks: the navbar's Refresh. */
async function refresh(page: Page) {
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
}

/** One opening of the app in a new tab: the dashboard, the board, back; the third makes a booking. */
async function openApp(context: BrowserContext, open: number, options: DayOptions): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/student-dashboard');
  await bookings(page).waitFor();
  if (options.saver) await refresh(page);
  await nav(page, 'Community');
  await board(page).waitFor();
  if (open === 2 || open === 4) {
    await page.reload();
    await board(page).waitFor();
  }
  if (open === 3) await book(page);
  else {
    await nav(page, 'Dashboard');
    await bookings(page).waitFor();
  }
  return page;
}

/** A booking through the form, from the courses page, as she would make it. */
async function book(page: Page) {
  await nav(page, 'Courses');
  await page
    .getByRole('article', { name: 'Introduction To Calculus' })
    .getByRole('button', { name: 'Book Now' })
    .or(page.getByRole('article', { name: 'Introduction To Calculus' }).getByRole('link', { name: 'Book Now' }))
    .click();
  const form = page.getByRole('form', { name: 'Your session' });
  await form.getByLabel('Date').fill(daysAhead(5));
  for (const [label, time] of [
    ['First choice', '09:00'],
    ['Second choice', '13:30'],
    ['Third choice', '17:00'],
  ] as const)
    await form.getByLabel(label).fill(time);
  await form.getByLabel('Concepts you need help with').fill('Integration by parts, and when to use substitution.');
  await form.getByRole('button', { name: 'Submit booking request' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/student-dashboard$/);
  await bookings(page).getByText('Introduction To Calculus').waitFor();
}

/**
 * The last tab stays open on the dashboard for the live minutes. Meanwhile a peer asks a question and a tutor
 * answers it, the tutor confirms her booking, and she comes back to the tab three times (window focus); with
 * "Save data" on she presses Refresh near the end to see what changed.
 */
async function stayLive(
  page: Page,
  others: BenchClient,
  { peer, tutor }: { peer: string; tutor: string },
  options: DayOptions,
) {
  const started = Date.now();
  const at = async (share: number) => {
    const wait = started + share * liveMinutes * 60_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  const focus = () => page.evaluate(() => window.dispatchEvent(new Event('focus')));
  const questionId = crypto.randomUUID();
  await at(0.2);
  await others.call(peer, 'POST', '/api/questions', {
    id: questionId,
    title: 'Live question: what is a limit, really?',
    text: sentence(40, 5),
  });
  await at(0.3);
  await focus();
  await at(0.5);
  const list = (await others.call(tutor, 'GET', '/api/bookings')) as {
    bookings: { id: string; moduleName: string; version: number; status: string }[];
  };
  const made = list.bookings.find((b) => b.moduleName === 'Introduction To Calculus' && b.status === 'Pending');
  if (!made) throw new Error("The tutor does not see the student's booking");
  await others.call(tutor, 'POST', `/api/bookings/${made.id}/confirm`, { slot: '13:30', version: made.version });
  await at(0.6);
  await focus();
  await at(0.8);
  await others.call(tutor, 'POST', `/api/questions/${questionId}/answers`, {
    id: crypto.randomUUID(),
    text: sentence(30, 2),
  });
  await at(0.9);
  if (options.saver) await refresh(page);
  else await focus();
  await at(1);
}

/** Resolves once `total` has not moved for `quietMs`. */
async function quiet(total: () => number) {
  let last = total();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = total();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

function report({ options, opens, live, details, cut }: DayResult) {
  const zero: WireCount = { requests: 0, received: 0, sent: 0 };
  const plus = (a: WireCount, b: WireCount): WireCount => ({
    requests: a.requests + b.requests,
    received: a.received + b.received,
    sent: a.sent + b.sent,
  });
  const sum = (counts: WireCounts) => [...counts.values()].reduce(plus, zero);
  const both = (c: WireCount) => c.received + c.sent;
  const row = (kind: string, o: WireCount, l: WireCount) => {
    const all = plus(o, l);
    return [kind, String(all.requests), kb(all.received), kb(all.sent), kb(both(o)), kb(both(l)), kb(both(all))];
  };
  const kinds = [...new Set([...opens.keys(), ...live.keys()])].sort();
  const rows = kinds.map((kind) => row(kind, opens.get(kind) ?? zero, live.get(kind) ?? zero));
  rows.push(row('the day', sum(opens), sum(live)));
  const dayBytes = both(plus(sum(opens), sum(live)));
  console.log(`\n${options.label}${cut ? ` (${cut} streams cut at 60 s)` : ''}\n`);
  table(['KB', 'requests', 'from browser', 'to browser', '5 opens', `${liveMinutes} min live`, 'day'], rows);
  console.log(
    `\nthe day: ${kb(dayBytes)} KB, ${(dayBytes / goalBytes).toFixed(2)} of the 100 KB goal: ${dayBytes <= goalBytes ? 'met' : 'OVER'}`,
  );
  if (options.note) console.log(options.note);
  measurements.push({
    goal: "A student's day ≤ 100 KB",
    measured: `${options.label}${cut ? ` (${cut} streams cut at 60 s)` : ''}: the day's bytes both ways`,
    figure: { value: Number(kb(dayBytes)), unit: 'KB' },
    also:
      `5 opens ${kb(both(sum(opens)))} KB, ${liveMinutes} min live ${kb(both(sum(live)))} KB; ` +
      `${(dayBytes / goalBytes).toFixed(2)} of the goal`,
    target: '≤ 100 KB',
    met: dayBytes <= goalBytes,
  });
  console.log('\nwhere they went');
  const sorted = [...details].sort(([, a], [, b]) => both(b) - both(a));
  table(
    ['request and status', 'n', 'from browser', 'to browser'],
    sorted.map(([name, c]) => [name, String(c.requests), kb(c.received), kb(c.sent)]),
  );
}

const browser = await launchChromium();
let results: DayResult[];
try {
  results = await Promise.all(days.map((day) => runDay(day)));
} finally {
  await browser.close();
}
console.log(
  `\nA student's day after the first visit: 5 opens, one booking, ${liveMinutes} min live (bytes both ways, headers included)`,
);
const measurements: Measurement[] = [];
for (const result of results) report(result);
await recordResults(import.meta.filename, measurements, {
  conditions:
    `After the first visit: 5 opens, one booking, ${liveMinutes} min live; every byte both ways, headers ` +
    'included, on HTTP/1.1 without TLS (a phone on HTTPS pays a few KB more a new connection; HTTP/2 sends ' +
    'repeated headers in fewer bytes).',
});
