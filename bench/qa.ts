import os from 'node:os';
import type { Services } from '../src/server/server.ts';
import { startAppServer } from './app-server.ts';
import { autocannon, type AutocannonResult } from './autocannon.ts';

/**
 * The Q&A board's read path as the board grows: p99 latency of the first page and of a search with 100,000
 * questions (two answers each) against the first page with 100, each in its own SQLite database. The first page
 * reads along an index and should not slow down with the board's size (target: p99 ratio ≤ 1.5). A search
 * scans (a substring can use no index), so its figures are printed for the record. A report: always exits 0.
 */

const connections = 10;
const roundSeconds = 4;
const roundCount = 3;
const target = 1.5;

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
    await trx.updateTable('sync_counter').set({ value: questionCount }).where('name', '=', 'questions').execute();
  });
  console.log(
    `seeded ${questionCount.toLocaleString('en-ZA')} questions and ${(2 * questionCount).toLocaleString('en-ZA')} answers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const startBoard = (questionCount: number) =>
  startAppServer('qa', { prepare: (services) => seed(services, questionCount) });

const small = await startBoard(100);
const large = await startBoard(100_000);
const targets = [
  { name: 'first page, 100 questions', url: `${small.url}/api/questions` },
  { name: 'first page, 100,000 questions', url: `${large.url}/api/questions` },
  { name: 'search "recursion", 100 questions', url: `${small.url}/api/questions?q=Recursion` },
  { name: 'search "recursion", 100,000 questions', url: `${large.url}/api/questions?q=Recursion` },
  { name: 'search, no match, 100,000 questions', url: `${large.url}/api/questions?q=zygomorphic` },
];

try {
  for (const t of targets) {
    const check = await fetch(t.url);
    const body = (await check.json()) as { questions: unknown[] };
    if (!check.ok) throw new Error(`${t.name}: ${check.status} before the run`);
    console.log(`${t.name}: ${body.questions.length} questions on the page`);
    await autocannon({ url: t.url, connections, duration: 1, workers: 1 });
  }
  const rounds = new Map<string, AutocannonResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= roundCount; round++) {
    for (const t of targets)
      rounds.get(t.name)!.push(await autocannon({ url: t.url, connections, duration: roundSeconds, workers: 1 }));
  }
  // The median round by p99, per target.
  const median = (results: AutocannonResult[]) =>
    [...results].sort((a, b) => a.latency.p99 - b.latency.p99)[Math.floor(results.length / 2)]!;
  const results = targets.map((t) => ({ name: t.name, r: median(rounds.get(t.name)!) }));

  console.log(
    `\nQ&A board, ${connections} connections, ${roundCount} interleaved rounds of ${roundSeconds} s (median round by p99), load average ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  const width = Math.max(...results.map((x) => x.name.length));
  console.log(
    `${'target'.padEnd(width)}  ${'req/s'.padStart(7)}  ${'p99 ms'.padStart(6)}  ${'mean ms'.padStart(7)}  errors`,
  );
  for (const { name, r } of results) {
    console.log(
      `${name.padEnd(width)}  ${Math.round(r.requests.average).toString().padStart(7)}  ${r.latency.p99.toFixed(0).padStart(6)}  ${r.latency.average.toFixed(2).padStart(7)}  ${r.non2xx + r.errors + r.timeouts}`,
    );
  }
  // autocannon counts whole milliseconds: a p99 under 1 ms reads 0, so the ratio is taken from 1 ms upwards.
  const p99 = (name: string) => Math.max(1, results.find((x) => x.name === name)!.r.latency.p99);
  const ratio = p99('first page, 100,000 questions') / p99('first page, 100 questions');
  console.log(
    `\nfirst page p99 with 100,000 questions ÷ with 100: ${ratio.toFixed(2)} (target ≤ ${target}): ${ratio <= target ? 'PASS' : 'FAIL'}`,
  );
} finally {
  await small.stop();
  await large.stop();
}
