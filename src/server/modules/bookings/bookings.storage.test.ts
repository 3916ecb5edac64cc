import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { covers, coversStamp, type Position, type Stamp } from '../../../common/positions.ts';
import { createPositions } from '../../storage/firestore/positions.ts';
import { clashWith } from '../../../common/availability.ts';
import { datesAround } from './bookings.clash.ts';
import { createBookingsFirestoreRepository } from './bookings.firestore.ts';
import type { BookingChangeRecord, BookingRecord, BookingsRepository } from './bookings.storage.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * The bookings' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and Firestore (Google's emulator). Races are run for real: several writers at once, each
 * in a transaction of the shape the usecases use (begin, reads, stamps, writes).
 */
interface Engine {
  repo: BookingsRepository;
  /** Runs `work` in one transaction of the engine, with the repository on it. */
  transaction<T>(work: (repo: BookingsRepository) => Promise<T>): Promise<T>;
  /** A student's account (bookings name their student's). */
  addStudent(name: string): Promise<Student>;
  /** What the engine keeps of a tutor's days apart from their bookings (Firestore's `tutorDays`), by id. */
  tutorDayIds(tutorId: string): Promise<string[]>;
  close(): Promise<void>;
}

type Student = BookingRecord['student'] & { id: string };

const someone = (name: string): Student => ({
  id: crypto.randomUUID(),
  name,
  email: `${crypto.randomUUID()}@example.com`,
});

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.bookings,
    transaction: (work) => storage.transaction((repos) => work(repos.bookings)),
    async addStudent(name) {
      const student = someone(name);
      await storage.repos.accounts.insertInvited({ ...student, role: 'student' }, new Date());
      return student;
    },
    // Nothing: the bookings' lock orders the confirms (docs/decisions/0048).
    tutorDayIds: async () => [],
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('bookings');
  // Few shards: writers at once meet on counters too, as they would under load.
  const positions = createPositions(db, { shards: 16 });
  return {
    repo: createBookingsFirestoreRepository({ db }, positions),
    transaction: (work) =>
      db.runTransaction((tx) => work(createBookingsFirestoreRepository({ db, tx }, positions)), { maxAttempts: 20 }),
    // Firestore has no foreign keys: a booking names its student, and nothing checks that they exist.
    addStudent: async (name) => someone(name),
    tutorDayIds: async (tutorId) =>
      (await db.collection('tutorDays').get()).docs.map((doc) => doc.id).filter((id) => id.includes(tutorId)),
    close,
  };
}

let references = 0;
function newBooking(student: Student, extra: Partial<BookingRecord> = {}): BookingRecord {
  const at = '2026-11-24T10:00:00.000Z';
  return {
    id: crypto.randomUUID(),
    student: { id: student.id, name: student.name, email: student.email },
    moduleName: 'Introduction to Statistics',
    moduleCategory: 'Statistics',
    priceCentsPerHour: 80_00,
    totalCents: 160_00,
    date: '2026-12-10',
    slots: ['09:00', '14:00', '17:30'],
    confirmedSlot: null,
    startsAt: '2026-12-10T07:00:00.000Z',
    hours: 2,
    concepts: 'Hypothesis testing\nand p-values',
    status: 'Pending',
    lateCancellation: false,
    paymentReference: `TB-C${String(++references).padStart(5, '0')}-${crypto.randomUUID().slice(0, 4)}`,
    reminderSentAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
    tutor: null,
    ...extra,
  };
}

function entry(booking: BookingRecord, version: number, extra: Partial<BookingChangeRecord> = {}): BookingChangeRecord {
  return {
    id: crypto.randomUUID(),
    bookingId: booking.id,
    version,
    at: booking.createdAt,
    by: { id: booking.student.id, name: booking.student.name, role: 'student' },
    from: null,
    to: 'Pending',
    slot: null,
    ...extra,
  };
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);
const sortedIds = (records: { id: string }[]) => ids(records).sort();

/** A stamp for a booking written directly (its version as it is); the changes-since cases take real ones. */
const stampOf = (booking: { version: number }): Stamp => ({ shard: 0, version: booking.version });

/** A booking request as the usecase makes it: begin, check, stamp, then the booking and its first entry. */
async function book(engine: Engine, booking: BookingRecord): Promise<BookingRecord> {
  return engine.transaction(async (repo) => {
    await repo.beginChanges();
    const [stamp] = (await repo.takeStamps(1)) as [Stamp];
    await repo.insert(booking, stamp);
    await repo.addChange(entry(booking, stamp.version));
    return { ...booking, version: stamp.version };
  });
}

describe.each(contractEngines(openSql, openFirestore))('the bookings’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('a booking and its history are read back as written; the history in the order it happened', async () => {
    const { repo } = engine;
    const booking = newBooking(await engine.addStudent('Thandi Mokoena'), { version: 7 });
    await repo.insert(booking, stampOf(booking));
    const confirmed = entry(booking, 7, {
      by: { id: null, name: 'Musa Stats', role: 'tutor' },
      from: 'Pending',
      to: 'Confirmed',
      slot: '14:00',
    });
    // Written out of order: the history is read in the order of its versions.
    await repo.addChange(confirmed);
    const requested = entry(booking, 6);
    await repo.addChange(requested);
    expect(await repo.findById(booking.id)).toEqual(booking);
    expect(await repo.findById(crypto.randomUUID())).toBeUndefined();
    expect(await repo.historyOf([booking.id])).toEqual([requested, confirmed]);
    expect(await repo.historyOf([])).toEqual([]);
    expect(await repo.isPaymentReferenceTaken(booking.paymentReference)).toBe(true);
    expect(await repo.isPaymentReferenceTaken(`${booking.paymentReference}X`)).toBe(false);
    // A second booking with the reference, or the id, is refused (SQL's unique indexes; Firestore's keys).
    const student = await engine.addStudent('Second');
    await expect(
      repo.insert(newBooking(student, { paymentReference: booking.paymentReference }), stampOf(booking)),
    ).rejects.toThrow();
    await expect(repo.insert(newBooking(student, { id: booking.id }), stampOf(booking))).rejects.toThrow();
    expect(await repo.findById(booking.id)).toEqual(booking);
  });

  test('bookings found by a statement’s payment references, many at once; a reference nobody holds finds none', async () => {
    const { repo } = engine;
    const student = await engine.addStudent('Sipho Dlamini');
    const held = [newBooking(student), newBooking(student)];
    for (const booking of held) await repo.insert(booking, stampOf(booking));
    // More than one query's or read's worth, the held ones among them.
    const unheld = Array.from({ length: 620 }, (_, i) => `TB-Z${String(i).padStart(5, '2')}`);
    const found = await repo.findByPaymentReferences([
      ...unheld.slice(0, 400),
      held[0]!.paymentReference,
      ...unheld.slice(400),
      held[1]!.paymentReference,
    ]);
    expect(found.map((b) => b.id).sort()).toEqual(held.map((b) => b.id).sort());
    expect(found.find((b) => b.id === held[0]!.id)).toEqual(held[0]);
    expect(await repo.findByPaymentReferences([])).toEqual([]);
  });

  test('stamps are handed out each once, in order within a shard, however many writers take them at once', async () => {
    const { repo } = engine;
    const before = await repo.readPosition();
    const taken = await Promise.all(Array.from({ length: 5 }, () => engine.transaction((r) => r.takeStamps(3))));
    for (const stamps of taken) {
      // One transaction's stamps: one shard, one after another.
      expect(stamps.map((s) => s.shard)).toEqual(Array(3).fill(stamps[0]!.shard));
      expect(stamps.map((s) => s.version - stamps[0]!.version)).toEqual([0, 1, 2]);
    }
    const after = await repo.readPosition();
    // Each shard handed out exactly the versions between where it was and where it is now.
    const byShard = Map.groupBy(taken.flat(), (s) => s.shard);
    expect(taken.flat()).toHaveLength(15);
    for (const [shard, stamps] of byShard) {
      const versions = stamps.map((s) => s.version).sort((a, b) => a - b);
      const from = (before[shard] ?? 0) + 1;
      expect(versions).toEqual(Array.from({ length: (after[shard] ?? 0) - from + 1 }, (_, i) => from + i));
    }
    for (const stamp of taken.flat()) expect(coversStamp(after, stamp)).toBe(true);
    // Beginning takes nothing.
    await engine.transaction((r) => r.beginChanges());
    expect(await repo.readPosition()).toEqual(after);
  });

  test('a booking changed again gets a version above the one it had, whichever shard the change takes', async () => {
    const student = await engine.addStudent('Rewritten');
    // Shards moved unevenly (Firestore: one of them far ahead), so a change may take one behind the booking's.
    await engine.transaction((r) => r.takeStamps(40));
    const booked: BookingRecord[] = [];
    for (let i = 0; i < 6; i++) booked.push(await book(engine, newBooking(student)));
    for (let round = 0; round < 2; round++) {
      for (const booking of booked) {
        const stamp = await engine.transaction(async (repo) => {
          await repo.beginChanges();
          const row = (await repo.findById(booking.id))!;
          const [taken] = (await repo.takeStamps(1, [row.version])) as [Stamp];
          await repo.setVersion(row.id, taken);
          return { before: row.version, after: taken.version };
        });
        expect(stamp.after).toBeGreaterThan(stamp.before);
      }
    }
  });

  test('of five changes at once from the same version one wins; a change from an old version changes nothing', async () => {
    const { repo } = engine;
    const booking = newBooking(await engine.addStudent('Sipho Dlamini'), { version: 3 });
    await repo.insert(booking, stampOf(booking));
    const won = await Promise.all(
      ['09:00', '14:00', '17:30', '09:00', '14:00'].map((slot, i) =>
        repo.updateIfAtVersion(booking.id, 3, {
          status: 'Confirmed',
          confirmedSlot: slot,
          reminderSentAt: null,
          updatedAt: `2026-11-25T00:00:0${i}.000Z`,
          stamp: { shard: 0, version: 10 + i },
        }),
      ),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = won.indexOf(true);
    const after = await repo.findById(booking.id);
    expect(after).toEqual({
      ...booking,
      status: 'Confirmed',
      confirmedSlot: ['09:00', '14:00', '17:30', '09:00', '14:00'][winner],
      updatedAt: `2026-11-25T00:00:0${winner}.000Z`,
      version: 10 + winner,
    });
    const cancel = { status: 'Cancelled' as const, stamp: { shard: 0, version: 20 } };
    expect(await repo.updateIfAtVersion(booking.id, 3, cancel)).toBe(false);
    expect(await repo.updateIfAtVersion(crypto.randomUUID(), 1, cancel)).toBe(false);
    // What an update leaves out stays; a late cancellation is a boolean both ways.
    expect(
      await repo.updateIfAtVersion(booking.id, after!.version, {
        status: 'Cancelled',
        lateCancellation: true,
        stamp: { shard: 0, version: 21 },
      }),
    ).toBe(true);
    expect(await repo.findById(booking.id)).toEqual({
      ...after,
      status: 'Cancelled',
      lateCancellation: true,
      version: 21,
    });
    await repo.setVersion(booking.id, { shard: 0, version: 22 });
    expect((await repo.findById(booking.id))?.version).toBe(22);
  });

  test('an update may set every field the old site has (the import’s later runs); what it leaves out stays', async () => {
    const { repo } = engine;
    const student = await engine.addStudent('Thandi Mokoena');
    const booking = newBooking(student, { version: 5 });
    await repo.insert(booking, stampOf(booking));
    const changed = {
      student: { id: null, name: 'Thandi M.', email: 'thandi.m@example.com' },
      moduleName: 'Discrete Maths',
      moduleCategory: 'Uncategorized' as const,
      priceCentsPerHour: 100_00,
      totalCents: 300_00,
      date: '2026-12-11',
      slots: ['08:00', '10:00', '12:00'],
      hours: 3,
      concepts: 'Graphs',
      status: 'Confirmed' as const,
      confirmedSlot: '10:00',
      startsAt: '2026-12-11T08:00:00.000Z',
    };
    expect(await repo.updateIfAtVersion(booking.id, 5, { ...changed, stamp: { shard: 0, version: 6 } })).toBe(true);
    expect(await repo.findById(booking.id)).toEqual({ ...booking, ...changed, version: 6 });
    // The list along the student's index follows the new student id (none here).
    expect(ids(await repo.list({ userId: student.id, limit: 10 }))).not.toContain(booking.id);
  });

  test('of five confirmations at once, each in a transaction as the usecase runs it, one wins and one entry is recorded', async () => {
    const booking = await book(engine, newBooking(await engine.addStudent('Confirmed Once')));
    const slots = ['09:00', '14:00', '17:30', '09:00', '14:00'];
    const won = await Promise.all(
      slots.map((slot, i) =>
        engine.transaction(async (repo) => {
          await repo.beginChanges();
          const row = (await repo.findById(booking.id))!;
          await repo.historyOf([row.id]);
          const [stamp] = (await repo.takeStamps(1, [row.version])) as [Stamp];
          // The version the staff member's card showed: the booking as requested.
          if (
            !(await repo.updateIfAtVersion(row.id, booking.version, {
              status: 'Confirmed',
              confirmedSlot: slot,
              stamp,
            }))
          )
            return false;
          await repo.addChange(entry(row, stamp.version, { from: row.status, to: 'Confirmed', slot, id: `c${i}` }));
          return true;
        }),
      ),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    const after = (await engine.repo.findById(booking.id))!;
    expect(after.confirmedSlot).toBe(slots[won.indexOf(true)]);
    expect(after.version).toBeGreaterThan(booking.version);
    const history = await engine.repo.historyOf([booking.id]);
    expect(history.map((c) => c.to)).toEqual(['Pending', 'Confirmed']);
    expect(history.at(-1)!.version).toBe(after.version);
  });

  /**
   * A confirmation as the usecase runs it (bookings.usecases.ts): the booking, the tutor's confirmed sessions around
   * its date, then the change unless the slot overlaps one of them ('clash').
   */
  function confirmFor(tutor: Student, booking: BookingRecord, slot: string) {
    return engine.transaction(async (repo): Promise<'confirmed' | 'clash' | 'changed'> => {
      await repo.beginChanges();
      const row = (await repo.findById(booking.id))!;
      const sessions = await repo.tutorSessionsOn(tutor.id, datesAround(row.date));
      const busy = sessions
        .filter((s) => s.id !== row.id)
        .map((s) => ({ date: s.date, start: s.confirmedSlot!, hours: s.hours }));
      if (clashWith({ date: row.date, start: slot, hours: row.hours }, busy, 0)) return 'clash';
      await repo.historyOf([row.id]);
      const [stamp] = (await repo.takeStamps(1, [row.version])) as [Stamp];
      const update = {
        status: 'Confirmed' as const,
        confirmedSlot: slot,
        tutor: { id: tutor.id, name: tutor.name },
        stamp,
      };
      if (!(await repo.updateIfAtVersion(row.id, row.version, update))) return 'changed';
      await repo.addChange(entry(row, stamp.version, { from: row.status, to: 'Confirmed', slot }));
      return 'confirmed';
    });
  }

  test('a tutor’s account erased, as the deletion runs it in one transaction: nothing of their days is kept', async () => {
    const tutor = await engine.addStudent('Leaving Tutor');
    const booking = await book(engine, newBooking(await engine.addStudent('Their Student'), { date: '2027-04-14' }));
    expect(await confirmFor(tutor, booking, '09:00')).toBe('confirmed');
    // Firestore: the day documents of the session's date and the days either side.
    expect((await engine.tutorDayIds(tutor.id)).length).toBe(_name === 'Firestore' ? 3 : 0);
    await engine.transaction(async (repo) => {
      await repo.beginChanges();
      await repo.listTouchedBy(tutor.id);
      await repo.forgetInHistory(tutor.id, 'Deleted user');
    });
    expect(await engine.tutorDayIds(tutor.id)).toEqual([]);
    expect((await engine.repo.findById(booking.id))!.tutor).toEqual({ id: null, name: 'Deleted user' });
  });

  test('when tutors are taken: their confirmed sessions of the dates asked, nothing of others’ or of requests', async () => {
    const [musa, lindiwe, other] = [
      await engine.addStudent('Musa'),
      await engine.addStudent('Lindiwe'),
      await engine.addStudent('Other'),
    ];
    const student = await engine.addStudent('Their Student');
    const confirmed = async (tutor: Student, date: string, slot: string, hours: number) => {
      const booking = await book(engine, newBooking(student, { date, slots: [slot, '06:00', '21:00'], hours }));
      expect(await confirmFor(tutor, booking, slot)).toBe('confirmed');
    };
    await confirmed(musa, '2027-05-03', '09:00', 2);
    await confirmed(lindiwe, '2027-05-07', '14:00', 1);
    await confirmed(other, '2027-05-03', '10:00', 1);
    await confirmed(musa, '2027-05-08', '09:00', 1);
    await book(engine, newBooking(student, { date: '2027-05-05' }));

    const busy = await engine.repo.busyOf([musa.id, lindiwe.id], { from: '2027-05-01', to: '2027-05-07' });
    expect(busy.sort((a, b) => (a.date < b.date ? -1 : 1))).toEqual([
      { tutorId: musa.id, date: '2027-05-03', start: '09:00', hours: 2 },
      { tutorId: lindiwe.id, date: '2027-05-07', start: '14:00', hours: 1 },
    ]);
    expect(await engine.repo.busyOf([], { from: '2027-05-01', to: '2027-05-07' })).toEqual([]);
  });

  test('of two overlapping sessions of one tutor confirmed at once, one is confirmed and the other reads it', async () => {
    const tutor = await engine.addStudent('Busy Tutor');
    const date = '2027-03-10';
    const slots = ['13:30', '14:00'];
    const requests = await Promise.all(
      slots.map(async (slot) =>
        book(engine, newBooking(await engine.addStudent('Wants 14:00'), { date, slots: [slot, '07:00', '20:00'] })),
      ),
    );
    const outcomes = await Promise.all(requests.map((booking, i) => confirmFor(tutor, booking, slots[i]!)));
    expect(outcomes.filter((o) => o === 'confirmed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'clash')).toHaveLength(1);
    const held = await engine.transaction((repo) => repo.tutorSessionsOn(tutor.id, [date]));
    expect(held.map((b) => [b.id, b.confirmedSlot, b.tutor])).toEqual([
      [
        requests[outcomes.indexOf('confirmed')]!.id,
        slots[outcomes.indexOf('confirmed')],
        { id: tutor.id, name: tutor.name },
      ],
    ]);
  });

  test('a tutor’s sessions are their confirmed ones of those dates: not another tutor’s, a pending or a cancelled one', async () => {
    const [tutor, other] = [await engine.addStudent('Sessions Tutor'), await engine.addStudent('Other Tutor')];
    const student = await engine.addStudent('Student Of Both');
    const mine = { id: tutor.id, name: tutor.name };
    const confirmed = { status: 'Confirmed' as const, confirmedSlot: '09:00' };
    const rows = [
      newBooking(student, { ...confirmed, date: '2027-04-01', tutor: mine }),
      newBooking(student, { ...confirmed, date: '2027-04-02', tutor: mine }),
      newBooking(student, { ...confirmed, date: '2027-04-05', tutor: mine }),
      newBooking(student, { ...confirmed, date: '2027-04-01', tutor: { id: other.id, name: other.name } }),
      newBooking(student, { status: 'Cancelled', confirmedSlot: '09:00', date: '2027-04-01', tutor: mine }),
      newBooking(student, { date: '2027-04-01', tutor: mine }),
    ];
    for (const row of rows) await book(engine, row);
    const found = await engine.transaction((repo) => repo.tutorSessionsOn(tutor.id, ['2027-04-01', '2027-04-02']));
    expect(sortedIds(found)).toEqual(sortedIds(rows.slice(0, 2)));
    expect(found.find((b) => b.id === rows[0]!.id)).toMatchObject({ tutor: mine, confirmedSlot: '09:00' });
  });

  test('of five requests drawing one payment reference at once, one books it and four find it taken', async () => {
    const student = await engine.addStudent('Same Reference');
    const reference = `TB-RACE-${crypto.randomUUID().slice(0, 6)}`;
    const drafts = Array.from({ length: 5 }, () => newBooking(student, { paymentReference: reference }));
    const booked = await Promise.all(
      drafts.map((draft) =>
        engine.transaction(async (repo) => {
          await repo.beginChanges();
          if (await repo.isPaymentReferenceTaken(reference)) return false;
          const [stamp] = (await repo.takeStamps(1)) as [Stamp];
          await repo.insert(draft, stamp);
          return true;
        }),
      ),
    );
    expect(booked.filter(Boolean)).toHaveLength(1);
    const found = await Promise.all(drafts.map((d) => engine.repo.findById(d.id)));
    expect(found.filter(Boolean)).toHaveLength(1);
  });

  test('of ten requests at once by one student allowed three more, three are booked (the rate limit’s count)', async () => {
    const student = await engine.addStudent('Many Requests');
    const booked = await Promise.all(
      Array.from({ length: 10 }, () =>
        engine.transaction(async (repo) => {
          await repo.beginChanges();
          if ((await repo.countRequestsSince(student.id, '2026-11-24T09:00:00.000Z')) >= 3) return false;
          const [stamp] = (await repo.takeStamps(1)) as [Stamp];
          await repo.insert(newBooking(student), stamp);
          return true;
        }),
      ),
    );
    expect(booked.filter(Boolean)).toHaveLength(3);
    expect(await engine.repo.countRequestsSince(student.id, '2026-11-24T09:00:00.000Z')).toBe(3);
  });

  test('a list is newest session first, then newest request, then id, along the user’s or the category’s bookings', async () => {
    const { repo } = engine;
    const [a, b] = [await engine.addStudent('List A'), await engine.addStudent('List B')];
    const at = (minute: number) => `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const booked = [
      newBooking(a, { date: '2027-03-01', createdAt: at(1), moduleCategory: 'Computer Science' }),
      newBooking(a, { date: '2027-03-03', createdAt: at(2), status: 'Confirmed' }),
      newBooking(b, { date: '2027-03-02', createdAt: at(3), moduleCategory: 'Computer Science' }),
      newBooking(b, { date: '2027-03-03', createdAt: at(4) }),
      newBooking(a, { date: '2027-03-02', createdAt: at(3), moduleCategory: 'Computer Science' }),
    ];
    for (const booking of booked) await repo.insert(booking, stampOf(booking));
    const [a1, a3, b2, b3, a2] = booked as [BookingRecord, BookingRecord, BookingRecord, BookingRecord, BookingRecord];
    const sameTime = [b2, a2].sort((x, y) => (x.id < y.id ? 1 : -1));
    const inRange = { from: '2027-03-01', to: '2027-03-03', limit: 10 };
    expect(ids(await repo.list(inRange))).toEqual(ids([b3, a3, ...sameTime, a1]));
    expect(ids(await repo.list({ ...inRange, userId: a.id }))).toEqual(ids([a3, a2, a1]));
    expect(ids(await repo.list({ ...inRange, category: 'Computer Science' }))).toEqual(ids([...sameTime, a1]));
    expect(ids(await repo.list({ ...inRange, status: 'Confirmed' }))).toEqual(ids([a3]));
    expect(ids(await repo.list({ ...inRange, from: '2027-03-02', to: '2027-03-02' }))).toEqual(ids(sameTime));
    expect(ids(await repo.list({ ...inRange, limit: 2 }))).toEqual(ids([b3, a3]));
    const last = sameTime[0]!;
    const after = { date: last.date, createdAt: last.createdAt, id: last.id };
    expect(ids(await repo.list({ ...inRange, after }))).toEqual(ids([sameTime[1]!, a1]));
  });

  test('changes since a position come once each, in version order within a shard, limited to what a user may see', async () => {
    // Storage of its own: the cases above write stamps of their own making (shard 0, versions 7 to 22)
    // without the counters, which a position read here rightly does not cover.
    const engine = await open();
    onTestFinished(() => engine.close());
    const { repo } = engine;
    const [a, b] = [await engine.addStudent('Since A'), await engine.addStudent('Since B')];
    const start = await repo.readPosition();
    const booked = await Promise.all(
      [
        newBooking(a, { moduleCategory: 'Mathematics' }),
        newBooking(b, { moduleCategory: 'Statistics' }),
        newBooking(b, { moduleCategory: 'Uncategorized' }),
        newBooking(b, { moduleCategory: 'Mathematics' }),
      ].map((booking) => book(engine, booking)),
    );
    const [mine, stats, other, maths] = booked as [BookingRecord, BookingRecord, BookingRecord, BookingRecord];
    const all = await repo.listChangedSince({ since: start, limit: 10 });
    expect(sortedIds(all.bookings)).toEqual(sortedIds(booked));
    expect(all.more).toBe(false);
    const now = await repo.readPosition();
    expect(covers(all.position, now)).toBe(true);
    expect(await repo.listChangedSince({ since: all.position, limit: 10 })).toMatchObject({
      bookings: [],
      more: false,
    });

    // Page by page: each booking once, none left out, and the last page's position where the whole one was.
    const seen: string[] = [];
    let since: Position = start;
    for (let more = true; more;) {
      const page = await repo.listChangedSince({ since, limit: 2 });
      expect(page.bookings.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.bookings));
      ({ position: since, more } = page);
    }
    expect(seen.sort()).toEqual(sortedIds(booked));
    expect(covers(since, now)).toBe(true);

    const student = { userId: a.id, categories: [] };
    expect(ids((await repo.listChangedSince({ since: start, visibleTo: student, limit: 10 })).bookings)).toEqual(
      ids([mine]),
    );
    const tutor = { userId: a.id, categories: ['Mathematics' as const, 'Computer Science' as const] };
    expect(sortedIds((await repo.listChangedSince({ since: start, visibleTo: tutor, limit: 10 })).bookings)).toEqual(
      sortedIds([mine, maths]),
    );
    expect(stats.version).toBeGreaterThan(0);
    expect(other.version).toBeGreaterThan(0);

    // A change goes above what the booking held, and comes again.
    const [changed] = (await engine.transaction(async (r) => {
      await r.beginChanges();
      const row = (await r.findById(maths.id))!;
      const stamps = await r.takeStamps(1, [row.version]);
      await r.setVersion(row.id, stamps[0]!);
      return stamps;
    })) as [Stamp];
    expect(changed.version).toBeGreaterThan(maths.version);
    const again = await repo.listChangedSince({ since: all.position, limit: 10 });
    expect(again.bookings.map((r) => [r.id, r.version])).toEqual([[maths.id, changed.version]]);
  });

  test('requests are counted after a time; due reminders are found soonest first and claimed once', async () => {
    const { repo } = engine;
    const student = await engine.addStudent('Reminded');
    const confirmed = { status: 'Confirmed' as const, confirmedSlot: '14:00' };
    const booked = [
      newBooking(student, {
        ...confirmed,
        startsAt: '2030-01-02T12:00:00.000Z',
        createdAt: '2026-11-24T10:00:00.000Z',
      }),
      newBooking(student, {
        ...confirmed,
        startsAt: '2030-01-02T08:00:00.000Z',
        createdAt: '2026-11-24T11:00:00.000Z',
      }),
      newBooking(student, { startsAt: '2030-01-02T09:00:00.000Z', createdAt: '2026-11-24T12:00:00.000Z' }),
      newBooking(student, {
        ...confirmed,
        startsAt: '2030-01-03T09:00:00.000Z',
        createdAt: '2026-11-24T13:00:00.000Z',
      }),
    ];
    for (const booking of booked) await repo.insert(booking, stampOf(booking));
    const [noon, morning] = booked as [BookingRecord, BookingRecord];
    expect(await repo.countRequestsSince(student.id, '2026-11-24T10:30:00.000Z')).toBe(3);
    expect(await repo.countRequestsSince(student.id, '2026-11-24T13:00:00.000Z')).toBe(0);
    const window = { after: '2030-01-02T00:00:00.000Z', until: '2030-01-02T23:59:59.000Z', limit: 10 };
    expect(ids(await repo.findDueReminders(window))).toEqual(ids([morning, noon]));
    // Each claim in a transaction, as the reminder scan makes it (several processes may scan at once).
    const claims = await Promise.all(
      Array.from({ length: 5 }, () =>
        engine.transaction((r) => r.claimReminder(morning.id, morning.version, '2030-01-01T08:00:00.000Z')),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await repo.findById(morning.id))?.reminderSentAt).toBe('2030-01-01T08:00:00.000Z');
    expect(await repo.claimReminder(morning.id, morning.version, '2030-01-01T09:00:00.000Z')).toBe(false);
    // A booking changed since it was read is not claimed.
    expect(await repo.claimReminder(noon.id, noon.version + 1, '2030-01-01T12:00:00.000Z')).toBe(false);
    expect(ids(await repo.findDueReminders(window))).toEqual(ids([noon]));
    // Reminded or not, the window's confirmed sessions are what the staff's dashboards check.
    expect(ids(await repo.findConfirmedStarting(window))).toEqual(ids([morning, noon]));
    expect(ids(await repo.findConfirmedStarting({ ...window, limit: 1 }))).toEqual(ids([morning]));
  });

  test('the requests waiting are counted by category, and in all', async () => {
    const { repo } = engine;
    const student = await engine.addStudent('Waiting');
    const counts = async () =>
      Promise.all([
        repo.countWaiting(['Mathematics']),
        repo.countWaiting(['Mathematics', 'Computer Science']),
        repo.countWaiting('all'),
        repo.countWaiting([]),
      ]);
    const before = await counts();
    const maths = { moduleName: 'Calculus I', moduleCategory: 'Mathematics' as const };
    const added = [
      newBooking(student, maths),
      newBooking(student, maths),
      newBooking(student, { moduleName: 'Programming I', moduleCategory: 'Computer Science' }),
      newBooking(student, { ...maths, status: 'Confirmed', confirmedSlot: '09:00' }),
      newBooking(student, { ...maths, status: 'Cancelled' }),
    ];
    for (const booking of added) await repo.insert(booking, stampOf(booking));
    expect((await counts()).map((n, i) => n - before[i]!)).toEqual([2, 3, 3, 0]);
  });

  test('a user’s bookings, those they changed, and their name replaced or scrubbed, leaving others’ alone', async () => {
    const { repo } = engine;
    const [student, tutor, other] = [
      await engine.addStudent('Naledi'),
      await engine.addStudent('Tutor Musa'),
      await engine.addStudent('Other'),
    ];
    const own = newBooking(student, { createdAt: '2026-11-24T10:00:00.000Z' });
    const later = newBooking(student, { createdAt: '2026-11-24T11:00:00.000Z' });
    const confirmedByTutor = newBooking(other);
    const untouched = newBooking(other);
    for (const booking of [later, own, confirmedByTutor, untouched]) await repo.insert(booking, stampOf(booking));
    const byTutor = entry(confirmedByTutor, 2, {
      by: { id: tutor.id, name: tutor.name, role: 'tutor' },
      to: 'Confirmed',
    });
    await repo.addChange(entry(own, 1));
    await repo.addChange(entry(confirmedByTutor, 1));
    await repo.addChange(byTutor);

    expect(ids(await repo.listOf(student.id))).toEqual(ids([own, later]));
    expect(ids(await repo.listTouchedBy(student.id))).toEqual(sortedIds([own, later]));
    expect(ids(await repo.listTouchedBy(tutor.id))).toEqual(ids([confirmedByTutor]));

    await repo.setStudentName(student.id, 'Naledi Dlamini', 'renamed');
    await repo.setNameInHistory(tutor.id, 'Musa Dube');
    expect(await repo.findById(own.id)).toEqual({
      ...own,
      student: { ...own.student, name: 'Naledi Dlamini' },
      updatedAt: 'renamed',
    });
    expect((await repo.historyOf([confirmedByTutor.id])).map((c) => c.by.name)).toEqual([other.name, 'Musa Dube']);

    await repo.scrubStudent(student.id, 'Deleted user', 'scrubbed');
    expect(await repo.findById(later.id)).toEqual({
      ...later,
      student: { id: null, name: 'Deleted user', email: '' },
      concepts: '',
      updatedAt: 'scrubbed',
    });
    expect(await repo.findById(untouched.id)).toEqual(untouched);
    expect(await repo.listOf(student.id)).toEqual([]);
    // Nothing of theirs counts toward a rate limit any more (Firestore: their request times are gone).
    expect(await repo.countRequestsSince(student.id, '2000-01-01T00:00:00.000Z')).toBe(0);

    await repo.forgetInHistory(tutor.id, 'Deleted user');
    expect((await repo.historyOf([confirmedByTutor.id])).map((c) => c.by)).toEqual([
      { id: other.id, name: other.name, role: 'student' },
      { id: null, name: 'Deleted user', role: 'tutor' },
    ]);
    expect(await repo.listTouchedBy(tutor.id)).toEqual([]);
  });

  test('a booking from a question keeps it, its notes, the consent and the summary; a deletion clears hers', async () => {
    const { repo } = engine;
    const student = await engine.addStudent('Naledi');
    const question = { id: crypto.randomUUID(), title: 'Why is my p-value not the chance H0 is true?' };
    const booking = await book(engine, newBooking(student, { status: 'Completed', question }));
    expect(await repo.findById(booking.id)).toEqual(booking);
    const notes = {
      covered: 'P(data this extreme | H0)\nand what it is not',
      practise: 'Exercises 4.1 to 4.6',
      by: { id: crypto.randomUUID(), name: 'Musa Stats' },
      at: '2026-12-10T09:00:00.000Z',
    };
    const changes = {
      notes,
      summaryConsentAt: '2026-12-10T10:00:00.000Z',
      summaryPostedAt: '2026-12-10T11:00:00.000Z',
    };
    const version = booking.version + 1;
    expect(
      await repo.updateIfAtVersion(booking.id, booking.version, { ...changes, stamp: { shard: 0, version } }),
    ).toBe(true);
    const changed = { ...booking, ...changes, version };
    expect(await repo.findById(booking.id)).toEqual(changed);
    expect((await repo.listOf(student.id)).find((b) => b.id === booking.id)).toEqual(changed);
    // Withdrawn: null, read back as none (toEqual takes a property undefined as one left out).
    await repo.updateIfAtVersion(booking.id, version, {
      summaryConsentAt: null,
      stamp: { shard: 0, version: version + 1 },
    });
    const withdrawn = { ...changed, summaryConsentAt: undefined, version: version + 1 };
    expect(await repo.findById(booking.id)).toEqual(withdrawn);

    await engine.transaction(async (inTx) => {
      await inTx.listTouchedBy(student.id);
      await inTx.scrubStudent(student.id, 'Deleted user', 'scrubbed');
    });
    // Her notes go with her; the question's link stays (the question stays, as "Deleted user"'s).
    expect(await repo.findById(booking.id)).toEqual({
      ...withdrawn,
      notes: undefined,
      student: { id: null, name: 'Deleted user', email: '' },
      concepts: '',
      updatedAt: 'scrubbed',
    });
  });

  test('a rename in one transaction, as the usecase runs it: every touched booking at a new version, with the new names', async () => {
    const [student, tutor, other] = [
      await engine.addStudent('Lerato'),
      await engine.addStudent('Tutor Thabo'),
      await engine.addStudent('Someone Else'),
    ];
    const own = await book(engine, newBooking(student));
    const theirs = await book(engine, newBooking(other));
    await engine.transaction(async (repo) => {
      await repo.beginChanges();
      const row = (await repo.findById(theirs.id))!;
      const [stamp] = (await repo.takeStamps(1, [row.version])) as [Stamp];
      await repo.updateIfAtVersion(row.id, row.version, { status: 'Confirmed', stamp });
      await repo.addChange(entry(row, stamp.version, { by: { id: tutor.id, name: tutor.name, role: 'tutor' } }));
    });
    const before = await Promise.all([own, theirs].map((b) => engine.repo.findById(b.id)));
    const renamed = async (userId: string, name: string) =>
      engine.transaction(async (repo) => {
        await repo.beginChanges();
        const touched = await repo.listTouchedBy(userId);
        const stamps = await repo.takeStamps(
          touched.length,
          touched.map((row) => row.version),
        );
        for (const [i, row] of touched.entries()) await repo.setVersion(row.id, stamps[i]!);
        await repo.setStudentName(userId, name, 'renamed');
        await repo.setNameInHistory(userId, name);
        return stamps;
      });
    await Promise.all([renamed(student.id, 'Lerato M'), renamed(tutor.id, 'Thabo K')]);
    const [ownAfter, theirsAfter] = (await Promise.all([own, theirs].map((b) => engine.repo.findById(b.id)))) as [
      BookingRecord,
      BookingRecord,
    ];
    expect(ownAfter.student.name).toBe('Lerato M');
    expect(ownAfter.version).toBeGreaterThan(before[0]!.version);
    expect(theirsAfter.student.name).toBe('Someone Else');
    expect(theirsAfter.status).toBe('Confirmed');
    expect(theirsAfter.version).toBeGreaterThan(before[1]!.version);
    expect((await engine.repo.historyOf([own.id])).map((c) => c.by.name)).toEqual(['Lerato M']);
    expect((await engine.repo.historyOf([theirs.id])).map((c) => c.by.name)).toEqual(['Someone Else', 'Thabo K']);
  });

  test('a transaction that reads, writes and then fails leaves nothing behind', async () => {
    const booking = newBooking(await engine.addStudent('Rolled Back'));
    const position = await engine.repo.readPosition();
    await expect(
      engine.transaction(async (repo) => {
        await repo.beginChanges();
        expect(await repo.findById(booking.id)).toBeUndefined();
        const [stamp] = (await repo.takeStamps(1)) as [Stamp];
        await repo.insert(booking, stamp);
        await repo.addChange(entry(booking, stamp.version));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await engine.repo.findById(booking.id)).toBeUndefined();
    expect(await engine.repo.historyOf([booking.id])).toEqual([]);
    expect(await engine.repo.isPaymentReferenceTaken(booking.paymentReference)).toBe(false);
    expect(await engine.repo.readPosition()).toEqual(position);
  });
});
