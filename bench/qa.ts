import { sql } from 'kysely';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { addStaff } from '../src/server/modules/staff/staff.usecases.ts';
import type { Services } from '../src/server/server.ts';
import { startAppServer } from './app-server.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';
import { recordResults, type Figure, type Measurement } from './results.ts';
import { seedBookings } from './seed-bookings.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * The Q&A board's read path as the board grows, each board in its own SQLite database, a report (always exits 0):
 * 1. p99 latency of the first page with 100,000 questions (two answers each) against 100. It reads along an index
 *    and should not slow down with the board's size (target: p99 ratio ≤ 1.5).
 * 2. Searches at 100,000 questions, through the engine's substring index (migration 0010). Target (issue 22):
 *    a search that matches nothing answers at p99 < 20 ms.
 * 3. The longest time one request holds the event loop, with 100,000 questions and 50,000 bookings: each read
 *    below, searches and the staff's booking lists included, runs alone on one connection while
 *    `monitorEventLoopDelay` (in this process, which is the server's) records how late the loop runs. Target:
 *    at most 50 ms.
 */

const connections = 10;
const roundSeconds = 4;
const roundCount = 3;
const target = 1.5;
const searchTarget = 20;
const holdTarget = 50;

/** Words for the seeded posts; "recursion" is in one question in 50, "zygomorphic" in none. */
const topics = [
  'arrays',
  'loops',
  'pointers',
  'integrals',
  'matrices',
  'variance',
  'SQL joins',
  'inheritance',
  'limits',
  'sorting',
];

async function seed(services: Services, questionCount: number) {
  const { db } = services;
  const started = performance.now();
  const users = Array.from({ length: 50 }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `Student ${i}`,
    email: `student-${i}@example.com`,
    email_verified: true,
    image: null,
    created_at: new Date(),
    updated_at: new Date(),
  }));
  await db.insertInto('users').values(users).execute();
  const start = Date.now() - questionCount * 60_000;
  const batch = 1000;
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < questionCount; from += batch) {
      const questions = [];
      const answers = [];
      for (let n = from; n < Math.min(from + batch, questionCount); n++) {
        const topic = n % 50 === 0 ? 'recursion' : topics[n % topics.length]!;
        const title = `Question ${n} about ${topic}`;
        const text = `I am stuck on ${topic} in my assignment. Here is what I tried:\n\n\`\`\`java\nfor (int i = 0; i < n; i++) { total += a[i]; }\n\`\`\`\n\nWhat am I missing?`;
        const id = crypto.randomUUID();
        const createdAt = new Date(start + n * 60_000);
        questions.push({
          id,
          user_id: users[n % users.length]!.id,
          title,
          text,
          search: `${title}\n${text}`.toLowerCase(),
          created_at: createdAt.toISOString(),
          version: n + 1,
        });
        for (let a = 1; a <= 2; a++) {
          answers.push({
            id: crypto.randomUUID(),
            question_id: id,
            user_id: users[(n + a) % users.length]!.id,
            text: `Answer ${a}: check your loop bounds.`,
            created_at: new Date(createdAt.getTime() + a * 1000).toISOString(),
          });
        }
      }
      await trx.insertInto('questions').values(questions).execute();
      await trx.insertInto('answers').values(answers).execute();
    }
    // The search index, which the board's repository writes with each question it stores (migration 0012).
    await sql`insert into questions_search (search, question_id) select search, id from questions`.execute(trx);
    await trx.updateTable('sync_counter').set({ value: questionCount }).where('name', '=', 'questions').execute();
  });
  console.log(
    `seeded ${questionCount.toLocaleString('en-ZA')} questions and ${(2 * questionCount).toLocaleString('en-ZA')} answers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const startBoard = (questionCount: number, bookingCount = 0) =>
  startAppServer('qa', {
    prepare: async (services) => {
      await seed(services, questionCount);
      if (bookingCount) await seedBookings(services, bookingCount, false);
    },
  });

const small = await startBoard(100);
const large = await startBoard(100_000, 50_000);
const [student, tutor, admin] = await signedInUsers(large.services, 3, 'reader');
const staffDeps = { ...large.services.deps, auth: large.services.auth };
await addStaff(staffDeps, { email: tutor!.email, role: 'tutor', categories: ['Statistics'] });
await addStaff(staffDeps, { email: admin!.email, role: 'admin' });

interface Target {
  name: string;
  url: string;
  cookie?: string;
}
const search = (q: string) => `${large.url}/api/questions?q=${encodeURIComponent(q)}`;
const pageTargets: Target[] = [
  { name: 'first page, 100 questions', url: `${small.url}/api/questions` },
  { name: 'first page, 100,000 questions', url: `${large.url}/api/questions` },
];
const searchTargets: Target[] = [
  { name: 'search, no match', url: search('zygomorphic') },
  { name: 'search "recursion" (1 question in 50)', url: search('Recursion') },
  { name: 'search "loops" (1 in 10)', url: search('loops') },
  { name: 'search "i am stuck" (every question)', url: search('I am stuck') },
  { name: 'search of 2 letters, no match', url: search('qz') },
];
// Only for the longest hold: the lists of 50,000 bookings as staff and a student read them.
const listTargets: Target[] = [
  { name: "admin's bookings, first page", url: `${large.url}/api/bookings`, cookie: admin!.cookie },
  { name: "tutor's bookings, first page", url: `${large.url}/api/bookings`, cookie: tutor!.cookie },
  { name: "student's bookings", url: `${large.url}/api/bookings`, cookie: student!.cookie },
  { name: 'first page, signed in', url: `${large.url}/api/questions`, cookie: student!.cookie },
];
const timed = [...pageTargets, ...searchTargets];

const run = (t: Target, options: { connections: number; duration: number }) =>
  autocannon({ url: t.url, workers: 1, ...options, ...(t.cookie && { headers: { cookie: t.cookie } }) });

// The median round by p99, per target.
const median = (results: AutocannonResult[]) =>
  [...results].sort((a, b) => a.latency.p99 - b.latency.p99)[Math.floor(results.length / 2)]!;

function table(results: { name: string; r: AutocannonResult }[]) {
  const width = Math.max(...results.map((x) => x.name.length));
  console.log(
    `${'target'.padEnd(width)}  ${'req/s'.padStart(7)}  ${'p99 ms'.padStart(6)}  ${'mean ms'.padStart(7)}  errors`,
  );
  for (const { name, r } of results) {
    console.log(
      `${name.padEnd(width)}  ${Math.round(r.requests.average).toString().padStart(7)}  ${r.latency.p99.toFixed(0).padStart(6)}  ${r.latency.average.toFixed(2).padStart(7)}  ${r.non2xx + r.errors + r.timeouts}`,
    );
  }
}

const loadAtStart = os.loadavg()[0]!.toFixed(1);
const measurements: Measurement[] = [];
try {
  for (const t of [...timed, ...listTargets]) {
    const check = await fetch(t.url, { headers: t.cookie ? { cookie: t.cookie } : {} });
    const body = (await check.json()) as { questions?: unknown[]; bookings?: unknown[] };
    if (!check.ok) throw new Error(`${t.name}: ${check.status} before the run`);
    console.log(`${t.name}: ${(body.questions ?? body.bookings)!.length} on the page`);
    await run(t, { connections, duration: 1 });
  }
  const rounds = new Map<string, AutocannonResult[]>(timed.map((t) => [t.name, []]));
  for (let round = 1; round <= roundCount; round++) {
    for (const t of timed) rounds.get(t.name)!.push(await run(t, { connections, duration: roundSeconds }));
  }
  const results = timed.map((t) => ({ name: t.name, r: median(rounds.get(t.name)!) }));

  console.log(
    `\nQ&A board, ${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s (median round by p99), load average ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  table(results);
  // autocannon counts whole milliseconds: a p99 under 1 ms reads 0, so the ratio is taken from 1 ms upwards.
  const p99 = (name: string) => Math.max(1, results.find((x) => x.name === name)!.r.latency.p99);
  const ratio = p99('first page, 100,000 questions') / p99('first page, 100 questions');
  console.log(
    `\nfirst page p99 with 100,000 questions ÷ with 100: ${ratio.toFixed(2)} (target ≤ ${target}): ${ratio <= target ? 'PASS' : 'FAIL'}`,
  );
  const noMatch = p99('search, no match');
  console.log(
    `search with no match at 100,000 questions, p99: ${noMatch} ms (target < ${searchTarget} ms): ${noMatch < searchTarget ? 'PASS' : 'FAIL'}`,
  );
  // autocannon's p99 of 0 is under its 1 ms resolution.
  const p99Figure = (name: string): Figure => {
    const value = results.find((x) => x.name === name)!.r.latency.p99;
    return { value: value < 1 ? '<1' : value, unit: 'ms' };
  };
  const perSecond = (name: string) =>
    `${Math.round(results.find((x) => x.name === name)!.r.requests.average).toLocaleString('en-US')} req/s`;
  measurements.push(
    {
      goal: `Search p99 < ${searchTarget} ms`,
      measured: 'a search that matches nothing at 100,000 questions, p99',
      figure: p99Figure('search, no match'),
      also: perSecond('search, no match'),
      target: `< ${searchTarget} ms`,
      met: noMatch < searchTarget,
    },
    ...searchTargets.slice(1).map((t) => ({
      measured: `${t.name} at 100,000 questions, p99`,
      figure: p99Figure(t.name),
      also: perSecond(t.name),
    })),
    {
      measured: 'the first page at 100,000 questions, p99',
      figure: p99Figure('first page, 100,000 questions'),
      reference: { what: 'the first page at 100 questions', figure: p99Figure('first page, 100 questions') },
      ratio,
      also: 'the ratio of p99s counted from 1 ms',
      target: `ratio ≤ ${target}`,
      met: ratio <= target,
    },
  );

  console.log(`\nThe longest hold of the event loop, each read alone on one connection for ${roundSeconds} s\n`);
  const width = Math.max(...[...timed, ...listTargets].map((t) => t.name.length));
  console.log(
    `${'target'.padEnd(width)}  ${'req/s'.padStart(7)}  ${'loop p99 ms'.padStart(11)}  ${'max ms'.padStart(6)}`,
  );
  let longest = 0;
  let longestRead = '';
  for (const t of [...timed, ...listTargets].filter((x) => x.url.startsWith(large.url))) {
    // A second first, unmeasured: the collector's work left by the run before is not this read's.
    await run(t, { connections: 1, duration: 1 });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const r = await run(t, { connections: 1, duration: roundSeconds });
    delay.disable();
    const max = delay.max / 1e6;
    if (max > longest) [longest, longestRead] = [max, t.name];
    console.log(
      `${t.name.padEnd(width)}  ${Math.round(r.requests.average).toString().padStart(7)}  ${(delay.percentile(99) / 1e6).toFixed(1).padStart(11)}  ${max.toFixed(1).padStart(6)}`,
    );
  }
  console.log(
    `\nlongest hold of the event loop at 100,000 questions and 50,000 bookings: ${longest.toFixed(1)} ms (target ≤ ${holdTarget} ms): ${longest <= holdTarget ? 'PASS' : 'FAIL'}`,
  );
  measurements.push({
    goal: `No request holds the loop > ${holdTarget} ms`,
    measured: 'the longest event-loop delay while each read ran alone at 100,000 questions and 50,000 bookings',
    figure: { value: longest, unit: 'ms' },
    also: `the longest during: ${longestRead}`,
    target: `≤ ${holdTarget} ms`,
    met: longest <= holdTarget,
  });
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s, each target's median round ` +
      `by p99; the loop's delay with each read alone on one connection for ${roundSeconds} s; load average ` +
      `${loadAtStart} at the start.`,
  });
} finally {
  await small.stop();
  await large.stop();
}
