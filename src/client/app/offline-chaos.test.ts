// The engine's seeded random test against the real server: the app's own engine and features (app/offline-setup.ts)
// in a "browser" (test/chaos-kit.ts) talk HTTP to src/server/main.ts running as its own process, which is killed with
// SIGKILL at random moments, also while the outbox is sending, and started again on the same data and port.
// Reproduce a run: `npm run chaos -- --runs 1 --seed <seed>` (scripts/chaos.ts; add TEST_DATABASE_URL for PostgreSQL).
import {
  createBrowser,
  createRandom,
  delay,
  deleteDatabase,
  installLocalStorage,
  openPage,
} from '../test/chaos-kit.ts';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Booking } from '../../common/bookings.ts';
import type { MyVotes, Question, QuestionChanges, VoteValue } from '../../common/qa.ts';
import { sastDate } from '../../common/sast.ts';
import { startChaosServer, type ChaosServer } from '../../server/test/chaos-server.ts';
import { deadline } from '../../server/test/deadline.ts';
import type { Page, Random } from '../test/chaos-kit.ts';

// eslint-disable-next-line no-restricted-properties -- test settings (scripts/chaos.ts sets them), not app configuration
const settings = process.env;
/** The seed of the first run; each next run takes the next number. */
const firstSeed = Number(settings.CHAOS_SEED ?? 1);
/** At least 20 in CI (the issue's figure); `npm run chaos -- --runs 200` runs more. */
const runs = Number(settings.CHAOS_RUNS ?? 20);

const password = 'correct horse battery';
const dayMs = 86_400_000;
/** The server's limits for one user (qaLimits.postsPerWindow, bookingLimits.requestsPerHour), with room to spare. */
const caps = { questions: 5, answers: 6, bookings: 3 };
const slotTimes = ['08:00', '09:30', '11:00', '12:45', '14:00', '15:30', '17:15', '19:00'];

interface Summary {
  seed: number;
  ok: boolean;
  ms: number;
  /** One line when the run passed; its problems, steps and the server's last lines when it failed. */
  line: string;
  steps: string[];
}

declare module 'vitest' {
  interface TaskMeta {
    /** Read by scripts/chaos.ts, which prints one line per run. */
    chaos?: Summary;
  }
}

// One server (one database) for the file: a start costs half a second of CPU, and each run has users, and so data, of
// its own. A run does not depend on the ones before it: it reads and checks only its own users' data. Each test starts
// the process when it is not running, the first included: a start that fails fails that test, and the next starts a
// fresh process (chaos-server.ts).
let server: Promise<ChaosServer>;
beforeAll(() => {
  server = startChaosServer();
  // Awaited by the first test: not an unhandled rejection meanwhile.
  server.catch(() => undefined);
});
afterAll(async () => {
  await (await server.catch(() => undefined))?.close();
});

describe('the offline engine against the real server, killed and restarted at random', () => {
  for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
    it(
      `seed ${seed}: every question, answer, vote and booking typed reaches the server once`,
      { timeout: deadline(90_000) },
      async ({ task }) => {
        const summary = await runSequence(seed, server);
        task.meta.chaos = summary;
        if (!summary.ok) throw new Error(summary.line);
      },
    );
  }
});

describe('found by the chaos runs (seeds 2098 and 2149: a vote shown wrong between steps)', () => {
  /**
   * Found by the chaos runs: offline/outbox.ts `sendOne` acknowledged an item by writing the server's copy of its
   * rows (qa.sync.ts `storeQuestion`: the question, its counts and the reader's vote) without applying the items
   * still queued for them on top, as a merge does. A question acknowledged while the vote on it was still queued
   * showed no vote and its old counts until the next refresh, which offline did not come (OFFLINE-ENGINE.md rules
   * 2 and 3, scenario 9). The acknowledgement now applies them again (`reapplyOver`).
   */
  it('a vote queued after its question still shows once the question is acknowledged', async () => {
    const chaosServer = await server;
    await chaosServer.settled();
    if (!chaosServer.running()) await chaosServer.start();
    installLocalStorage();
    const browser = createBrowser(chaosServer.url);
    const email = `known-bug-${crypto.randomUUID()}@example.com`;
    await chaosServer.createStudent('Known Bug', email, password);
    // Without the live stream, no refresh comes between the acknowledgement and the look (as between reconnects).
    const page = await openPage(browser, { live: false });
    try {
      const me = await page.logIn(email, password);
      browser.setOnline(false);
      const id = crypto.randomUUID();
      const author = { id: me.id, name: me.name, role: me.role };
      await page.qa.askQuestion({ id, title: 'Why?', text: 'Because.', author, createdAt: new Date().toISOString() });
      await page.qa.voteOnQuestion({ questionId: id, value: 1 });
      // Back online (the browser says so: without its word the engine waits for its next probe, half a minute
      // away); the question goes, and the network drops again as the vote goes out.
      const dropAtTheVote = () =>
        browser.onNextWrite((write) => (write.path.endsWith('/vote') ? browser.setOnline(false) : dropAtTheVote()));
      dropAtTheVote();
      browser.setOnline(true);
      await page.backOnline();
      // The question acknowledged (its item gone), the vote tried and dropped: it waits, still queued.
      await vi.waitFor(
        async () => {
          const queued = await page.localDb.outbox.toArray();
          expect(queued.map((row) => [row.name, row.attempts])).toEqual([['qa.vote', 1]]);
        },
        { timeout: deadline(10_000), interval: 20 },
      );
      expect(await page.qa.myVotesTable.toArray()).toEqual([{ id, value: 1 }]);
      expect((await page.qa.questionsTable.get(id))?.upvotes).toBe(1);
    } finally {
      page.close();
      await deleteDatabase('tutorbook');
      vi.unstubAllGlobals();
    }
  });
});

interface TypedQuestion {
  title: string;
  text: string;
}
interface TypedAnswer {
  questionId: string;
  text: string;
}
interface TypedBooking {
  module: string;
  date: string;
  slots: string[];
  hours: number;
  concepts: string;
}

/** One random sequence: what the user typed, what the network and the server did, then the checks. */
async function runSequence(seed: number, started: Promise<ChaosServer>): Promise<Summary> {
  const began = Date.now();
  const random = createRandom(seed);
  const log: string[] = [];
  /** The step under way (0: before the first): each line of the log says in which step it happened. */
  let stepNo = 0;
  const note = (entry: string) =>
    log.push(
      `${String(Date.now() - began).padStart(5)} ms  ${stepNo === 0 ? '   ' : `#${String(stepNo).padEnd(2)}`} ${entry}`,
    );
  const labels = new Map<string, string>();
  const label = (id: string) => labels.get(id) ?? id.slice(0, 8);
  const typed = {
    questions: new Map<string, TypedQuestion>(),
    answers: new Map<string, TypedAnswer>(),
    /** The last vote set on each question. */
    votes: new Map<string, VoteValue>(),
    bookings: new Map<string, TypedBooking>(),
  };
  const counts = { kills: 0, midSend: 0, reloads: 0, outages: 0 };
  const heard = { changes: 0, resyncs: 0 };
  const problems: string[] = [];
  /**
   * What the device showed wrong between steps (the first of each kind), though it came right by the end. Reported,
   * not failed: whether a step looks inside the short window depends on timing (a live notice's refresh mends it
   * within milliseconds), so a failure would come and go with the machine's load. The known bug below reproduces
   * the one seen so far deterministically.
   */
  const glitches = new Map<string, string>();

  let server: ChaosServer | undefined;
  let page: Page | undefined;
  /** Restarts left to come up while the user goes on, and a kill waiting for the next request that writes. */
  const background = new Set<Promise<unknown>>();
  let disarm: (() => void) | undefined;
  let lostAnswers = () => 0;

  try {
    server = await started;
    // The run before may have ended with a kill and its restart under way.
    await server.settled();
    if (!server.running()) await server.start();
    const chaosServer = server;
    installLocalStorage();
    const browser = createBrowser(server.url);
    lostAnswers = browser.lostAnswers;
    const student = { name: 'Chaos Student', email: `student-${seed}@example.com` };
    await server.createStudent(student.name, student.email, password);

    // Questions someone else asked, already on the board when the student arrives.
    const asker = await server.createStudent('Other Asker', `asker-${seed}@example.com`, password);
    const elsewhere = createBrowser(server.url).openTab();
    const post = (path: string, body: unknown) =>
      elsewhere.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await expectOk(post('/api/auth/sign-in/email', { email: `asker-${seed}@example.com`, password }));
    for (let n = 1; n <= 3; n++) {
      const id = random.uuid();
      labels.set(id, `s${n}`);
      await expectOk(post('/api/questions', { id, title: `Seeded question ${n}`, text: `Asked by ${asker.id}` }));
    }

    page = await openPage(browser, { heard });
    const me = await page.logIn(student.email, password);
    note(`log in as ${student.email}`);
    const author = { id: me.id, name: me.name, role: me.role };
    /** Work that goes on while the user does (a restart, an armed kill); a failure of it fails the run. */
    const inBackground = (work: Promise<unknown>) => {
      const tracked = work
        .catch((error: unknown) => void problems.push(`in the background: ${String(error)}`))
        .finally(() => background.delete(tracked));
      background.add(tracked);
    };

    /**
     * After a kill: started again at once, while the user goes on, or left down until a later step. The page's live
     * stream reconnects by itself (after the server's `retry:`), gets `resync` from a process that does not know its
     * Last-Event-ID, and app/data-sync.tsx runs `reconnected`.
     */
    const afterKill = (what: string, { restart }: KillPlan) => {
      if (!restart) return note(`${what}; left down`);
      note(`${what}; restarting`);
      inBackground(chaosServer.start().then(() => note('server up again')));
    };
    // What the student sees first: the board and the catalogue, read as their pages read them.
    await page.engine.refreshSource(page.qa.questionsSource, { ifStale: true });
    await page.engine.refreshSource(page.catalogue.catalogueSource, { ifStale: true });
    const seeded = [...labels.keys()];

    const steps = random.int(10, 16);
    /** Kills done or armed: each restart costs a server start (half a second of CPU), so a run has two at most. */
    let killsLeft = 2;
    for (let step = 0; step < steps; step++) {
      // Each step draws from its own stream: a choice that hangs on timing (whether an armed kill has fired yet)
      // changes that step's draws only, and the seed's later steps stay the same.
      const draw = createRandom(Math.imul(seed, 0x9e3779b1) ^ (step + 1));
      stepNo = step + 1;
      const [backOnline, restart, roll] = [draw.chance(0.35), draw.chance(0.3), draw.next()];
      if (!browser.isOnline() && backOnline) {
        browser.setOnline(true);
        note('online');
        await page.backOnline();
      }
      if (!server.running() && restart) {
        await server.start();
        note('restart');
      }
      // The board shows the questions already on the server and the device's own (queued or sent).
      const shown = [...seeded, ...typed.questions.keys()];
      // Sometimes the answer to what the user types now is lost on its way back, once: the item goes again.
      const loseIt = draw.chance(0.35);
      /** Arms the loss before the item is queued (it goes at once); says so in the step's line. */
      const lose = (id: string) => {
        if (!loseIt) return '';
        browser.loseAnswerTo(id);
        return ' (its answer will be lost)';
      };
      if (roll < 0.13 && typed.questions.size < caps.questions) {
        const n = typed.questions.size + 1;
        const id = draw.uuid();
        labels.set(id, `q${n}`);
        const question = { title: `Question ${n} of seed ${seed}`, text: `Why does ${n} follow ${n - 1}?` };
        typed.questions.set(id, question);
        const lost = lose(id);
        await page.qa.askQuestion({ id, ...question, author, createdAt: new Date().toISOString() });
        note(`ask q${n}${lost}`);
      } else if (roll < 0.25 && typed.answers.size < caps.answers) {
        const questionId = draw.pick(shown);
        const n = typed.answers.size + 1;
        const id = draw.uuid();
        labels.set(id, `a${n}`);
        const text = `Answer ${n} of seed ${seed}`;
        typed.answers.set(id, { questionId, text });
        const lost = lose(id);
        await page.qa.answerQuestion({ id, questionId, text, author, createdAt: new Date().toISOString() });
        note(`answer a${n} to ${label(questionId)}${lost}`);
      } else if (roll < 0.4) {
        const questionId = draw.pick(shown);
        const value = draw.pick<VoteValue>([1, -1, 0]);
        typed.votes.set(questionId, value);
        const lost = lose(questionId);
        await page.qa.voteOnQuestion({ questionId, value });
        note(`vote ${value > 0 ? '+1' : value} on ${label(questionId)}${lost}`);
      } else if (roll < 0.48 && typed.bookings.size < caps.bookings) {
        const n = typed.bookings.size + 1;
        const id = draw.uuid();
        labels.set(id, `b${n}`);
        const lost = lose(id);
        const booking = await requestBooking(page, draw, { id, n, seed });
        typed.bookings.set(id, booking);
        note(`book b${n}: ${booking.module}, ${booking.date}${lost}`);
      } else if (roll < 0.55) {
        if (browser.isOnline()) {
          browser.setOnline(false);
          counts.outages += 1;
          note('offline (requests in flight lose their answers)');
        } else {
          browser.setOnline(true);
          note('online');
          await page.backOnline();
        }
      } else if (roll < 0.66) {
        const count = draw.int(1, 2);
        browser.loseAnswers(count);
        note(`the answers to the next ${count} writes will be lost`);
      } else if (roll < 0.79) {
        if (!server.running()) {
          await server.start();
          note('restart');
        } else if (killsLeft === 0) {
          note('(no kill left in this run)');
        } else if (!disarm && draw.chance(0.7)) {
          killsLeft -= 1;
          // Drawn now: the kill comes at no fixed step, and the seed's later choices must not depend on when.
          const plan = killPlan(draw, 0.7);
          const killed = async (what: string) => {
            if (!(await chaosServer.kill())) return note(`(armed kill at ${what}: the server was down already)`);
            counts.kills += 1;
            counts.midSend += 1;
            afterKill(`kill -9 ${what}`, plan);
          };
          if (draw.chance(0.5)) {
            // As the next write goes out: before the server commits it, or while it does.
            const ms = draw.int(0, 25);
            note(`kill -9 armed: ${ms} ms into the next write`);
            disarm = browser.onNextWrite((write) => {
              disarm = undefined;
              inBackground(delay(ms).then(() => killed(`${ms} ms into ${write.method} ${write.path}`)));
            });
          } else {
            // Once the server has done the next write and answered: the answer never reaches the page.
            note('kill -9 armed: once the next write is answered (the answer is lost)');
            disarm = browser.onNextAnswer(async (write) => {
              disarm = undefined;
              await killed(`after answering ${write.method} ${write.path}`);
            });
          }
        } else {
          killsLeft -= 1;
          const plan = killPlan(draw, 0.75);
          await server.kill();
          counts.kills += 1;
          afterKill('kill -9', plan);
        }
      } else if (roll < 0.88) {
        page.close();
        page = await openPage(browser, { heard });
        await page.start();
        counts.reloads += 1;
        note('reload');
      } else {
        const ms = draw.int(30, 250);
        note(`wait ${ms} ms`);
        await delay(ms);
      }
      await delay(draw.int(0, 30));
      await watchDevice(page, typed, label, `after step ${step + 1}`, glitches);
    }

    stepNo = 0;
    // The end: back online, the server up, every queued item sent (answers still to be lost are lost now, and their
    // items sent again), every source refreshed.
    disarm?.();
    while (background.size > 0) await Promise.all(background);
    if (!server.running()) await server.start();
    if (!browser.isOnline()) browser.setOnline(true);
    note('end: online, server up');
    await page.backOnline();
    const waiting = () => page!.localDb.outbox.filter((row) => row.state === 'waiting').count();
    const drainUntil = Date.now() + deadline(20_000);
    while ((await waiting()) > 0) {
      if (Date.now() > drainUntil) throw new Error(`the queue did not drain: ${await waiting()} items still waiting`);
      await delay(50);
      // An item whose answer was lost waits out a backoff: it goes at once when the browser is back online or the
      // stream resyncs (`reconnected`), as here, rather than after seconds.
      if (!page.engine.engine.getStatus().sending) await page.engine.reconnected();
    }
    for (const row of await page.localDb.outbox.toArray())
      problems.push(`queued item ${row.name} ${label(row.target.id)} needs attention: ${JSON.stringify(row.error)}`);
    const refreshed = await Promise.all(
      [page.qa.questionsSource, page.qa.myVotesSource, page.bookings.bookingsSource].map((source) =>
        page!.engine.refreshSource(source),
      ),
    );
    if (refreshed.some((result) => result !== 'ok')) problems.push(`final refresh: ${refreshed.join(', ')}`);
    note('drained and refreshed');

    await checkServer(server, page, { userId: me.id, email: student.email, seeded }, typed, label, problems);
  } catch (error) {
    problems.push(`the run stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    disarm?.();
    await Promise.allSettled(background);
    page?.close();
    await deleteDatabase('tutorbook').catch(() => undefined);
    vi.unstubAllGlobals();
  }

  const ms = Date.now() - began;
  const lost = lostAnswers();
  const what = `${log.length} steps; ${typed.questions.size} questions, ${typed.answers.size} answers, ${typed.votes.size} questions voted on, ${typed.bookings.size} bookings; ${counts.kills} kills (${counts.midSend} mid-send), ${counts.reloads} reloads, ${counts.outages} outages, ${lost} answers lost; heard ${heard.changes} notices, ${heard.resyncs} resyncs`;
  if (problems.length === 0)
    return {
      seed,
      ok: true,
      ms,
      steps: log,
      line: `seed ${seed}: ok in ${(ms / 1000).toFixed(1)} s (${what})${[...glitches.values()].map((g) => `\n  shown wrong on the way: ${g}`).join('')}`,
    };
  return {
    seed,
    ok: false,
    ms,
    steps: log,
    line: [
      `seed ${seed}: FAILED (${what})`,
      ...problems.map((p) => `  - ${p}`),
      ...[...glitches.values()].map((g) => `  shown wrong on the way: ${g}`),
      'steps:',
      ...log.map((entry) => `  ${entry}`),
      `server output (last lines):\n${server?.output() || '  (none)'}`,
      `reproduce: npm run chaos -- --runs 1 --seed ${seed}`,
    ].join('\n'),
  };
}

/**
 * What the user sees between steps: everything typed is on the device (sent or not), and each question shows the
 * vote last set (rule 2 and rule 9 of OFFLINE-ENGINE.md: no refresh or answer reverts local work).
 */
async function watchDevice(
  page: Page,
  typed: {
    questions: Map<string, unknown>;
    answers: Map<string, unknown>;
    votes: Map<string, VoteValue>;
    bookings: Map<string, unknown>;
  },
  label: (id: string) => string,
  when: string,
  glitches: Map<string, string>,
): Promise<void> {
  const [questions, answers, votes, bookings] = await Promise.all([
    page.qa.questionsTable.toCollection().primaryKeys(),
    page.qa.answersTable.toCollection().primaryKeys(),
    page.qa.myVotesTable.toArray(),
    page.bookings.bookingsTable.toCollection().primaryKeys(),
  ]);
  const missing = (kind: string, ids: Iterable<string>, held: string[]) => {
    const gone = [...ids].filter((id) => !held.includes(id)).map(label);
    if (gone.length > 0 && !glitches.has(kind))
      glitches.set(kind, `${when}: ${kind} ${gone.join(', ')} not on the device`);
  };
  missing('questions', typed.questions.keys(), questions);
  missing('answers', typed.answers.keys(), answers);
  missing('bookings', typed.bookings.keys(), bookings);
  const shown = new Map(votes.map((v) => [v.id, v.value]));
  const wrong = [...typed.votes].filter(([id, value]) => (shown.get(id) ?? 0) !== value);
  if (wrong.length > 0 && !glitches.has('votes'))
    glitches.set(
      'votes',
      `${when}: ${wrong.map(([id, value]) => `${label(id)} shows ${shown.get(id) ?? 0}, set to ${value}`).join('; ')}`,
    );
}

/** What follows a kill: a restart at once (the user going on meanwhile), or none until a later step. */
interface KillPlan {
  restart: boolean;
}

const killPlan = (random: Random, restartChance: number): KillPlan => ({ restart: random.chance(restartChance) });

/** The booking page's request (booking-page.tsx `submit`): the module as the catalogue has it, checked by the form's rules. */
async function requestBooking(
  page: Page,
  random: Random,
  { id, n, seed }: { id: string; n: number; seed: number },
): Promise<TypedBooking> {
  const modules = (await page.catalogue.modulesTable.toArray()).sort((a, b) => (a.name < b.name ? -1 : 1));
  // A module of the catalogue (the page read it after the log-in), or a subject it does not know.
  const custom = random.chance(0.3);
  const name = custom || modules.length === 0 ? 'Chaos theory' : random.pick(modules).name;
  const module = page.bookingRules.moduleInfo(name, modules);
  const slots = [...slotTimes];
  const chosen = Array.from({ length: 3 }, () => slots.splice(random.int(0, slots.length - 1), 1)[0]!);
  const values = {
    date: sastDate(new Date(Date.now() + random.int(4, 40) * dayMs)),
    slots: chosen as [string, string, string],
    hours: String(random.int(1, 3)),
    concepts: `Concepts for booking ${n} of seed ${seed}`,
  };
  const checked = page.bookingRules.checkBookingForm(
    { id, module: module.name, values },
    { now: new Date(), leadHours: 48 },
  );
  if (checked.errors) throw new Error(`The booking form refused its own input: ${JSON.stringify(checked.errors)}`);
  const me = page.me()!;
  await page.bookings.requestBooking({
    ...checked.data,
    student: { id: me.id, name: me.name, email: me.email },
    moduleCategory: module.category,
    priceCentsPerHour: module.rateCents,
    createdAt: new Date().toISOString(),
  });
  return {
    module: checked.data.module,
    date: values.date,
    slots: values.slots,
    hours: checked.data.hours,
    concepts: values.concepts,
  };
}

const omit = <T extends object, K extends keyof T>(value: T, keys: K[]): Omit<T, K> =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;

async function expectOk(answer: Promise<Response>): Promise<void> {
  const response = await answer;
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
}

/**
 * The checks: the server's database holds everything typed exactly once and as typed, the vote counts equal the last
 * vote set, and the device's tables equal what the server answers the user.
 */
async function checkServer(
  server: ChaosServer,
  page: Page,
  { userId, email, seeded }: { userId: string; email: string; seeded: string[] },
  typed: {
    questions: Map<string, TypedQuestion>;
    answers: Map<string, TypedAnswer>;
    votes: Map<string, VoteValue>;
    bookings: Map<string, TypedBooking>;
  },
  label: (id: string) => string,
  problems: string[],
): Promise<void> {
  const db = server.db();
  const same = (what: string, stored: unknown, expected: unknown) => {
    if (!isDeepStrictEqual(stored, expected))
      problems.push(`${what}:\n      stored   ${JSON.stringify(stored)}\n      expected ${JSON.stringify(expected)}`);
  };
  const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

  // Questions and answers: each typed one stored once, with what was typed, and nothing else under this user.
  const questions = await db.selectFrom('questions').selectAll().where('user_id', '=', userId).execute();
  same(
    'questions stored',
    byId(questions.map((q) => ({ id: label(q.id), title: q.title, text: q.text }))),
    byId([...typed.questions].map(([id, q]) => ({ id: label(id), ...q }))),
  );
  const answers = await db.selectFrom('answers').selectAll().where('user_id', '=', userId).execute();
  same(
    'answers stored',
    byId(answers.map((a) => ({ id: label(a.id), questionId: label(a.question_id), text: a.text }))),
    byId([...typed.answers].map(([id, a]) => ({ id: label(id), questionId: label(a.questionId), text: a.text }))),
  );

  // Votes: the user's vote on each question is the last one set, and each question's counts hold it once.
  const votes = await db.selectFrom('question_votes').selectAll().where('user_id', '=', userId).execute();
  same(
    'votes stored',
    byId(votes.map((v) => ({ id: label(v.question_id), value: v.value }))),
    byId([...typed.votes].filter(([, value]) => value !== 0).map(([id, value]) => ({ id: label(id), value }))),
  );
  // This run's questions: nobody else votes on them.
  const ours = [...seeded, ...typed.questions.keys()];
  const counted = await db
    .selectFrom('questions')
    .select(['id', 'upvotes', 'downvotes'])
    .where('id', 'in', ours)
    .execute();
  same(
    'vote counts',
    byId(counted.map((q) => ({ id: label(q.id), upvotes: q.upvotes, downvotes: q.downvotes }))),
    byId(
      ours.map((id) => {
        const last = typed.votes.get(id) ?? 0;
        return { id: label(id), upvotes: last === 1 ? 1 : 0, downvotes: last === -1 ? 1 : 0 };
      }),
    ),
  );

  // Bookings: each request stored once, as typed, with one history entry and one receipt e-mail.
  const bookings = await db.selectFrom('bookings').selectAll().where('user_id', '=', userId).execute();
  same(
    'bookings stored',
    byId(
      bookings.map((b) => ({
        id: label(b.id),
        module: b.module_name,
        date: b.date,
        slots: [b.slot1, b.slot2, b.slot3],
        hours: b.hours,
        concepts: b.concepts,
        status: b.status,
      })),
    ),
    byId([...typed.bookings].map(([id, b]) => ({ id: label(id), ...b, status: 'Pending' }))),
  );
  const ids = bookings.map((b) => b.id);
  const history = ids.length
    ? await db.selectFrom('booking_changes').select('booking_id').where('booking_id', 'in', ids).execute()
    : [];
  same(
    'booking history entries per booking',
    byId(ids.map((id) => ({ id: label(id), entries: history.filter((h) => h.booking_id === id).length }))),
    byId(ids.map((id) => ({ id: label(id), entries: 1 }))),
  );
  const receipts = await db
    .selectFrom('email_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('kind', '=', 'booking-receipt')
    .execute();
  same(
    'receipt e-mails per booking (by payment reference)',
    byId(
      bookings.map((b) => ({
        id: label(b.id),
        receipts: receipts.filter((r) => r.text_body.includes(b.payment_reference)).length,
      })),
    ),
    byId(bookings.map((b) => ({ id: label(b.id), receipts: 1 }))),
  );
  same('receipt e-mails', receipts.length, typed.bookings.size);

  // The device: its tables equal what the server answers this user (the shapes the sources store).
  const read = async <T>(path: string): Promise<T> => {
    const response = await page.tab.fetch(path);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  // Every question on the server as this user reads it (other runs' too): the changes since version 0, page by page.
  const board = new Map<string, Question>();
  for (let since: number | string = 0, more = true; more;) {
    const changes: QuestionChanges = await read<QuestionChanges>(`/api/questions?since=${since}`);
    for (const question of changes.questions) board.set(question.id, question);
    ({ version: since, more } = changes);
  }
  const local = {
    questions: byId(await page.qa.questionsTable.toArray()),
    answers: byId(await page.qa.answersTable.toArray()),
    myVotes: byId(await page.qa.myVotesTable.toArray()),
    bookings: byId(await page.bookings.bookingsTable.toArray()),
  };
  const onDevice = new Set(local.questions.map((q) => q.id));
  same("this run's questions on the device", ours.filter((id) => !onDevice.has(id)).map(label), []);
  // A question row is the API's question without its answers and the reader's vote (qa.sync.ts `toRow`).
  same(
    'questions on the device',
    local.questions,
    local.questions.map((q) => {
      const question = board.get(q.id);
      return question ? omit(question, ['answers', 'myVote']) : `${q.id}: not on the server`;
    }),
  );
  same('answers on the device', local.answers, byId(local.questions.flatMap((q) => board.get(q.id)?.answers ?? [])));
  const myVotes = await read<MyVotes>('/api/questions/my-votes');
  same(
    "the user's votes on the device",
    local.myVotes,
    byId(myVotes.votes.map((v) => ({ id: v.questionId, value: v.value }))),
  );
  const serverBookings = await read<{ bookings: Booking[] }>('/api/bookings');
  same('bookings on the device', local.bookings, byId(serverBookings.bookings));
}
