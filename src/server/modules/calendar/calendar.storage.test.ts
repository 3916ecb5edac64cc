import { beforeAll, describe, expect, test } from 'vitest';
import { transact } from '../../storage/firestore/context.ts';
import { deadline } from '../../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createCalendarFeedsFirestoreRepository } from './calendar.firestore.ts';
import type { CalendarFeedRecord, CalendarFeedsRepository } from './calendar.storage.ts';
import { hashSecret } from './calendar.usecases.ts';

/**
 * The calendar feeds' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL
 * with TEST_DATABASE_URL) and Firestore (Google's emulator). Few cases, each doing several things: every
 * emulator test costs seconds.
 */
interface Engine {
  repo: CalendarFeedsRepository;
  transaction<T>(work: (repo: CalendarFeedsRepository) => Promise<T>): Promise<T>;
  /** A user's account, which SQL's foreign key wants. */
  newUser(): Promise<string>;
  close(): Promise<void>;
}

const now = '2026-12-02T10:00:00.000Z';

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.calendarFeeds,
    transaction: (work) => storage.transaction((repos) => work(repos.calendarFeeds)),
    async newUser() {
      const id = crypto.randomUUID();
      await storage.repos.accounts.insertInvited(
        { id, name: 'Thandi', email: `${id}@example.com`, role: 'tutor' },
        new Date(now),
      );
      return id;
    },
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('calendar');
  return {
    repo: createCalendarFeedsFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createCalendarFeedsFirestoreRepository({ db, tx }))),
    // No foreign keys: any id will do.
    newUser: () => Promise.resolve(crypto.randomUUID()),
    close,
  };
}

const record = (userId: string, secret: string, createdAt = now): CalendarFeedRecord => ({
  userId,
  secretHash: hashSecret(secret),
  createdAt,
});

describe.each(contractEngines(openSql, openFirestore))('the calendar feeds’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('none until saved; found by user and by hash; a renewal replaces the hash, the old finds nothing', async () => {
    const { repo } = engine;
    const [user, other] = [await engine.newUser(), await engine.newUser()];
    expect(await repo.find(user)).toBeUndefined();
    await repo.save(record(user, 'first'));
    await repo.save(record(other, 'other'));
    expect(await repo.find(user)).toEqual(record(user, 'first'));
    expect(await repo.findBySecretHash(hashSecret('first'))).toEqual(record(user, 'first'));
    await repo.save(record(user, 'second', '2026-12-03T08:00:00.000Z'));
    expect(await repo.find(user)).toEqual(record(user, 'second', '2026-12-03T08:00:00.000Z'));
    expect(await repo.findBySecretHash(hashSecret('second'))).toEqual(
      record(user, 'second', '2026-12-03T08:00:00.000Z'),
    );
    expect(await repo.findBySecretHash(hashSecret('first'))).toBeUndefined();
    expect(await repo.findBySecretHash(hashSecret('other'))).toEqual(record(other, 'other'));
    for (const nobody of [crypto.randomUUID(), 'a/b', '__proto__', '']) expect(await repo.find(nobody)).toBeUndefined();
    expect(await repo.findBySecretHash(hashSecret('never made'))).toBeUndefined();
  });

  test('a deleted one is gone, and deleting none is no error; a failed transaction saves nothing', async () => {
    const { repo } = engine;
    const [user, other] = [await engine.newUser(), await engine.newUser()];
    await repo.save(record(user, 'gone soon'));
    await engine.transaction((inTx) => inTx.delete(user));
    expect(await repo.find(user)).toBeUndefined();
    expect(await repo.findBySecretHash(hashSecret('gone soon'))).toBeUndefined();
    await repo.delete(user);
    await repo.delete('a/b');
    await expect(
      engine.transaction(async (inTx) => {
        expect(await inTx.find(other)).toBeUndefined();
        await inTx.save(record(other, 'refused'));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await repo.find(other)).toBeUndefined();
    expect(await repo.findBySecretHash(hashSecret('refused'))).toBeUndefined();
  });
});

test('on SQL, a user’s feed goes with their account (the foreign key cascades); two feeds never share a hash', async () => {
  const { storage, close } = await openSqlEngine();
  try {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids)
      await storage.repos.accounts.insertInvited(
        { id, name: 'Thandi', email: `${id}@example.com`, role: 'student' },
        new Date(now),
      );
    await storage.repos.calendarFeeds.save(record(ids[0]!, 'mine'));
    await expect(storage.repos.calendarFeeds.save(record(ids[1]!, 'mine'))).rejects.toThrow();
    await storage.transaction((repos) => repos.accounts.delete(ids[0]!));
    expect(await storage.repos.calendarFeeds.find(ids[0]!)).toBeUndefined();
    expect(await storage.repos.calendarFeeds.findBySecretHash(hashSecret('mine'))).toBeUndefined();
  } finally {
    await close();
  }
});
