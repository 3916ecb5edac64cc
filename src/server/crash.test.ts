import type { DocumentSnapshot, Firestore } from 'firebase-admin/firestore';
import { sql } from 'kysely';
import pg from 'pg';
import { expect, test } from 'vitest';
import { bookingChangesSchema, bookingSchema, type Booking } from '../common/bookings.ts';
import { myVotesSchema, questionSchema } from '../common/qa.ts';
import { sastDate } from '../common/sast.ts';
import { insertVerifiedUserThroughAuth } from './auth/verified-users.ts';
import { createDb, type Db } from './db/create-db.ts';
import { loadEnv } from './env.ts';
import { addStaff } from './modules/staff/staff.usecases.ts';
import { createServices } from './server.ts';
import { connectFirestore } from './storage/firestore/connect.ts';
import { createClient, delay, onFirestore, testPassword, waitFor, type Json, type TestClient } from './test/harness.ts';
import { createMainData, startMainProcess, type MainData } from './test/main-process.ts';
import { seededRandom, type SeededRandom } from './test/random.ts';
import { deadline } from './test/deadline.ts';

/**
 * OFFLINE-ENGINE.md scenario 7: the server dies mid-request and restarts; what committed is not applied twice.
 *
 * `main.ts` runs as its own process on a data folder (and, with TEST_DATABASE_URL, a PostgreSQL database) that
 * outlives it. Users write the way the offline engine sends its outbox: every post carries an id the client
 * made, votes set a value, a write waits for what it depends on (an answer for its question, a confirmation
 * for its booking, a vote for the same user's previous vote on that question), and a request whose answer did
 * not come is sent again, unchanged, until it gets a 2xx. The server is killed with SIGKILL while requests are
 * in flight, at a moment when the database already holds the effect of a request whose answer it has not yet
 * written (see runLife), and restarted on the same data; three times. At the end every effect is in the
 * database once: rows, vote counts, booking history, e-mails; and no answer was a 5xx (or any other refusal).
 */

const hour = 3_600_000;
const day = 24 * hour;

/**
 * Requests in flight at once (the server answers them one transaction after another). Fewer on Firestore, whose
 * emulator locks what a transaction reads: 24 at once on the same few questions and counters made the life
 * after the kill take 100 to 200 s of lock waits and backoff.
 */
const concurrency = onFirestore ? 8 : 24;
/**
 * How many times the server is killed; after the last restart everything left is sent. Once on Firestore: there
 * a killed server's transactions keep their locks until Firestore drops them (the emulator: a minute idle), so
 * each life after a kill waits that long on the documents they held (about 70 s a kill).
 */
const crashes = onFirestore ? 1 : 3;

type Role = 'student' | 'tutor' | 'admin';
interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
  client: TestClient;
}

type Effect =
  | { kind: 'question'; id: string }
  | { kind: 'answer'; id: string; questionId: string }
  | { kind: 'vote'; questionId: string; value: 1 | -1 | 0; last: boolean }
  | { kind: 'booking'; id: string; category: 'Statistics' | 'Mathematics' | 'Uncategorized' }
  | { kind: 'confirm'; bookingId: string; slot: string };

interface Task {
  effect: Effect;
  by: Person;
  method: 'POST' | 'PUT';
  path: string;
  /** Made when first sent (a confirmation carries the version its booking was created at), then resent as is. */
  body?: unknown;
  makeBody: () => unknown;
  /** Sent only once these have their 2xx (OFFLINE-ENGINE.md client rule 4). */
  after: Task[];
  done: boolean;
  /** The 2xx that ended it. */
  answer?: { status: number; body: Json };
  /** A non-2xx answer: a defect, reported at the end (the task is not sent again). */
  refused?: { status: number; text: string };
  /** The life of the server in which its last attempt got no answer, not yet classified. */
  lostIn?: number;
  /** How the last loss was classified: the server had stored its effect (the answer was what got lost). */
  committedWhenLost?: boolean;
  /** Went unanswered while the server was up (not the kill), and was sent again. */
  lostWhileUp?: boolean;
  attempts: number;
}

interface Figures {
  /** Answered with a 2xx in this life of the server. */
  succeeded: number;
  /** In flight at the kill, and the database holds its effect: the answer was lost. */
  committedButLost: number;
  /** Their kinds. */
  committedKinds: string[];
  /** In flight at the kill, and nothing of it is in the database: it never arrived, or was rolled back. */
  neverApplied: number;
  /** Sent again in this life after an earlier loss. */
  resent: number;
  /** Unanswered while the server was up (a connection the kill left behind), and sent again. */
  lostWhileUp: number;
  /** How long the life lasted, from the first request to the kill (or the last answer). */
  ms: number;
  /** How many times the server was frozen before the kill (see runLife). */
  freezes: number;
  /** Answered 503 "server busy" or "storage busy" (the client sends it again later) and sent again. */
  busy: number;
}

test(
  'the server killed mid-request and restarted applies every question, answer, vote and booking once',
  async () => {
    const rng = seededRandom();
    const seed = rng.seed;
    const data = await createMainData({ BOOKING_MIN_LEAD_HOURS: '48' });
    let db: Inspection | undefined;
    let main: Awaited<ReturnType<typeof startMainProcess>> | undefined;
    const startedAt = Date.now();
    try {
      const accounts = await createAccounts(data);
      db = await openInspection(data);
      main = await startMainProcess(data);
      const people = await Promise.all(accounts.map((a) => logIn(data.url, a)));
      const tutor = people.find((p) => p.role === 'tutor')!;
      const admin = people.find((p) => p.role === 'admin')!;

      const tasks = makeWorkload(rng, people, { tutor, admin });
      const total = tasks.length;

      // Lives of the server: each but the last ends in a SIGKILL mid-request, after a random share of what is
      // left has been answered. Then each request left without an answer is classified by what the database
      // holds, and the next life sends it again.
      const figures: Figures[] = [];
      for (let life = 0; life <= crashes; life++) {
        const remaining = tasks.filter((t) => !t.done && !t.refused).length;
        const killAfter =
          life < crashes ? Math.floor((remaining / (crashes + 1 - life)) * (0.3 + 0.5 * rng.next())) : undefined;
        const lifeFigures = await runLife({ life, tasks, main, db, killAfter });
        figures.push(lifeFigures);
        if (life === crashes) break;
        await db.settle();
        const lost = tasks.filter((t) => t.lostIn === life);
        for (const task of lost) {
          task.committedWhenLost = await isStored(db, task);
          task.lostIn = undefined;
          if (task.committedWhenLost) {
            lifeFigures.committedButLost += 1;
            lifeFigures.committedKinds.push(task.effect.kind);
          } else lifeFigures.neverApplied += 1;
        }
        main = await startMainProcess(data);
      }

      const sum = (key: Exclude<keyof Figures, 'committedKinds'>) => figures.reduce((n, f) => n + f[key], 0);
      const kindsOf = (list: string[]) =>
        Object.entries(Object.groupBy(list, (k) => k))
          .map(([k, ks]) => `${ks!.length} ${k}`)
          .join(', ');
      const kinds = Object.entries(Object.groupBy(tasks, (t) => t.effect.kind)).map(([k, ts]) => `${ts!.length} ${k}s`);
      process.stdout.write(
        [
          `crash test (${db.engine}, seed ${seed}): ${total} writes (${kinds.join(', ')}), ${concurrency} in flight, ${crashes} kills, ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
          ...figures.map(
            (f, life) =>
              `  life ${life + 1} (${f.ms} ms): ${f.succeeded} answered 2xx, ${f.resent} resends` +
              (f.busy ? `, ${f.busy} answered 503 busy and sent again` : '') +
              (life < crashes
                ? `; killed after ${f.freezes} freezes: ${f.committedButLost} committed but answer lost (${kindsOf(f.committedKinds)}), ${f.neverApplied} never applied`
                : ''),
          ),
          `  in all: ${sum('committedButLost')} committed but answer lost, ${sum('neverApplied')} never applied, ${sum('resent')} resends (${sum('lostWhileUp')} unanswered while up), ${total} succeeded once each`,
          '',
        ].join('\n'),
      );

      // Every write ended in a 2xx; none was refused (a 5xx above all) on the way.
      expect(
        tasks.filter((t) => t.refused).map((t) => `${t.method} ${t.path}: ${t.refused!.status} ${t.refused!.text}`),
      ).toEqual([]);
      expect(tasks.filter((t) => !t.done)).toEqual([]);
      // The kills did land mid-request: some writes were stored and their answers lost.
      expect(sum('committedButLost')).toBeGreaterThan(0);
      // A post stored before its answer was lost is answered 200 with the stored row when resent; one that never
      // arrived is created (201) when resent.
      for (const task of tasks) {
        const created =
          task.effect.kind === 'question' || task.effect.kind === 'answer' || task.effect.kind === 'booking';
        if (created) expect(task.answer!.body.id).toBe(idOf(task));
        if (task.lostWhileUp) continue;
        expect(task.answer!.status, `${task.method} ${task.path}`).toBe(created && !task.committedWhenLost ? 201 : 200);
      }

      await checkQuestionsAndAnswers(db, tasks, people, data.url);
      await checkBookings(db, tasks, { tutor, admin });
    } finally {
      await main?.stop();
      await db?.close();
      await data.remove();
    }
  },
  // On Firestore's emulator the three lives take about a minute (SQLite: a few seconds).
  onFirestore ? 240_000 : 180_000,
);

// ---------------------------------------------------------------------------------------------------------
// Setting up

const studentCount = 6;

/**
 * Verified accounts written to storage before the server starts, through better-auth's adapter (any engine):
 * six students, a tutor, the admin.
 */
async function createAccounts(data: MainData) {
  const wanted = [
    ...Array.from({ length: studentCount }, (_, i) => ({ role: 'student' as const, name: `Student ${i + 1}` })),
    { role: 'tutor' as const, name: 'Musa Stats' },
    { role: 'admin' as const, name: 'Lerato Admin' },
  ].map((a) => ({ ...a, email: `${a.role}-${crypto.randomUUID().slice(0, 8)}@example.com` }));
  const services = await createServices(loadEnv({ ...data.env, LOG_LEVEL: 'silent' }));
  try {
    const { adapter, password } = await services.auth.$context;
    const hash = await password.hash(testPassword);
    const accounts = [];
    for (const a of wanted) accounts.push({ ...a, id: (await insertVerifiedUserThroughAuth(adapter, a, hash)).id });
    const staffDeps = { ...services.deps, auth: services.auth };
    for (const a of accounts) {
      if (a.role === 'tutor') await addStaff(staffDeps, { email: a.email, role: 'tutor', categories: ['Statistics'] });
      if (a.role === 'admin') await addStaff(staffDeps, { email: a.email, role: 'admin' });
    }
    return accounts;
  } finally {
    await services.close();
  }
}

async function logIn(url: string, account: { id: string; name: string; email: string; role: Role }) {
  const client = createClient(url);
  const response = await client.post('/api/auth/sign-in/email', { email: account.email, password: testPassword });
  if (response.status !== 200) throw new Error(`Login failed: ${response.status} ${response.text}`);
  const me = await client.get('/api/me');
  expect(me.body.role).toBe(account.role);
  return { ...account, client };
}

// ---------------------------------------------------------------------------------------------------------
// Looking at what the killed server stored

interface StoredQuestion {
  id: string;
  userId: string | null;
  upvotes: number;
  downvotes: number;
}
interface StoredAnswer {
  id: string;
  questionId: string;
  userId: string | null;
}
interface StoredVote {
  questionId: string;
  userId: string;
  value: number;
}
interface StoredBooking {
  id: string;
  userId: string | null;
  status: string;
  confirmedSlot: string | null;
  paymentReference: string;
  /** Its history, one `from>to slot` per change. */
  history: string[];
}

/**
 * What the test reads of the storage the server writes, through a connection of its own that outlives the
 * server's. Without `ids`, everything stored.
 */
interface Inspection {
  engine: 'SQLite' | 'PostgreSQL' | 'Firestore';
  questions(ids?: readonly string[]): Promise<StoredQuestion[]>;
  answers(ids?: readonly string[]): Promise<StoredAnswer[]>;
  votes(questionIds?: readonly string[]): Promise<StoredVote[]>;
  bookings(ids?: readonly string[]): Promise<StoredBooking[]>;
  /** The e-mails about bookings in the outbox. */
  bookingEmails(): Promise<{ kind: string; to: string; text: string }[]>;
  /** Waits until nothing a killed server had sent can still commit. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const historyLine = (from: string | null, to: string, slot: string | null) => `${from}>${to} ${slot}`;

function openInspection(data: MainData): Promise<Inspection> {
  const url = data.env.DATABASE_URL!;
  return url.startsWith('firestore://') ? openFirestoreInspection(data) : Promise.resolve(openSqlInspection(data));
}

/** Named, so that it can tell its own connections from the server's on PostgreSQL. */
const inspectionName = 'tutorbook-crash-test';

function openSqlInspection(data: MainData): Inspection {
  const url = data.env.DATABASE_URL!;
  const sqlite = url.startsWith('file:');
  const named = new URL(url);
  if (!sqlite) named.searchParams.set('application_name', inspectionName);
  const db: Db = createDb(sqlite ? url : named.toString()).db;
  const where = <T>(ids: readonly string[] | undefined, query: T, filter: (q: T, ids: readonly string[]) => T) =>
    ids ? filter(query, ids) : query;
  return {
    engine: sqlite ? 'SQLite' : 'PostgreSQL',
    async questions(ids) {
      if (ids?.length === 0) return [];
      const rows = await where(
        ids,
        db.selectFrom('questions').select(['id', 'user_id', 'upvotes', 'downvotes']),
        (q, list) => q.where('id', 'in', list),
      ).execute();
      return rows.map((r) => ({ id: r.id, userId: r.user_id, upvotes: r.upvotes, downvotes: r.downvotes }));
    },
    async answers(ids) {
      if (ids?.length === 0) return [];
      const rows = await where(ids, db.selectFrom('answers').select(['id', 'question_id', 'user_id']), (q, list) =>
        q.where('id', 'in', list),
      ).execute();
      return rows.map((r) => ({ id: r.id, questionId: r.question_id, userId: r.user_id }));
    },
    async votes(questionIds) {
      if (questionIds?.length === 0) return [];
      const rows = await where(
        questionIds,
        db.selectFrom('question_votes').select(['question_id', 'user_id', 'value']),
        (q, list) => q.where('question_id', 'in', list),
      ).execute();
      return rows.map((r) => ({ questionId: r.question_id, userId: r.user_id, value: Number(r.value) }));
    },
    async bookings(ids) {
      if (ids?.length === 0) return [];
      const rows = await where(
        ids,
        db.selectFrom('bookings').select(['id', 'user_id', 'status', 'confirmed_slot', 'payment_reference']),
        (q, list) => q.where('id', 'in', list),
      ).execute();
      const changes = await where(
        ids,
        db.selectFrom('booking_changes').select(['booking_id', 'from_status', 'to_status', 'slot']),
        (q, list) => q.where('booking_id', 'in', list),
      ).execute();
      const changesOf = Map.groupBy(changes, (c) => c.booking_id);
      return rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        status: r.status,
        confirmedSlot: r.confirmed_slot,
        paymentReference: r.payment_reference,
        history: (changesOf.get(r.id) ?? []).map((c) => historyLine(c.from_status, c.to_status, c.slot)),
      }));
    },
    async bookingEmails() {
      const rows = await db
        .selectFrom('email_outbox')
        .select(['kind', 'to_address', 'text_body'])
        .where('kind', 'like', 'booking-%')
        .execute();
      return rows.map((r) => ({ kind: r.kind, to: r.to_address, text: r.text_body }));
    },
    // PostgreSQL finishes what a dead client had already sent (a COMMIT on its way), so a killed server's
    // connections may still commit for a moment: wait until they are gone. SQLite has no server.
    async settle() {
      if (sqlite) return;
      await waitFor(
        async () => {
          const { rows } = await sql<{ n: string }>`
            select count(*) as n from pg_stat_activity
            where datname = current_database() and application_name <> ${inspectionName}`.execute(db);
          return Number(rows[0]!.n) === 0;
        },
        "the killed server's database connections to end",
        20_000,
      );
    },
    // pg's pool.end() resolves before its connections have closed, and one still closing when the database is
    // dropped (WITH FORCE) would be terminated and throw out of the test: wait until they are gone.
    async close() {
      await db.destroy();
      if (sqlite) return;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await waitFor(async () => {
          const { rows } = await client.query<{ n: string }>(
            'select count(*) as n from pg_stat_activity where application_name = $1',
            [inspectionName],
          );
          return Number(rows[0]!.n) === 0;
        }, "this test's database connections to close");
      } finally {
        await client.end();
      }
    },
  };
}

/** Firestore's `in` takes at most 30 values. */
const inChunks = (ids: readonly string[]) =>
  Array.from({ length: Math.ceil(ids.length / 30) }, (_, i) => ids.slice(i * 30, (i + 1) * 30));

/** The same, on the emulator's project: the documents of docs/firestore-layout.md, read as they are. */
async function openFirestoreInspection(data: MainData): Promise<Inspection> {
  const { firestoreProjectId, firestoreDatabaseId } = loadEnv({ DATABASE_URL: data.env.DATABASE_URL });
  const connection = await connectFirestore({
    projectId: firestoreProjectId!,
    databaseId: firestoreDatabaseId,
    emulatorHost: data.env.FIRESTORE_EMULATOR_HOST,
    probeTimeoutMs: deadline(10_000),
  });
  const firestore: Firestore = connection.firestore;
  /** The documents of `collection` with these ids (those that exist), or all of them. */
  const docs = async (collection: string, ids?: readonly string[]): Promise<DocumentSnapshot[]> => {
    const of = firestore.collection(collection);
    if (!ids) return (await of.get()).docs;
    if (ids.length === 0) return [];
    return (await firestore.getAll(...ids.map((id) => of.doc(id)))).filter((d) => d.exists);
  };
  return {
    engine: 'Firestore',
    async questions(ids) {
      return (await docs('questions', ids)).map((d) => ({
        id: d.id,
        userId: d.get('userId') as string | null,
        upvotes: d.get('upvotes') as number,
        downvotes: d.get('downvotes') as number,
      }));
    },
    async answers(ids) {
      return (await docs('answers', ids)).map((d) => ({
        id: d.id,
        questionId: d.get('questionId') as string,
        userId: d.get('userId') as string | null,
      }));
    },
    async votes(questionIds) {
      const votes = firestore.collection('questionVotes');
      const found = questionIds
        ? (await Promise.all(inChunks(questionIds).map((ids) => votes.where('questionId', 'in', ids).get()))).flatMap(
            (q) => q.docs,
          )
        : (await votes.get()).docs;
      return found.map((d) => ({
        questionId: d.get('questionId') as string,
        userId: d.get('userId') as string,
        value: d.get('value') as number,
      }));
    },
    async bookings(ids) {
      return (await docs('bookings', ids)).map((d) => ({
        id: d.id,
        userId: d.get('userId') as string | null,
        status: d.get('status') as string,
        confirmedSlot: d.get('confirmedSlot') as string | null,
        paymentReference: d.get('paymentReference') as string,
        history: (d.get('history') as { from: string | null; to: string; slot: string | null }[]).map((c) =>
          historyLine(c.from, c.to, c.slot),
        ),
      }));
    },
    async bookingEmails() {
      return (await docs('emailOutbox'))
        .filter((d) => (d.get('kind') as string).startsWith('booking-'))
        .map((d) => ({ kind: d.get('kind') as string, to: d.get('to') as string, text: d.get('text') as string }));
    },
    // A commit the killed server had sent is still delivered and applied (the kernel sends what a dead process's
    // socket holds), after waiting for its locks if it must (the emulator gives up on a lock within about a
    // second): settled once nothing has changed for two seconds.
    async settle() {
      const fingerprint = async () =>
        JSON.stringify(
          await Promise.all(
            ['questions', 'answers', 'questionVotes', 'bookings'].map(async (name) =>
              (await firestore.collection(name).get()).docs.map((d) => `${d.id}@${d.updateTime.toMillis()}`).sort(),
            ),
          ),
        );
      await waitFor(
        async () => {
          const before = await fingerprint();
          await delay(2_000);
          return before === (await fingerprint());
        },
        "the killed server's last commits to land",
        30_000,
      );
    },
    close: () => connection.close(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The workload

const modules = [
  { name: 'Introduction to Statistics', category: 'Statistics' },
  { name: 'FET Mathematics', category: 'Mathematics' },
  { name: 'Origami for Engineers', category: 'Uncategorized' },
] as const;
const slots = ['09:00', '14:00', '17:30'];

/**
 * Per user: 2 questions, 6 answers (posts stay within the board's 20 per 10 minutes), votes on 8 questions in
 * chains of 1 to 3 values, each different from the one before (so a stored value tells whether the last one
 * sent arrived); per student 5 booking requests (within 10 an hour), 2 each for the tutor and the admin; staff
 * confirm about half of them.
 */
function makeWorkload(rng: SeededRandom, people: Person[], staff: { tutor: Person; admin: Person }) {
  const tasks: Task[] = [];
  const add = (task: Omit<Task, 'done' | 'attempts'>) => {
    const full: Task = { ...task, done: false, attempts: 0 };
    tasks.push(full);
    return full;
  };

  const questions = people.flatMap((by, u) =>
    [0, 1].map((n) => {
      const id = crypto.randomUUID();
      const body = { id, title: `Crash question ${u}-${n}`, text: `Asked by ${by.name}, written offline.` };
      return add({
        effect: { kind: 'question', id },
        by,
        method: 'POST',
        path: '/api/questions',
        makeBody: () => body,
        after: [],
      });
    }),
  );
  for (const by of people) {
    for (const question of rng.shuffle(questions).slice(0, 6)) {
      const id = crypto.randomUUID();
      const questionId = (question.effect as { id: string }).id;
      const body = { id, text: `An answer by ${by.name}.` };
      add({
        effect: { kind: 'answer', id, questionId },
        by,
        method: 'POST',
        path: `/api/questions/${questionId}/answers`,
        makeBody: () => body,
        after: [question],
      });
    }
    for (const question of rng.shuffle(questions).slice(0, 8)) {
      const questionId = (question.effect as { id: string }).id;
      let previous: Task | undefined;
      let value: 1 | -1 | 0 = rng.pick([1, -1] as const);
      for (let n = rng.int(1, 3); n > 0; n--) {
        const body = { value };
        previous = add({
          effect: { kind: 'vote', questionId, value, last: n === 1 },
          by,
          method: 'PUT',
          path: `/api/questions/${questionId}/vote`,
          makeBody: () => body,
          after: previous ? [question, previous] : [question],
        });
        const current: 1 | -1 | 0 = value;
        value = rng.pick(([1, -1, 0] as const).filter((v) => v !== current));
      }
    }
  }

  let requestDays = 0;
  for (const by of people) {
    const count = by.role === 'student' ? 5 : 2;
    for (let n = 0; n < count; n++) {
      const id = crypto.randomUUID();
      const module = rng.pick(modules);
      const body = {
        id,
        module: module.name,
        // A day of its own: the tutor confirms many of them, and two of their sessions at one time would clash.
        date: sastDate(new Date(Date.now() + (10 + requestDays++) * day)),
        slots,
        hours: rng.int(1, 3),
        concepts: `Concepts for request ${n} of ${by.name}`,
      };
      const booking = add({
        effect: { kind: 'booking', id, category: module.category },
        by,
        method: 'POST',
        path: '/api/bookings',
        makeBody: () => body,
        after: [],
      });
      if (rng.next() < 0.5) {
        // The tutor confirms Statistics bookings, but not their own (they are its student): the admin does.
        const confirmer =
          module.category === 'Statistics' && by !== staff.tutor ? rng.pick([staff.tutor, staff.admin]) : staff.admin;
        const slot = rng.pick(slots);
        add({
          effect: { kind: 'confirm', bookingId: id, slot },
          by: confirmer,
          method: 'POST',
          path: `/api/bookings/${id}/confirm`,
          // The version the staff member read: the booking as created (nobody else changes it here).
          makeBody: () => ({ slot, version: bookingSchema.parse(booking.answer!.body).version }),
          after: [booking],
        });
      }
    }
  }
  return rng.shuffle(tasks);
}

// ---------------------------------------------------------------------------------------------------------
// Sending

/**
 * One life of the server: sends every task whose dependencies are done, `concurrency` at a time, until all are
 * done or, with `killAfter`, until the kill, which comes once `killAfter` answers have arrived.
 */
async function runLife(args: {
  life: number;
  tasks: Task[];
  main: { pause(): void; resume(): void; kill(): Promise<void>; output(): string };
  db: Inspection;
  killAfter?: number;
}) {
  const { life, tasks, main, db, killAfter } = args;
  const figures: Figures = {
    succeeded: 0,
    committedButLost: 0,
    committedKinds: [],
    neverApplied: 0,
    resent: 0,
    lostWhileUp: 0,
    ms: 0,
    freezes: 0,
    busy: 0,
  };
  const began = Date.now();
  const inFlight = new Set<Task>();
  let down = false;
  let answered = 0;
  let finished = false;

  async function send(task: Task) {
    task.body ??= task.makeBody();
    if (task.attempts > 0) figures.resent += 1;
    task.attempts += 1;
    try {
      const response = await task.by.client.request(task.path, {
        method: task.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(task.body),
      });
      answered += 1;
      if (response.status >= 200 && response.status < 300) {
        task.done = true;
        task.answer = { status: response.status, body: response.body };
        figures.succeeded += 1;
      } else if (
        response.status === 503 &&
        (response.body?.error?.code === 'server.busy' || (onFirestore && response.body?.error?.code === 'storage.busy'))
      ) {
        // Refused before it did anything, as the client's outbox hears it and sends it again later, and so does
        // this test: the server's queue was full after a freeze (decision 0042), or, on Firestore, its
        // contention (a dead server's transactions hold their locks for a while). Any other 5xx is a defect.
        figures.busy += 1;
        task.lostWhileUp = true;
        await delay(200);
      } else {
        const cause = response.status >= 500 ? ` (the server logged: ${lastLoggedError(main.output())})` : '';
        task.refused = { status: response.status, text: response.text + cause };
      }
    } catch {
      // No answer: the kill, or (rarely) a connection the kill left behind. Sent again after the restart,
      // or now if the server is up.
      if (down) {
        task.lostIn = life;
      } else {
        // Not the kill: the answer to a resend says whether it had arrived, so its status is not checked.
        task.lostWhileUp = true;
        figures.lostWhileUp += 1;
        await delay(50);
        if (task.attempts > 20) task.refused = { status: 0, text: 'no answer 20 times while the server was up' };
      }
    }
  }

  const drained = new Promise<void>((resolve) => {
    const pump = () => {
      if (!down) {
        for (const task of tasks) {
          if (inFlight.size >= concurrency) break;
          if (task.done || task.refused || task.lostIn !== undefined || inFlight.has(task)) continue;
          if (!task.after.every((t) => t.done)) continue;
          inFlight.add(task);
          void send(task).then(() => {
            inFlight.delete(task);
            pump();
          });
        }
      }
      if (inFlight.size === 0) resolve();
    };
    pump();
  });

  // The server answers within a fraction of a millisecond of its commit, so a kill at a random moment rarely
  // lands between the two. So it is frozen (SIGSTOP) now and then: the answers it wrote reach their clients, and
  // if the database then holds the effect of a request still waiting for its answer, that answer will never
  // be written: it is killed there. Otherwise it runs on a little and is frozen again. On SQLite one request
  // at most is between its commit and its answer at any moment, so each life looks for other kinds of write
  // (any kind after 40 freezes), and each kind's repeat is tested in most runs.
  const wanted = [['question', 'answer'], ['booking', 'confirm'], ['vote']][life % 3]!;
  const killer = (async () => {
    if (killAfter === undefined) return;
    while (!finished && answered < killAfter) await delay(2);
    for (let attempt = 1; !finished; attempt++) {
      main.pause();
      await delay(20);
      const waiting = [...inFlight].filter((t) => attempt > 40 || wanted.includes(t.effect.kind));
      // After 100 freezes (about 3 s) it is killed anyway; the figures say what that caught.
      if (attempt >= 100 || (waiting.length > 0 && (await anyStored(db, waiting)))) {
        figures.freezes = attempt;
        down = true;
        await main.kill();
        return;
      }
      main.resume();
      await delay(attempt % 5);
    }
  })();

  await drained;
  finished = true;
  await killer;
  figures.ms = Date.now() - began;
  if (killAfter !== undefined) expect(down, 'the server was killed before every write was done').toBe(true);
  return figures;
}

const idOf = (task: Task) => (task.effect as { id: string }).id;

/** The message of the last error the server logged (its JSON log lines at level 50), for a 5xx's report. */
function lastLoggedError(output: string): string {
  const line = output
    .split('\n')
    .findLast((l) => l.includes('"level":50'))
    ?.trim();
  if (!line) return 'nothing';
  try {
    const { err, msg } = JSON.parse(line) as { err?: { message?: string }; msg?: string };
    return (err?.message ?? msg ?? line).slice(0, 300);
  } catch {
    return line.slice(0, 300);
  }
}

/** Whether the database holds the effect of any of these tasks (questions, answers, bookings, votes). */
async function anyStored(db: Inspection, waiting: Task[]): Promise<boolean> {
  const ids = (kind: Effect['kind']) => waiting.filter((t) => t.effect.kind === kind).map(idOf);
  const votes = waiting.flatMap((t) => (t.effect.kind === 'vote' ? [{ ...t.effect, userId: t.by.id }] : []));
  const [questions, answers, bookings, storedVotes] = await Promise.all([
    db.questions(ids('question')),
    db.answers(ids('answer')),
    db.bookings(ids('booking')),
    db.votes(votes.map((v) => v.questionId)),
  ]);
  // A vote is stored when the value it sets is there (0: no row); the value before it was different.
  const voteStored = votes.some(
    (v) => (storedVotes.find((r) => r.questionId === v.questionId && r.userId === v.userId)?.value ?? 0) === v.value,
  );
  return questions.length + answers.length + bookings.length > 0 || voteStored;
}

/** Whether the database holds the task's effect (for a vote: the value it set, which differs from the one before). */
async function isStored(db: Inspection, task: Task): Promise<boolean> {
  const effect = task.effect;
  switch (effect.kind) {
    case 'question':
      return (await db.questions([effect.id])).length > 0;
    case 'answer':
      return (await db.answers([effect.id])).length > 0;
    case 'booking':
      return (await db.bookings([effect.id])).length > 0;
    case 'vote': {
      const vote = (await db.votes([effect.questionId])).find((v) => v.userId === task.by.id);
      return (vote?.value ?? 0) === effect.value;
    }
    case 'confirm': {
      const [booking] = await db.bookings([effect.bookingId]);
      return booking!.status === 'Confirmed' && booking!.confirmedSlot === effect.slot;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// What the database and the API hold at the end

async function checkQuestionsAndAnswers(db: Inspection, tasks: Task[], people: Person[], url: string) {
  const of = <K extends Effect['kind']>(kind: K) =>
    tasks.filter((t): t is Task & { effect: Extract<Effect, { kind: K }> } => t.effect.kind === kind);

  // Each question and answer once: the tables hold exactly the posts sent, by their authors.
  const questionRows = await db.questions();
  expect(questionRows.map((r) => `${r.id} ${r.userId}`).sort()).toEqual(
    of('question')
      .map((t) => `${t.effect.id} ${t.by.id}`)
      .sort(),
  );
  const answerRows = await db.answers();
  expect(answerRows.map((r) => `${r.id} ${r.questionId} ${r.userId}`).sort()).toEqual(
    of('answer')
      .map((t) => `${t.effect.id} ${t.effect.questionId} ${t.by.id}`)
      .sort(),
  );

  // Each user's vote on a question is the last value of its chain; the counts equal the stored votes.
  const expected = new Map<string, 1 | -1 | 0>();
  for (const t of of('vote').filter((v) => v.effect.last))
    expected.set(`${t.effect.questionId} ${t.by.id}`, t.effect.value);
  const voteRows = await db.votes();
  expect(voteRows.map((r) => `${r.questionId} ${r.userId} ${r.value}`).sort()).toEqual(
    [...expected]
      .filter(([, v]) => v !== 0)
      .map(([k, v]) => `${k} ${v}`)
      .sort(),
  );
  const visitor = createClient(url);
  for (const row of questionRows) {
    const stored = voteRows.filter((v) => v.questionId === row.id);
    const counts = {
      upvotes: stored.filter((v) => v.value === 1).length,
      downvotes: stored.filter((v) => v.value === -1).length,
    };
    expect({ upvotes: row.upvotes, downvotes: row.downvotes }, row.id).toEqual(counts);
    const read = questionSchema.parse((await visitor.get(`/api/questions/${row.id}`)).body);
    expect({ upvotes: read.upvotes, downvotes: read.downvotes }).toEqual(counts);
    expect(read.answers.map((a) => a.id).sort()).toEqual(
      of('answer')
        .filter((t) => t.effect.questionId === row.id)
        .map((t) => t.effect.id)
        .sort(),
    );
  }
  for (const person of people) {
    const mine = myVotesSchema.parse((await person.client.get('/api/questions/my-votes')).body);
    expect(mine.votes.map((v) => `${v.questionId} ${v.value}`).sort()).toEqual(
      [...expected]
        .filter(([k, v]) => k.endsWith(` ${person.id}`) && v !== 0)
        .map(([k, v]) => `${k.split(' ')[0]} ${v}`)
        .sort(),
    );
  }
}

async function checkBookings(db: Inspection, tasks: Task[], people: { tutor: Person; admin: Person }) {
  const bookings = tasks.filter((t) => t.effect.kind === 'booking');
  const confirmations = new Map(
    tasks.flatMap((t) => (t.effect.kind === 'confirm' ? [[t.effect.bookingId, t.effect.slot] as const] : [])),
  );

  // Each booking once.
  const rows = await db.bookings();
  expect(rows.map((r) => `${r.id} ${r.userId}`).sort()).toEqual(bookings.map((t) => `${idOf(t)} ${t.by.id}`).sort());

  // Its e-mails queued once: the receipt, the request to each staff member of the category, the confirmation.
  const emails = await db.bookingEmails();
  let expectedEmails = 0;
  for (const task of bookings) {
    const id = idOf(task);
    const row = rows.find((r) => r.id === id)!;
    const slot = confirmations.get(id);
    expect({ status: row.status, slot: row.confirmedSlot }, id).toEqual(
      slot ? { status: 'Confirmed', slot } : { status: 'Pending', slot: null },
    );
    // One history entry for the request, and one for the confirmation if there was one.
    expect([...row.history].sort(), `history of ${id}`).toEqual(
      [historyLine(null, 'Pending', null), ...(slot ? [historyLine('Pending', 'Confirmed', slot)] : [])].sort(),
    );
    const category = (task.effect as { category: string }).category;
    const staff = category === 'Statistics' ? [people.tutor, people.admin] : [people.admin];
    const expected = [
      `booking-receipt ${task.by.email}`,
      ...staff.map((s) => `booking-request ${s.email}`),
      ...(slot ? [`booking-confirmed ${task.by.email}`] : []),
    ].sort();
    expectedEmails += expected.length;
    expect(
      emails
        .filter((e) => e.text.includes(`Payment reference: ${row.paymentReference}`))
        .map((e) => `${e.kind} ${e.to}`)
        .sort(),
      `e-mails about ${id}`,
    ).toEqual(expected);
  }
  expect(emails).toHaveLength(expectedEmails);

  // The admin's incremental read, once nothing changes any more, has each booking once, as stored.
  const seen: Booking[] = [];
  for (let position = '0'; ;) {
    const page = bookingChangesSchema.parse((await people.admin.client.get(`/api/bookings?since=${position}`)).body);
    seen.push(...page.bookings);
    position = String(page.version);
    if (!page.more) break;
  }
  expect(seen.map((b) => `${b.id} ${b.status} ${b.history.length}`).sort()).toEqual(
    rows.map((r) => `${r.id} ${r.status} ${r.status === 'Confirmed' ? 2 : 1}`).sort(),
  );
}
