import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingChangesSchema, bookingSchema, bookingStatuses, type Booking } from '../../../common/bookings.ts';
import { covers, parsePosition } from '../../../common/positions.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createVerifiedUser,
  delay,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
  onFirestore,
} from '../../test/harness.ts';
import { seededRandom } from '../../test/random.ts';
import { storedRows } from '../../test/stored.ts';

/**
 * OFFLINE-ENGINE.md scenario 8 for bookings: while booking requests, confirmations, status changes and
 * cancellations commit concurrently, readers that pull `GET /api/bookings?since=` in a loop miss no change
 * and are sent nothing they may not see. On SQLite, on PostgreSQL with TEST_DATABASE_URL (where the writes
 * really run side by side, on a pool of connections), and on Firestore (positions of a version per shard).
 */

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
const modules = ['Introduction to Statistics', 'FET Mathematics', 'Origami for Engineers'];
const slots = ['09:00', '14:00', '17:30'];

/** What decides who may see a booking: whose it is, and its category. */
type Visible = { student: { id: string | null }; moduleCategory: string };

interface Reader {
  name: string;
  client: TestClient;
  maySee(booking: Visible): boolean;
  /** The position pulled to: SQL's one version, or Firestore's versions by shard ("3-0-7"). */
  cursor: string;
  /** The latest version of each booking this reader was sent. */
  held: Map<string, Booking>;
  polls: number;
  rows: number;
  /** Answers that said another page follows. */
  morePages: number;
}

/** A write that was answered with a 2xx: the booking as it was after it. */
interface Written {
  id: string;
  version: number;
  visible: Visible;
}

// 180 s: a few seconds on SQL, 33 s alone on Firestore's emulator and over 60 s beside the CI run's other files
// there (a contended transaction waits out the SDK's backoff).
test('readers pulling `since` during concurrent booking requests, confirmations and status changes miss no change and see only theirs', async () => {
  const rng = seededRandom();
  const [admin, tutor] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
  const students = await Promise.all(
    Array.from({ length: 7 }, async (_, i) => {
      const account = await createVerifiedUser(server, { name: `Student ${i + 1}` });
      return { ...account, client: await logIn(server, account) };
    }),
  );
  const readerStudent = students[0]!;
  const newReader = (name: string, client: TestClient, maySee: Reader['maySee']): Reader => ({
    name,
    client,
    maySee,
    cursor: '0',
    held: new Map(),
    polls: 0,
    rows: 0,
    morePages: 0,
  });
  const readers = [
    newReader('admin', admin.client, () => true),
    newReader('tutor', tutor.client, (b) => b.student.id === tutor.id || b.moduleCategory === 'Statistics'),
    newReader('student', readerStudent.client, (b) => b.student.id === readerStudent.id),
  ];
  // The admin on a second device that comes online late: it starts from 0 with more bookings to catch up on
  // than a page holds (50), while staff go on changing them.
  const lateReader = newReader('admin, joining late', await logIn(server, admin), () => true);

  const written: Written[] = [];
  /** The latest state of each booking that a writer has been answered with: staff act on these versions. */
  const latest = new Map<string, Booking>();
  const unexpected: string[] = [];
  const counts = {
    requests: 0,
    confirmed: 0,
    statuses: 0,
    cancelled: 0,
    changedMeanwhile: 0,
    clashes: 0,
    cannotCancel: 0,
  };

  /** Records a 2xx answer carrying a booking; anything but the statuses allowed is collected as a failure. */
  function record(what: string, response: TestResponse, allowed: { status: number; code?: string }[]) {
    if (response.status >= 200 && response.status < 300) {
      const booking = bookingSchema.parse(response.body);
      written.push({ id: booking.id, version: booking.version, visible: booking });
      if ((latest.get(booking.id)?.version ?? -1) < booking.version) latest.set(booking.id, booking);
    }
    const ok = allowed.some(
      (a) => a.status === response.status && (a.code === undefined || a.code === response.body?.error?.code),
    );
    if (!ok) unexpected.push(`${what}: ${response.status} ${response.text}`);
    return response;
  }

  /** One pull: checks what it is sent, and, when it has reached the end, that it holds every earlier write. */
  async function pull(reader: Reader): Promise<boolean> {
    const answeredBefore = written.length;
    const response = await reader.client.get(`/api/bookings?since=${reader.cursor}`);
    expect(response.status, response.text).toBe(200);
    const page = bookingChangesSchema.parse(response.body);
    reader.polls += 1;
    reader.rows += page.bookings.length;
    let previous = Number(reader.cursor);
    for (const booking of page.bookings) {
      expect(reader.maySee(booking), `${reader.name} was sent ${booking.id} (${booking.moduleCategory})`).toBe(true);
      // On SQL, in version order, all after the cursor (one counter; Firestore orders by shard, and an answer
      // does not say a booking's shard: positions.test.ts checks its order).
      if (!onFirestore) {
        expect(booking.version).toBeGreaterThan(previous);
        previous = booking.version;
      }
      // A booking's version never goes back.
      expect(booking.version).toBeGreaterThan(reader.held.get(booking.id)?.version ?? -1);
      reader.held.set(booking.id, booking);
    }
    expect(covers(parsePosition(page.version)!, parsePosition(reader.cursor)!)).toBe(true);
    reader.cursor = String(page.version);
    if (page.more) {
      reader.morePages += 1;
      return true;
    }
    // At the end of the changes, every write answered before this pull began is held, at its version or later:
    // a change committed late, behind the cursor, would be missing here.
    for (const w of written.slice(0, answeredBefore)) {
      if (!reader.maySee(w.visible)) continue;
      const held = reader.held.get(w.id)?.version ?? -1;
      expect(
        held,
        `${reader.name} holds ${w.id} at ${held}, older than the answered ${w.version}`,
      ).toBeGreaterThanOrEqual(w.version);
    }
    return false;
  }

  let writing = true;
  const pulling = (reader: Reader) =>
    (async () => {
      while (writing) await pull(reader);
    })();
  const pullers = readers.map(pulling);

  const book = async (person: { client: TestClient }, module: string, n: number) =>
    record(
      `request ${n}`,
      await person.client.post('/api/bookings', {
        id: crypto.randomUUID(),
        module,
        date: sastDate(new Date(Date.now() + rng.int(10, 40) * day)),
        slots,
        hours: rng.int(1, 3),
        concepts: `Concepts ${n}`,
      }),
      [{ status: 201 }],
    );

  // Each of 7 students sends 8 requests (within 10 an hour) and now and then cancels one of theirs.
  const studentWork = students.map(async (student, s) => {
    for (let n = 0; n < 8; n++) {
      const booked = await book(student, rng.pick(modules), s * 10 + n);
      counts.requests += 1;
      const mine = [...latest.values()].filter((b) => b.student.id === student.id && b.status !== 'Cancelled');
      if (booked.status === 201 && mine.length > 0 && rng.next() < 0.25) {
        const target = rng.pick(mine);
        const cancelled = record(
          `cancel ${target.id}`,
          await student.client.post(`/api/bookings/${target.id}/cancel`),
          [{ status: 200 }, { status: 409, code: 'bookings.cannot_cancel' }],
        );
        if (cancelled.status === 200) counts.cancelled += 1;
        else counts.cannotCancel += 1;
      }
    }
  });
  // The tutor's own requests, outside their category: theirs to see all the same.
  const tutorOwn = (async () => {
    for (let n = 0; n < 2; n++) {
      await book(tutor, 'FET Mathematics', 100 + n);
      counts.requests += 1;
    }
  })();
  // Staff confirm and set statuses at the version they last heard of, as the dashboards do: when both act on
  // one booking at once, one of them gets 409 bookings.changed. A time the tutor already has a session at is
  // 409 bookings.clash (the admin's of a Statistics booking too: its only tutor's session).
  let studentsDone = false;
  const staffWork = [admin, tutor].map(async (staff) => {
    let acted = 0;
    while (acted < 30 || !studentsDone) {
      const manageable = [...latest.values()].filter((b) => staff === admin || b.moduleCategory === 'Statistics');
      if (manageable.length === 0) {
        await delay(5);
        continue;
      }
      acted += 1;
      // Often one of the newest, which the other staff member may be changing too.
      const target = rng.pick(rng.next() < 0.5 ? manageable.slice(-4) : manageable);
      const response =
        target.status === 'Pending' && rng.next() < 0.6
          ? await staff.client.post(`/api/bookings/${target.id}/confirm`, {
              slot: rng.pick(slots),
              version: target.version,
            })
          : await staff.client.request(`/api/bookings/${target.id}/status`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              // As the dashboards send it once staff said yes to completing a session still to come.
              body: JSON.stringify({ status: rng.pick(bookingStatuses), version: target.version, beforeStart: true }),
            });
      record(`${staff.name} on ${target.id}`, response, [
        { status: 200 },
        { status: 409, code: 'bookings.changed' },
        { status: 409, code: 'bookings.clash' },
      ]);
      if (response.status === 200) {
        if (response.body.status === 'Confirmed' && target.status !== 'Confirmed') counts.confirmed += 1;
        else counts.statuses += 1;
      } else if (response.body?.error?.code === 'bookings.clash') {
        counts.clashes += 1;
      } else {
        counts.changedMeanwhile += 1;
      }
    }
  });
  const lateJoin = (async () => {
    while (counts.requests < 52) await delay(5);
    await pulling(lateReader);
  })();
  const everyReader = [...readers, lateReader];

  const startedAt = Date.now();
  const writers = Promise.all([
    Promise.all([...studentWork, tutorOwn]).finally(() => (studentsDone = true)),
    ...staffWork,
  ]).finally(() => (writing = false));
  // A reader's failed check fails the test once the writers are done (the server is closed after it).
  const settled = await Promise.allSettled([writers, ...pullers, lateJoin]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  const writeMs = Date.now() - startedAt;
  expect(unexpected).toEqual([]);
  for (const reader of everyReader) while (await pull(reader));

  // Each reader holds the latest version of every booking it may see and nothing else: what a fresh read
  // from 0 gives, and what the database holds.
  const stored = (await storedRows(server.services, 'bookings')).map((row) =>
    onFirestore ? { id: row.id, user_id: row.userId, module_category: row.moduleCategory, version: row.version } : row,
  ) as { id: string; user_id: string | null; module_category: string; version: number }[];
  for (const reader of everyReader) {
    const fresh = new Map<string, Booking>();
    for (let since = '0'; ;) {
      const page = bookingChangesSchema.parse((await reader.client.get(`/api/bookings?since=${since}`)).body);
      for (const b of page.bookings) fresh.set(b.id, b);
      since = String(page.version);
      if (!page.more) break;
    }
    expect(reader.held, reader.name).toEqual(fresh);
    const expected = stored
      .filter((r) => reader.maySee({ student: { id: r.user_id }, moduleCategory: r.module_category }))
      .map((r) => `${r.id} ${r.version}`)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect([...reader.held.values()].map((b) => `${b.id} ${b.version}`).sort(), reader.name).toEqual(expected);
  }
  expect(stored).toHaveLength(counts.requests);

  process.stdout.write(
    [
      `bookings since (${server.services.kind}, seed ${rng.seed}): in ${writeMs} ms, ${counts.requests} requests, ` +
        `${counts.confirmed} confirmations, ${counts.statuses} other staff changes, ${counts.cancelled} cancellations ` +
        `(${counts.changedMeanwhile} staff 409 changed, ${counts.clashes} 409 clash, ${counts.cannotCancel} 409 cannot cancel), ${written.length} versions answered`,
      ...everyReader.map(
        (r) =>
          `  ${r.name}: ${r.polls} pulls, ${r.rows} rows, ${r.morePages} pages with more to come, holds ${r.held.size}`,
      ),
      '',
    ].join('\n'),
  );
}, 180_000);
