import { beforeAll, describe, expect, test } from 'vitest';
import type { SessionOffer } from '../../../common/session-notes.ts';
import { transact } from '../../storage/firestore/context.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createSessionOffersFirestoreRepository } from './offers.firestore.ts';
import { createSessionOffersRepository } from './offers.repository.ts';
import type { SessionOffersRepository } from './offers.storage.ts';

/**
 * The session offers' repository contract (issue 39 §4), the same cases on each engine: SQL (the SQLite file, or
 * PostgreSQL with TEST_DATABASE_URL) and Firestore (Google's emulator). Offered twice at once, one is stored.
 */
interface Engine {
  repo: SessionOffersRepository;
  transaction<T>(work: (repo: SessionOffersRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { db, storage, close } = await openSqlEngine();
  return {
    repo: createSessionOffersRepository(db),
    transaction: (work) => storage.transaction((repos) => work(repos.sessionOffers)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('session-offers');
  return {
    repo: createSessionOffersFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createSessionOffersFirestoreRepository({ db, tx }))),
    close,
  };
}

const offer = (questionId: string, tutorId: string, createdAt: string, name = 'Musa Stats'): SessionOffer => ({
  questionId,
  tutor: { id: tutorId, name },
  createdAt,
});

describe.each(contractEngines(openSql, openFirestore))('the session offers’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, 90_000);

  test('an offer is stored once per tutor and question, and listed oldest first', async () => {
    const { repo } = engine;
    const [question, musa, lerato] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const first = offer(question, musa, '2026-12-02T10:00:00.000Z');
    expect(await repo.insertOnce(first)).toBe(true);
    expect(await repo.insertOnce({ ...first, createdAt: '2026-12-02T11:00:00.000Z' })).toBe(false);
    const second = offer(question, lerato, '2026-12-02T10:30:00.000Z', 'Lerato Admin');
    expect(await repo.insertOnce(second)).toBe(true);
    expect(await repo.listFor(question)).toEqual([first, second]);
    expect(await repo.listFor(crypto.randomUUID())).toEqual([]);
    expect(await repo.listBy(musa)).toEqual([first]);
  });

  test('offered twice at once, in two transactions: one offer', async () => {
    const [question, tutor] = [crypto.randomUUID(), crypto.randomUUID()];
    const made = offer(question, tutor, '2026-12-03T10:00:00.000Z');
    const stored = await Promise.all([0, 1].map(() => engine.transaction((repo) => repo.insertOnce(made))));
    expect(stored.filter(Boolean)).toHaveLength(1);
    expect(await engine.repo.listFor(question)).toEqual([made]);
  });

  test('a rename reaches the tutor’s offers; the deletion of their account takes them, and only theirs', async () => {
    const { repo } = engine;
    const [q1, q2, tutor, other] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await repo.insertOnce(offer(q1, tutor, '2026-12-04T10:00:00.000Z'));
    await repo.insertOnce(offer(q2, tutor, '2026-12-04T11:00:00.000Z'));
    await repo.insertOnce(offer(q1, other, '2026-12-04T12:00:00.000Z', 'Ayanda Maths'));
    await engine.transaction((inTx) => inTx.renameTutor(tutor, 'Musa Dlamini'));
    expect((await repo.listBy(tutor)).map((o) => o.tutor.name)).toEqual(['Musa Dlamini', 'Musa Dlamini']);
    await engine.transaction((inTx) => inTx.deleteBy(tutor));
    expect(await repo.listBy(tutor)).toEqual([]);
    expect((await repo.listFor(q1)).map((o) => o.tutor.name)).toEqual(['Ayanda Maths']);
  });
});
