import { beforeAll, describe, expect, test } from 'vitest';
import { noAvailability, type Availability } from '../../../common/availability.ts';
import { transact } from '../../storage/firestore/context.ts';
import { deadline } from '../../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createAvailabilityFirestoreRepository } from './availability.firestore.ts';
import type { AvailabilityRepository, TutorAvailabilityRecord } from './availability.storage.ts';

/**
 * The availability's repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL
 * with TEST_DATABASE_URL) and Firestore (Google's emulator). Few cases, each doing several things: every
 * emulator test costs seconds.
 */
interface Engine {
  repo: AvailabilityRepository;
  transaction<T>(work: (repo: AvailabilityRepository) => Promise<T>): Promise<T>;
  /** A tutor's account, which SQL's foreign key wants. */
  newTutor(): Promise<string>;
  close(): Promise<void>;
}

const now = '2026-12-02T10:00:00.000Z';

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.availability,
    transaction: (work) => storage.transaction((repos) => work(repos.availability)),
    async newTutor() {
      const id = crypto.randomUUID();
      await storage.repos.accounts.insertInvited(
        { id, name: 'Thabo', email: `${id}@example.com`, role: 'tutor' },
        new Date(now),
      );
      return id;
    },
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('availability');
  return {
    repo: createAvailabilityFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createAvailabilityFirestoreRepository({ db, tx }))),
    // No foreign keys: any id will do.
    newTutor: () => Promise.resolve(crypto.randomUUID()),
    close,
  };
}

/** A split shift on Monday, evenings to midnight on Friday, Saturday morning; two dates off; a 15-minute buffer. */
const busyWeek: Availability = {
  weekly: [
    [
      { start: '08:00', end: '12:00' },
      { start: '14:30', end: '17:00' },
    ],
    [],
    [{ start: '09:00', end: '10:00' }],
    [],
    [{ start: '18:00', end: '24:00' }],
    [{ start: '07:00', end: '11:00' }],
    [],
  ],
  daysOff: ['2026-12-16', '2026-12-25'],
  bufferMinutes: 15,
};

const record = (tutorId: string, availability: Availability, updatedAt = now): TutorAvailabilityRecord => ({
  tutorId,
  availability,
  updatedAt,
});

describe.each(contractEngines(openSql, openFirestore))('the availability’s storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('a tutor has none until saved; saved, it is read back whole; a save replaces all of it', async () => {
    const { repo } = engine;
    const [tutor, other] = [await engine.newTutor(), await engine.newTutor()];
    expect(await repo.find(tutor)).toBeUndefined();
    await repo.save(record(tutor, busyWeek));
    await repo.save(record(other, { ...noAvailability, bufferMinutes: 30 }));
    expect(await repo.find(tutor)).toEqual(record(tutor, busyWeek));
    // Fewer ranges, no dates off: nothing of the old week stays.
    const quieter: Availability = {
      ...noAvailability,
      weekly: [[], [{ start: '10:00', end: '11:00' }], [], [], [], [], []],
    };
    await repo.save(record(tutor, quieter, '2026-12-03T08:00:00.000Z'));
    expect(await repo.find(tutor)).toEqual(record(tutor, quieter, '2026-12-03T08:00:00.000Z'));
    expect(await repo.find(other)).toEqual(record(other, { ...noAvailability, bufferMinutes: 30 }));
    for (const nobody of [crypto.randomUUID(), 'a/b', '__proto__', '']) expect(await repo.find(nobody)).toBeUndefined();
  });

  test('many tutors’ at once: those that have one, in the order asked, each once', async () => {
    const { repo } = engine;
    const [a, b, none, c] = [
      await engine.newTutor(),
      await engine.newTutor(),
      await engine.newTutor(),
      await engine.newTutor(),
    ];
    await repo.save(record(a, busyWeek));
    await repo.save(record(b, noAvailability));
    await repo.save(record(c, { ...busyWeek, bufferMinutes: 0 }));
    const found = await repo.findMany([c, none, a, 'a/b', c, b]);
    expect(found).toEqual([
      record(c, { ...busyWeek, bufferMinutes: 0 }),
      record(a, busyWeek),
      record(b, noAvailability),
    ]);
    expect(await repo.findMany([])).toEqual([]);
    expect(await repo.findMany([none])).toEqual([]);
  });

  test('a deleted one is gone, and deleting none is no error; a failed transaction saves nothing', async () => {
    const { repo } = engine;
    const [tutor, other] = [await engine.newTutor(), await engine.newTutor()];
    await repo.save(record(tutor, busyWeek));
    await engine.transaction((inTx) => inTx.delete(tutor));
    expect(await repo.find(tutor)).toBeUndefined();
    await repo.delete(tutor);
    await repo.delete('a/b');
    await expect(
      engine.transaction(async (inTx) => {
        expect(await inTx.find(other)).toBeUndefined();
        await inTx.save(record(other, busyWeek));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await repo.find(other)).toBeUndefined();
  });
});

test('on SQL, a tutor’s record goes with their account (the foreign key cascades)', async () => {
  const { storage, close } = await openSqlEngine();
  try {
    const id = crypto.randomUUID();
    await storage.repos.accounts.insertInvited(
      { id, name: 'Thabo', email: `${id}@example.com`, role: 'tutor' },
      new Date(now),
    );
    await storage.repos.availability.save(record(id, busyWeek));
    await storage.transaction((repos) => repos.accounts.delete(id));
    expect(await storage.repos.availability.find(id)).toBeUndefined();
  } finally {
    await close();
  }
});
