import { beforeAll, describe, expect, test } from 'vitest';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import { transact } from '../../storage/firestore/context.ts';
import { seedTestimonials } from '../../storage/firestore/setup.ts';
import { firestoreTestsRun } from '../../test/firestore-emulator.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createTestimonialsFirestoreRepository } from './testimonials.firestore.ts';
import { createTestimonialsRepository } from './testimonials.repository.ts';
import type { NewTestimonial, TestimonialsRepository } from './testimonials.storage.ts';

/**
 * The testimonials' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and Firestore (Google's emulator), each starting from an empty list. Races are run for real:
 * several transactions at once.
 */
interface Engine {
  repo: TestimonialsRepository;
  /** Runs `work` in one transaction of the engine, with the repository on it. */
  transaction<T>(work: (repo: TestimonialsRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { db, kind, storage, close } = await openSqlEngine();
  // The migration's seed is read by testimonials.test.ts; the contract starts from nothing.
  await db.deleteFrom('testimonials').execute();
  return {
    repo: createTestimonialsRepository(db, kind),
    transaction: (work) => storage.transaction((repos) => work(repos.testimonials)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('testimonials');
  return {
    repo: createTestimonialsFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createTestimonialsFirestoreRepository({ db, tx }))),
    close,
  };
}

const now = '2026-12-02T10:00:00.000Z';
function newTestimonial(position: number, extra: Partial<NewTestimonial> = {}): NewTestimonial {
  return {
    id: crypto.randomUUID(),
    name: `Student ${position}`,
    course: 'COMP102',
    quote: 'Loops and arrays make sense now.',
    hidden: false,
    position,
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

/** What the repository gives back: the record without `createdAt`, which the API never shows. */
function withoutCreatedAt(testimonial: NewTestimonial) {
  const { createdAt, ...rest } = testimonial;
  expect(createdAt).toBe(now);
  return rest;
}

describe.each(contractEngines(openSql, openFirestore))('the testimonials’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, 90_000);

  test('a testimonial stored is read back whole, by id and in the list; hidden stays hidden', async () => {
    const { repo } = engine;
    const shown = newTestimonial(100);
    const hidden = newTestimonial(101, { hidden: true, quote: 'Two lines.\nStill one quote.' });
    expect(await repo.insert(shown)).toEqual(withoutCreatedAt(shown));
    expect(await repo.insert(hidden)).toEqual(withoutCreatedAt(hidden));
    expect(await repo.findById(shown.id)).toEqual(withoutCreatedAt(shown));
    expect(await repo.findById(hidden.id)).toEqual(withoutCreatedAt(hidden));
    expect(await repo.list()).toEqual(expect.arrayContaining([withoutCreatedAt(shown), withoutCreatedAt(hidden)]));
    expect(await repo.findById(crypto.randomUUID())).toBeUndefined();
    expect(await repo.findById('a/b')).toBeUndefined();
  });

  test('the list is ordered by position, then by id for two at the same position', async () => {
    const { repo } = engine;
    const [low, high] = [newTestimonial(200), newTestimonial(202)];
    const tied = [newTestimonial(201), newTestimonial(201)];
    for (const t of [high, tied[0]!, low, tied[1]!]) await repo.insert(t);
    const mine = new Set([low, high, ...tied].map((t) => t.id));
    const order = (await repo.list()).filter((t) => mine.has(t.id)).map((t) => t.id);
    expect(order).toEqual([low.id, ...tied.map((t) => t.id).sort(), high.id]);
    const all = await repo.list();
    expect(all.map((t) => t.position)).toEqual([...all.map((t) => t.position)].sort((a, b) => a - b));
  });

  test('an update changes what it names and keeps the rest; none for an id there is not', async () => {
    const { repo } = engine;
    const testimonial = await repo.insert(newTestimonial(300));
    const updated = await repo.update(testimonial.id, { quote: 'Edited.', hidden: true, updatedAt: 'later' });
    expect(updated).toEqual({ ...testimonial, quote: 'Edited.', hidden: true, updatedAt: 'later' });
    expect(await repo.findById(testimonial.id)).toEqual(updated);
    expect(await repo.update(testimonial.id, { hidden: false, updatedAt: 'later still' })).toEqual({
      ...updated,
      hidden: false,
      updatedAt: 'later still',
    });
    expect(await repo.update(crypto.randomUUID(), { name: 'Nobody', updatedAt: 'later' })).toBeUndefined();
    expect(await repo.update('__proto__', { name: 'Nobody', updatedAt: 'later' })).toBeUndefined();
  });

  test('a move puts it at its place, numbers them all 0, 1, 2…, and writes only what changed', async () => {
    const before = await engine.repo.list();
    const target = before.at(-3)!;
    const moved = await engine.transaction((repo) => repo.move(target.id, 0, 'moved'));
    expect(moved!.map((t) => t.id)).toEqual([target.id, ...before.filter((t) => t !== target).map((t) => t.id)]);
    expect(moved!.map((t) => t.position)).toEqual(moved!.map((_, i) => i));
    expect(await engine.repo.list()).toEqual(moved);
    // Moved to where it is: nothing is written.
    const again = await engine.transaction((repo) => repo.move(target.id, 0, 'again'));
    expect(again).toEqual(moved);
    expect((await engine.repo.list()).some((t) => t.updatedAt === 'again')).toBe(false);
    // One place down: only the two that swap are written.
    const down = await engine.transaction((repo) => repo.move(target.id, 1, 'down'));
    expect(down!.filter((t) => t.updatedAt === 'down').map((t) => t.id)).toEqual([moved![1]!.id, target.id]);
    expect(await engine.transaction((repo) => repo.move(crypto.randomUUID(), 0, 'x'))).toBeUndefined();
  });

  test('moves made at once happen one after the other: the order stays whole and numbered', async () => {
    const all = await engine.repo.list();
    for (let round = 0; round < 3; round += 1) {
      const order = await engine.repo.list();
      // Each to the other end of the list: every move renumbers the rows between, which the others move too.
      await Promise.all(
        order
          .slice(0, 6)
          .map((t, i) => engine.transaction((repo) => repo.move(t.id, order.length - 1 - i, `race ${round}.${i}`))),
      );
      const after = await engine.repo.list();
      expect(after.map((t) => t.position)).toEqual(after.map((_, i) => i));
      expect(after.map((t) => t.id).sort()).toEqual(all.map((t) => t.id).sort());
    }
  });

  test('a transaction that writes and then fails leaves nothing behind', async () => {
    const testimonial = newTestimonial(400);
    const before = await engine.repo.list();
    await expect(
      engine.transaction(async (repo) => {
        await repo.move(before[0]!.id, before.length, 'rolled back');
        await repo.insert(testimonial);
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await engine.repo.findById(testimonial.id)).toBeUndefined();
    expect(await engine.repo.list()).toEqual(before);
  });
});

describe.skipIf(!firestoreTestsRun)('a new Firestore database’s testimonials', () => {
  test('are the twelve of the seed, in order, once, even when two processes start at once; never put back', async () => {
    const { db, close } = await openFirestoreEngine('testimonials-seed');
    try {
      const repo = createTestimonialsFirestoreRepository({ db });
      await Promise.all([seedTestimonials(db, new Date()), seedTestimonials(db, new Date())]);
      const seeded = await repo.list();
      expect(seeded.map(({ name, course, quote }) => ({ name, course, quote }))).toEqual(testimonialSeed);
      expect(seeded.map((t) => [t.position, t.hidden])).toEqual(testimonialSeed.map((_, i) => [i, false]));
      // The admin hides one; the next start leaves the list as the admin left it.
      await repo.update(seeded[0]!.id, { hidden: true, updatedAt: now });
      await seedTestimonials(db, new Date());
      const after = await repo.list();
      expect(after).toHaveLength(12);
      expect(after[0]!.hidden).toBe(true);
    } finally {
      await close();
    }
  }, 90_000);
});
