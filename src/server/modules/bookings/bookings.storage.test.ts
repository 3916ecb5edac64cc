import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createDb, migrateToLatest } from '../../db/create-db.ts';
import { createSqlStorage } from '../../storage/sql-storage.ts';
import { createTestDatabase } from '../../test/harness.ts';
import type { BookingChangeRecord, BookingRecord, BookingsRepository } from './bookings.storage.ts';

/**
 * The bookings' repository contract, the cases any engine must pass: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) today; a Firestore engine joins the list when it implements BookingsRepository. Races are
 * run for real: several writers at once.
 */
interface Engine {
  repo: BookingsRepository;
  /** Runs `work` in one transaction of the engine, with the repository on it. */
  transaction<T>(work: (repo: BookingsRepository) => Promise<T>): Promise<T>;
  /** A student's account (bookings name their student's). */
  addStudent(name: string): Promise<Student>;
  close(): Promise<void>;
}

type Student = BookingRecord['student'] & { id: string };

async function openSql(): Promise<Engine> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bookings-storage-'));
  const database = await createTestDatabase(dir);
  const { db, kind } = createDb(database.url);
  await migrateToLatest(db);
  const storage = createSqlStorage(db, kind);
  return {
    repo: storage.repos.bookings,
    transaction: (work) => storage.transaction((repos) => work(repos.bookings)),
    async addStudent(name) {
      const student = { id: crypto.randomUUID(), name, email: `${crypto.randomUUID()}@example.com` };
      await storage.repos.accounts.insertInvited({ ...student, role: 'student' }, new Date());
      return student;
    },
    async close() {
      await storage.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
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

describe.each([['SQL', openSql]])('the bookings’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, 90_000);

  test('a booking and its history are read back as written; the history in the order it happened', async () => {
    const { repo } = engine;
    const booking = newBooking(await engine.addStudent('Thandi Mokoena'), { version: 7 });
    await repo.insert(booking);
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
  });

  test('versions are handed out in order, each once, however many writers take them at once', async () => {
    const { repo } = engine;
    const before = await repo.readVersion();
    const firsts = await Promise.all(Array.from({ length: 5 }, () => engine.transaction((r) => r.takeVersions(3))));
    const taken = firsts.flatMap((first) => [first, first + 1, first + 2]).sort((a, b) => a - b);
    expect(taken).toEqual(Array.from({ length: 15 }, (_, i) => before + 1 + i));
    expect(await repo.readVersion()).toBe(before + 15);
    // 0 only waits for the other writers: nothing is handed out.
    expect(await engine.transaction((r) => r.takeVersions(0))).toBe(before + 16);
    expect(await repo.readVersion()).toBe(before + 15);
  });

  test('of five changes at once from the same version one wins; a change from an old version changes nothing', async () => {
    const { repo } = engine;
    const booking = newBooking(await engine.addStudent('Sipho Dlamini'), { version: 3 });
    await repo.insert(booking);
    const won = await Promise.all(
      ['09:00', '14:00', '17:30', '09:00', '14:00'].map((slot, i) =>
        repo.updateIfAtVersion(booking.id, 3, {
          status: 'Confirmed',
          confirmedSlot: slot,
          reminderSentAt: null,
          updatedAt: `2026-11-25T00:00:0${i}.000Z`,
          version: 10 + i,
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
    expect(await repo.updateIfAtVersion(booking.id, 3, { status: 'Cancelled', version: 20 })).toBe(false);
    expect(await repo.updateIfAtVersion(crypto.randomUUID(), 1, { status: 'Cancelled', version: 20 })).toBe(false);
    // What an update leaves out stays; a late cancellation is a boolean both ways.
    expect(
      await repo.updateIfAtVersion(booking.id, after!.version, {
        status: 'Cancelled',
        lateCancellation: true,
        version: 21,
      }),
    ).toBe(true);
    expect(await repo.findById(booking.id)).toEqual({
      ...after,
      status: 'Cancelled',
      lateCancellation: true,
      version: 21,
    });
    await repo.setVersion(booking.id, 22);
    expect((await repo.findById(booking.id))?.version).toBe(22);
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
    for (const booking of booked) await repo.insert(booking);
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

  test('changes since a version come in version order, limited to what a user may see', async () => {
    const { repo } = engine;
    const [a, b] = [await engine.addStudent('Since A'), await engine.addStudent('Since B')];
    const base = (await repo.readVersion()) + 1_000;
    const booked = [
      newBooking(a, { version: base + 3, moduleCategory: 'Mathematics' }),
      newBooking(b, { version: base + 1, moduleCategory: 'Statistics' }),
      newBooking(b, { version: base + 2, moduleCategory: 'Uncategorized' }),
      newBooking(b, { version: base, moduleCategory: 'Mathematics' }),
    ];
    for (const booking of booked) await repo.insert(booking);
    const [mine, stats, other, older] = booked as [BookingRecord, BookingRecord, BookingRecord, BookingRecord];
    expect(ids(await repo.listChangedSince({ version: base, limit: 10 }))).toEqual(ids([stats, other, mine]));
    expect(ids(await repo.listChangedSince({ version: base, limit: 2 }))).toEqual(ids([stats, other]));
    const student = { userId: a.id, categories: [] };
    expect(ids(await repo.listChangedSince({ version: base - 1, visibleTo: student, limit: 10 }))).toEqual(ids([mine]));
    const tutor = { userId: a.id, categories: ['Mathematics' as const] };
    expect(ids(await repo.listChangedSince({ version: base - 1, visibleTo: tutor, limit: 10 }))).toEqual(
      ids([older, mine]),
    );
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
    for (const booking of booked) await repo.insert(booking);
    const [noon, morning] = booked as [BookingRecord, BookingRecord];
    expect(await repo.countRequestsSince(student.id, '2026-11-24T10:30:00.000Z')).toBe(3);
    expect(await repo.countRequestsSince(student.id, '2026-11-24T13:00:00.000Z')).toBe(0);
    const window = { after: '2030-01-02T00:00:00.000Z', until: '2030-01-02T23:59:59.000Z', limit: 10 };
    expect(ids(await repo.findDueReminders(window))).toEqual(ids([morning, noon]));
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => repo.claimReminder(morning.id, morning.version, '2030-01-01T08:00:00.000Z')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await repo.findById(morning.id))?.reminderSentAt).toBe('2030-01-01T08:00:00.000Z');
    // A booking changed since it was read is not claimed.
    expect(await repo.claimReminder(noon.id, noon.version + 1, '2030-01-01T12:00:00.000Z')).toBe(false);
    expect(ids(await repo.findDueReminders(window))).toEqual(ids([noon]));
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
    for (const booking of [later, own, confirmedByTutor, untouched]) await repo.insert(booking);
    const byTutor = entry(confirmedByTutor, 2, {
      by: { id: tutor.id, name: tutor.name, role: 'tutor' },
      to: 'Confirmed',
    });
    await repo.addChange(entry(own, 1));
    await repo.addChange(entry(confirmedByTutor, 1));
    await repo.addChange(byTutor);

    expect(ids(await repo.listOf(student.id))).toEqual(ids([own, later]));
    expect(ids(await repo.listTouchedBy(student.id))).toEqual(ids([own, later].sort((x, y) => (x.id < y.id ? -1 : 1))));
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
      student: { id: student.id, name: 'Deleted user', email: '' },
      concepts: '',
      updatedAt: 'scrubbed',
    });
    expect(await repo.findById(untouched.id)).toEqual(untouched);
  });

  test('a transaction that reads, writes and then fails leaves nothing behind', async () => {
    const booking = newBooking(await engine.addStudent('Rolled Back'));
    const version = await engine.repo.readVersion();
    await expect(
      engine.transaction(async (repo) => {
        await repo.takeVersions(1);
        expect(await repo.findById(booking.id)).toBeUndefined();
        await repo.insert(booking);
        await repo.addChange(entry(booking, 1));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await engine.repo.findById(booking.id)).toBeUndefined();
    expect(await engine.repo.historyOf([booking.id])).toEqual([]);
    expect(await engine.repo.isPaymentReferenceTaken(booking.paymentReference)).toBe(false);
    expect(await engine.repo.readVersion()).toBe(version);
  });
});
