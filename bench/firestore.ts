import os from 'node:os';
import path from 'node:path';
import { sastDate } from '../src/common/sast.ts';
import { insertVerifiedUserThroughAuth } from '../src/server/auth/verified-users.ts';
import { addStaff } from '../src/server/modules/staff/staff.usecases.ts';
import type { Services } from '../src/server/server.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../src/server/test/firestore-emulator.ts';
import { startAppServer } from './app-server.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';
import { recordResults, type Figure, type Measurement } from './results.ts';

/**
 * The Firestore engine (on Google's emulator) beside SQLite, in the same run: the same app, the same data
 * seeded through the app's own repositories and API on both, and the same three requests under 20
 * connections: the board's first page for a visitor, a booking request (each a new id, the students taken in
 * turn), and a tutor's bookings list. No target (the emulator is a single-process fake, not production speed:
 * FIREBASE.md), but any p99 over 1 s is flagged. A report: it exits 0 once it has measured, and stops the
 * emulator and both servers whatever happens.
 *
 * The booking rules read the server's clock, which here runs 3,600 times faster than real time, so the
 * students stay within their 10 requests an hour; the mail worker is kept idle, so what is measured is the
 * request (with its e-mails queued) and not their sending.
 */

const connections = 20;
const roundSeconds = 5;
const roundCount = 3;
const p99LimitMs = 1000;
const questionCount = 1000;
const questionsPerTransaction = 50;
const studentCount = 60;
const seededBookings = 80;
const password = 'bench passphrase 1';
/** The tutor's category, and a module in it; a quarter of the seeded requests are for another category. */
const tutorModule = 'Introduction to Statistics';
const otherModule = 'Introduction To Calculus';

type App = Awaited<ReturnType<typeof startAppServer>>;

interface Engine {
  name: string;
  app: App;
  /** The tutor's session, and the students' (in turn for the booking requests). */
  tutorCookie: string;
  studentCookies: string[];
}

/** Runs `work` on each item, `width` at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T, i: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!, i);
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/**
 * Verified accounts with a password login, written through better-auth's own adapter (the engine's, so the
 * same code seeds SQLite and Firestore), then signed in: their session cookies.
 */
async function signedInUsers(services: Services, count: number, prefix: string) {
  const { adapter, password: hasher } = await services.auth.$context;
  const hash = await hasher.hash(password);
  return inParallel(
    Array.from({ length: count }, (_, i) => ({ name: `${prefix} ${i}`, email: `${prefix}-${i}@example.com` })),
    8,
    async (user) => {
      const created = await insertVerifiedUserThroughAuth(adapter, user, hash);
      const response = await services.auth.api.signInEmail({
        body: { email: user.email, password },
        asResponse: true,
      });
      if (!response.ok) throw new Error(`sign-in of ${user.email}: ${response.status}`);
      const cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
      return { id: created.id, ...user, cookie };
    },
  );
}

/**
 * The board: `questionCount` questions a minute apart, two answers each, by the students, through the board's
 * repository in transactions of the shape every change has (beginChanges, takeStamps, writes).
 */
async function seedBoard(services: Services, authors: readonly { id: string }[]) {
  const start = Date.now() - questionCount * 60_000;
  for (let from = 0; from < questionCount; from += questionsPerTransaction) {
    const count = Math.min(questionsPerTransaction, questionCount - from);
    await services.deps.storage.transaction(async ({ qa }) => {
      await qa.beginChanges();
      const stamps = await qa.takeStamps(count);
      for (let i = 0; i < count; i++) {
        const n = from + i;
        const title = `Question ${n} about loops`;
        const text = `I am stuck on loops in my assignment. Here is what I tried:\n\n\`\`\`java\nfor (int i = 0; i < n; i++) { total += a[i]; }\n\`\`\`\n\nWhat am I missing?`;
        const id = crypto.randomUUID();
        const createdAt = new Date(start + n * 60_000);
        await qa.insertQuestion({
          id,
          userId: authors[n % authors.length]!.id,
          title,
          text,
          searchText: `${title}\n${text}`.toLowerCase(),
          createdAt: createdAt.toISOString(),
          stamp: stamps[i]!,
        });
        for (let a = 1; a <= 2; a++) {
          await qa.insertAnswer({
            id: crypto.randomUUID(),
            questionId: id,
            userId: authors[(n + a) % authors.length]!.id,
            text: `Answer ${a}: check your loop bounds.`,
            createdAt: new Date(createdAt.getTime() + a * 1000).toISOString(),
          });
        }
      }
    });
  }
}

const bookingBody = (module: string) =>
  JSON.stringify({
    id: crypto.randomUUID(),
    module,
    date: sastDate(new Date(Date.now() + 60 * 24 * 3_600_000)),
    slots: ['09:00', '14:00', '17:30'],
    hours: 2,
    concepts: 'Hypothesis testing, p-values and the difference between one- and two-tailed tests.',
  });

const jsonHeaders = (app: App, cookie: string) => ({
  'content-type': 'application/json',
  origin: app.services.env.publicUrl,
  cookie,
});

/** Starts the app on one engine and seeds it: students, a Statistics tutor, the board, booking requests. */
async function startEngine(name: string, env: Record<string, string>, started: App[]): Promise<Engine> {
  const app = await startAppServer(name.toLowerCase(), { idleMail: true, env });
  started.push(app);
  const { services } = app;
  const begun = performance.now();
  const clockStart = Date.now();
  services.deps.clock.now = () => new Date(clockStart + (Date.now() - clockStart) * 3600);

  const phases: string[] = [];
  const phase = async <T>(what: string, work: () => Promise<T>) => {
    const t = performance.now();
    const result = await work();
    phases.push(`${what} ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return result;
  };
  const students = await phase('students', () => signedInUsers(services, studentCount, 'student'));
  const [tutor] = await phase('tutor', async () => {
    const users = await signedInUsers(services, 1, 'tutor');
    await addStaff(
      { ...services.deps, auth: services.auth },
      { email: users[0]!.email, role: 'tutor', categories: ['Statistics'] },
    );
    return users;
  });
  await phase('board', () => seedBoard(services, students));
  // The requests through the API, as students send them: three in four in the tutor's category. Two at a
  // time, each sent again after a 503 (Firestore's contention), as a client would.
  const retried = await phase('bookings', async () => {
    let busy = 0;
    await inParallel(Array.from({ length: seededBookings }), 2, async (_, i) => {
      const body = bookingBody(i % 4 === 3 ? otherModule : tutorModule);
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`${app.url}/api/bookings`, {
          method: 'POST',
          headers: jsonHeaders(app, students[i % students.length]!.cookie),
          body,
        });
        await response.arrayBuffer();
        if (response.status === 201) return;
        if (response.status !== 503 || attempt === 5)
          throw new Error(`${name}: POST /api/bookings ${response.status} while seeding`);
        busy++;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    });
    return busy;
  });
  console.log(
    `${name}: seeded ${studentCount} students and a tutor, ${questionCount.toLocaleString('en-ZA')} questions with ${(2 * questionCount).toLocaleString('en-ZA')} answers, ${seededBookings} booking requests in ${((performance.now() - begun) / 1000).toFixed(1)} s (${phases.join(', ')}; ${retried} requests answered 503 and sent again)`,
  );
  return { name, app, tutorCookie: tutor!.cookie, studentCookies: students.map((s) => s.cookie) };
}

/** The three requests measured, as autocannon options for an engine. */
const requestsOf = (engine: Engine) => {
  const { app } = engine;
  return [
    { name: 'GET /api/questions (board, visitor)', options: { url: `${app.url}/api/questions` } },
    {
      name: 'POST /api/bookings (request)',
      options: {
        url: app.url,
        requests: [
          {
            method: 'POST',
            path: '/api/bookings',
            headers: jsonHeaders(app, engine.studentCookies[0]!),
            body: bookingBody(tutorModule),
            cookies: engine.studentCookies,
            setupRequest: path.join(import.meta.dirname, 'booking-as-next-student.cjs'),
          },
        ],
      },
    },
    {
      name: "GET /api/bookings (tutor's list)",
      options: { url: `${app.url}/api/bookings`, headers: { cookie: engine.tutorCookie } },
    },
  ];
};

/** Each request once, checked, before any load: a refusal here would make the figures meaningless. */
async function check(engine: Engine) {
  const { app } = engine;
  const board = await fetch(`${app.url}/api/questions`);
  const page = (await board.json()) as { questions: { answers: unknown[] }[] };
  if (!board.ok) throw new Error(`${engine.name}: GET /api/questions ${board.status}`);
  const list = await fetch(`${app.url}/api/bookings`, { headers: { cookie: engine.tutorCookie } });
  const bookings = (await list.json()) as { bookings: unknown[] };
  if (!list.ok) throw new Error(`${engine.name}: GET /api/bookings ${list.status}`);
  console.log(
    `${engine.name}: the board's first page holds ${page.questions.length} questions (${page.questions.reduce((sum, q) => sum + q.answers.length, 0)} answers), the tutor's list ${bookings.bookings.length} bookings`,
  );
}

/**
 * A round's p99 for ranking: a round in which no request was answered ranks worst (autocannon reports 0), and
 * the p99 of a round with answers is that of the answered ones; the requests left unanswered are shown apart.
 */
const p99Of = (r: AutocannonResult) => (r.requests.total === 0 ? Infinity : r.latency.p99);
const median = (results: AutocannonResult[]) =>
  [...results].sort((a, b) => p99Of(a) - p99Of(b))[Math.floor(results.length / 2)]!;

/** What docs/bench-results.md shows, recorded at the end. */
const measurements: Measurement[] = [];

function report(engines: Engine[], rounds: Map<string, AutocannonResult[]>, names: string[], loadAtStart: string) {
  const [sqlite, firestore] = engines as [Engine, Engine];
  const none = `>${roundSeconds * 1000}`;
  const ms = (r: AutocannonResult, v: number) => (r.requests.total === 0 ? none : v < 1 ? '<1' : v.toFixed(0));
  const cellsOf = (r: AutocannonResult) => [
    ms(r, r.latency.p50),
    ms(r, r.latency.p99),
    Math.round(r.requests.average).toString(),
    (r.non2xx + r.errors + r.timeouts).toString(),
    (r.requests.sent - r.requests.total).toString(),
  ];
  const p99Figure = (r: AutocannonResult): Figure => ({
    value: r.requests.total === 0 ? none : r.latency.p99 < 1 ? '<1' : r.latency.p99,
    unit: 'ms',
  });
  const rows = names.map((name) => {
    const s = median(rounds.get(`${sqlite.name} ${name}`)!);
    const f = median(rounds.get(`${firestore.name} ${name}`)!);
    const ofRound = (r: AutocannonResult) =>
      `${Math.round(r.requests.average)} req/s, errors ${r.non2xx + r.errors + r.timeouts}, unanswered ` +
      `${r.requests.sent - r.requests.total}`;
    measurements.push({
      measured: `${name.replace(/^(GET|POST) \S+/, '`$&`')} on Firestore (the emulator), p99`,
      figure: p99Figure(f),
      reference: { what: 'SQLite in the same run', figure: p99Figure(s) },
      ...(Number.isFinite(p99Of(f)) &&
        Number.isFinite(p99Of(s)) && { ratio: Math.max(1, p99Of(f)) / Math.max(1, p99Of(s)) }),
      also: `Firestore ${ofRound(f)}; SQLite ${ofRound(s)}`,
      target: `no p99 over ${p99LimitMs} ms on either engine`,
      met: [s, f].every((r) => p99Of(r) <= p99LimitMs),
    });
    const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) ? (a / b).toFixed(1) : 'n/a');
    return {
      name,
      flagged: [s, f].some((r) => p99Of(r) > p99LimitMs),
      cells: [
        name,
        ...cellsOf(s),
        ...cellsOf(f),
        ratio(Math.max(1, p99Of(f)), Math.max(1, p99Of(s))),
        (f.requests.average / s.requests.average).toFixed(2),
      ],
    };
  });
  const engineColumns = ['p50 ms', 'p99 ms', 'req/s', 'errors', 'unanswered'];
  const header = [
    'request',
    ...engineColumns.map((c) => `S ${c}`),
    ...engineColumns.map((c) => `F ${c}`),
    'p99 F÷S',
    'req/s F÷S',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(
    `\nFirestore (F, on the emulator) beside SQLite (S): ${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s (median round by p99), Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row.cells));
  console.log('');
  for (const row of rows.filter((r) => r.flagged)) console.log(`p99 over ${p99LimitMs} ms: ${row.name}`);
  if (!rows.some((r) => r.flagged)) console.log(`no p99 over ${p99LimitMs} ms`);
  console.log(
    `(errors: non-2xx answers, socket errors and timeouts; unanswered: requests still waiting when the round ended, left out of the latencies; ${none}: none answered within the round. Latencies have 1 ms steps.)`,
  );
}

let emulator: FirestoreEmulator | undefined;
const started: App[] = [];
try {
  emulator = await startFirestoreEmulator();
  const projectId = `bench-${crypto.randomUUID().slice(0, 8)}`;
  const engines = [
    await startEngine('SQLite', {}, started),
    await startEngine(
      'Firestore',
      { DATABASE_URL: `firestore://${projectId}`, FIRESTORE_EMULATOR_HOST: emulator.host },
      started,
    ),
  ];
  for (const engine of engines) await check(engine);
  const targets = engines.flatMap((engine) =>
    requestsOf(engine).map((r) => ({ key: `${engine.name} ${r.name}`, name: r.name, options: r.options })),
  );
  const names = requestsOf(engines[0]!).map((r) => r.name);
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  // Warm-up, then rounds that take each request on one engine and then the other, so a burst of load from
  // elsewhere on the machine falls on both alike.
  for (const t of targets) await autocannon({ ...t.options, connections, duration: 1, workers: 1 });
  await Promise.all(engines.map((engine) => engine.app.settled()));
  const rounds = new Map<string, AutocannonResult[]>(targets.map((t) => [t.key, []]));
  for (let round = 1; round <= roundCount; round++) {
    process.stdout.write(`round ${round}/${roundCount}:`);
    for (const name of names) {
      for (const t of targets.filter((x) => x.name === name)) {
        const result = await autocannon({ ...t.options, connections, duration: roundSeconds, workers: 1 });
        // Autocannon leaves without waiting for the answers still due: the next run starts on an idle app.
        await Promise.all(engines.map((engine) => engine.app.settled()));
        rounds.get(t.key)!.push(result);
        process.stdout.write(` ${t.key} p99 ${result.latency.p99} ms, ${result.requests.total} answered;`);
      }
    }
    process.stdout.write('\n');
  }
  report(engines, rounds, names, loadAtStart);
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s, each request's median ` +
      `round by p99; latencies in 1 ms steps, of the answered requests; load average ${loadAtStart} at the start. ` +
      "Google's emulator is a single-process fake, not production's speed.",
  });
} finally {
  // Each stopped on its own, so that one failing to stop leaves none of the others running.
  for (const app of started) await app.stop().catch((error: unknown) => console.error('stopping a server:', error));
  await emulator?.stop();
}
