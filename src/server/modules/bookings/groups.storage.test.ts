import { beforeAll, describe, expect, test } from 'vitest';
import { transact } from '../../storage/firestore/context.ts';
import { deadline } from '../../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createGroupSessionsFirestoreRepository } from './groups.firestore.ts';
import type { GroupSessionRecord, GroupSessionsRepository } from './groups.storage.ts';

/**
 * The group sessions' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL
 * with TEST_DATABASE_URL) and Firestore (Google's emulator). That the last seat is taken once under concurrency
 * is tested through the API on every engine (bookings.groups.test.ts).
 */
interface Engine {
  repo: GroupSessionsRepository;
  transaction<T>(work: (repo: GroupSessionsRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.groups,
    transaction: (work) => storage.transaction((repos) => work(repos.groups)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('groups');
  return {
    repo: createGroupSessionsFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createGroupSessionsFirestoreRepository({ db, tx }))),
    close,
  };
}

const group = (fields: Partial<GroupSessionRecord> = {}): GroupSessionRecord => ({
  id: crypto.randomUUID(),
  moduleName: 'Introduction to Statistics',
  moduleCategory: 'Statistics',
  date: '2027-03-04',
  start: '14:00',
  hours: 2,
  seats: 3,
  priceCents: 150_00,
  tutor: { id: crypto.randomUUID(), name: 'Musa Stats' },
  taken: [],
  createdAt: '2026-12-02T10:00:00.000Z',
  ...fields,
});

describe.each(contractEngines(openSql, openFirestore))('the group sessions’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('stored and found whole; listed from a date, soonest first; an unknown id finds nothing', async () => {
    const { repo } = engine;
    const later = group({ date: '2031-05-02', start: '09:00' });
    const sooner = group({ date: '2031-05-01', start: '16:00' });
    const same = group({ date: '2031-05-01', start: '08:00' });
    const past = group({ date: '2031-04-30' });
    for (const g of [later, sooner, same, past]) await repo.insert(g);
    expect(await repo.find(later.id)).toEqual(later);
    expect((await repo.listFrom('2031-05-01')).map((g) => g.id)).toEqual([same.id, sooner.id, later.id]);
    for (const nobody of [crypto.randomUUID(), 'a/b', '']) expect(await repo.find(nobody)).toBeUndefined();
  });

  test('seats set in a transaction stay; a failed one sets nothing; a tutor’s groups renamed and forgotten', async () => {
    const { repo } = engine;
    const tutorId = crypto.randomUUID();
    const mine = group({ tutor: { id: tutorId, name: 'Old Name' } });
    await repo.insert(mine);
    const seat = { bookingId: crypto.randomUUID(), userId: crypto.randomUUID() };
    await engine.transaction(async (inTx) => {
      expect((await inTx.find(mine.id))?.taken).toEqual([]);
      await inTx.setTaken(mine.id, [seat]);
    });
    expect((await repo.find(mine.id))?.taken).toEqual([seat]);
    await expect(
      engine.transaction(async (inTx) => {
        await inTx.find(mine.id);
        await inTx.setTaken(mine.id, []);
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect((await repo.find(mine.id))?.taken).toEqual([seat]);

    await engine.transaction(async (inTx) => {
      const theirs = await inTx.ofTutor(tutorId);
      expect(theirs.map((g) => g.id)).toEqual([mine.id]);
      for (const g of theirs) await inTx.setTutor(g.id, { id: tutorId, name: 'New Name' });
    });
    expect((await repo.find(mine.id))?.tutor).toEqual({ id: tutorId, name: 'New Name' });
    await repo.setTutor(mine.id, { id: null, name: 'Deleted user' });
    expect(await repo.ofTutor(tutorId)).toEqual([]);
    expect((await repo.find(mine.id))?.tutor).toEqual({ id: null, name: 'Deleted user' });
  });
});
