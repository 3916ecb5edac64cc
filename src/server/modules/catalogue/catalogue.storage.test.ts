import { beforeAll, describe, expect, test } from 'vitest';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createCatalogueFirestoreRepository } from './catalogue.firestore.ts';
import type { CatalogueRepository, NewModule } from './catalogue.storage.ts';
import { createCatalogueRepository } from './catalogue.repository.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * The catalogue's repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and Firestore (Google's emulator). Races are run for real: several writers at once.
 */
interface Engine {
  repo: CatalogueRepository;
  /** Runs `work` in one transaction of the engine, with the repository on it. */
  transaction<T>(work: (repo: CatalogueRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { db, storage, close } = await openSqlEngine();
  return {
    repo: createCatalogueRepository(db),
    transaction: (work) => storage.transaction((repos) => work(repos.catalogue)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('catalogue');
  return {
    repo: createCatalogueFirestoreRepository({ db }),
    transaction: (work) => db.runTransaction((tx) => work(createCatalogueFirestoreRepository({ db, tx }))),
    close,
  };
}

const now = '2026-11-24T10:00:00.000Z';
function newModule(name: string, extra: Partial<NewModule> = {}): NewModule {
  return {
    id: crypto.randomUUID(),
    slug: name.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-'),
    name,
    category: 'Mathematics',
    priceCents: 20_000,
    description: `About ${name}.`,
    topics: ['Limits', 'Derivatives'],
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

const duplicate = { code: 'modules.duplicate_name' };

describe.each(contractEngines(openSql, openFirestore))('the catalogue’s storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('a module stored is read back whole, by id, by its name in any case, and in the list', async () => {
    const { repo } = engine;
    const module = newModule('Calculus One');
    const expected: Omit<NewModule, 'createdAt'> & { createdAt?: string } = { ...module };
    delete expected.createdAt;
    expect(await repo.insert(module)).toEqual(expected);
    expect(await repo.findById(module.id)).toEqual(expected);
    expect(await repo.findByName('calculus ONE')).toEqual(expected);
    expect(await repo.list()).toContainEqual(expected);
    expect(await repo.findById(crypto.randomUUID())).toBeUndefined();
    expect(await repo.findByName('No such module')).toBeUndefined();
  });

  test('a clash is another module with the name in any case, or with the slug; a module does not clash with itself', async () => {
    const { repo } = engine;
    const module = await repo.insert(newModule('Linear Algebra'));
    expect(await repo.findClash('LINEAR algebra', 'something-else')).toBe(module.id);
    expect(await repo.findClash('Another name', 'linear-algebra')).toBe(module.id);
    expect(await repo.findClash('Linear Algebra', 'linear-algebra', module.id)).toBeUndefined();
    expect(await repo.findClash('Unused name', 'unused-name')).toBeUndefined();
  });

  test('of ten admins adding one name at once, one succeeds and nine hear the name is taken', async () => {
    const { repo } = engine;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => repo.insert(newModule(i % 2 ? 'Race Module' : 'race module'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect(r.reason).toMatchObject(duplicate);
    expect((await repo.list()).filter((m) => m.name.toLowerCase() === 'race module')).toHaveLength(1);
  });

  test('an update changes what it names and keeps the rest and the slug; the old name is free again', async () => {
    const { repo } = engine;
    const module = await repo.insert(newModule('Statistics Basics', { category: 'Statistics' }));
    const updated = await repo.update(module.id, {
      name: 'Statistics Foundations',
      priceCents: 25_000,
      updatedAt: 'later',
    });
    expect(updated).toEqual({ ...module, name: 'Statistics Foundations', priceCents: 25_000, updatedAt: 'later' });
    expect(await repo.findById(module.id)).toEqual(updated);
    expect(await repo.findByName('statistics foundations')).toEqual(updated);
    expect(await repo.findByName('Statistics Basics')).toBeUndefined();
    await repo.insert(newModule('Statistics Basics', { slug: 'statistics-basics-2' }));
    // The same name in another case is the module's own.
    expect((await repo.update(module.id, { name: 'STATISTICS FOUNDATIONS', updatedAt: 'later' }))?.name).toBe(
      'STATISTICS FOUNDATIONS',
    );
    expect(await repo.update(crypto.randomUUID(), { name: 'Nothing', updatedAt: 'later' })).toBeUndefined();
  });

  test('renaming to another module’s name is refused and changes nothing', async () => {
    const { repo } = engine;
    const first = await repo.insert(newModule('Discrete Maths'));
    const second = await repo.insert(newModule('Number Theory'));
    await expect(repo.update(second.id, { name: 'discrete maths', updatedAt: 'later' })).rejects.toMatchObject(
      duplicate,
    );
    expect(await repo.findById(second.id)).toEqual(second);
    expect(await repo.findByName('Discrete Maths')).toEqual(first);
  });

  test('five raises at once all count, and a raise past the maximum changes nothing', async () => {
    const { repo } = engine;
    const module = await repo.insert(newModule('Probability', { priceCents: 10_000 }));
    await Promise.all(Array.from({ length: 5 }, () => repo.raisePrice(module.id, 1_000, 100_000, 'raised')));
    expect((await repo.findById(module.id))?.priceCents).toBe(15_000);
    expect(await repo.raisePrice(module.id, 1_000, 15_500, 'raised')).toBeUndefined();
    expect((await repo.findById(module.id))?.priceCents).toBe(15_000);
    expect(await repo.raisePrice(crypto.randomUUID(), 1_000, 100_000, 'raised')).toBeUndefined();
  });

  test('the names of modules by id leave out those that no longer exist', async () => {
    const { repo } = engine;
    const kept = await repo.insert(newModule('Set Theory'));
    const gone = await repo.insert(newModule('Topology'));
    await repo.delete(gone.id);
    expect(await repo.findNames([kept.id, gone.id, kept.id])).toEqual(
      new Map([[kept.id, { name: 'Set Theory', slug: 'set-theory' }]]),
    );
    expect(await repo.findNames([])).toEqual(new Map());
  });

  test('a deleted module is gone, its name free again; deleting it twice says there was none', async () => {
    const { repo } = engine;
    const module = await repo.insert(newModule('Geometry'));
    expect(await repo.delete(module.id)).toBe(true);
    expect(await repo.findById(module.id)).toBeUndefined();
    expect(await repo.findByName('Geometry')).toBeUndefined();
    expect(await repo.delete(module.id)).toBe(false);
    await repo.insert(newModule('Geometry'));
  });

  test('a transaction that reads, writes and then fails leaves nothing behind', async () => {
    const module = newModule('Rolled Back');
    await expect(
      engine.transaction(async (repo) => {
        expect(await repo.findClash(module.name, module.slug)).toBeUndefined();
        await repo.insert(module);
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await engine.repo.findById(module.id)).toBeUndefined();
    expect(await engine.repo.findClash(module.name, module.slug)).toBeUndefined();
  });
});
