import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { transact } from '../storage/firestore/context.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../test/storage-engines.ts';
import { createImportLedgerFirestoreRepository } from './import-ledger.firestore.ts';
import type { ImportLedgerRepository, LedgerEntry } from './import-ledger.storage.ts';
import { deadline } from '../test/deadline.ts';

/** The import ledger's contract, the same cases on SQL and on Firestore's emulator. */
interface Engine {
  repo: ImportLedgerRepository;
  /** Runs `work` with the repository of one transaction (the import writes its entries in one). */
  inTransaction(work: (repo: ImportLedgerRepository) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const sql = await openSqlEngine();
  return {
    repo: sql.storage.repos.importLedger,
    inTransaction: (work) => sql.storage.transaction((repos) => work(repos.importLedger)),
    close: sql.close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('ledger');
  return {
    repo: createImportLedgerFirestoreRepository({ db }),
    inTransaction: (work) => transact(db, (tx) => work(createImportLedgerFirestoreRepository({ db, tx }))),
    close,
  };
}

const entry = (extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  kind: 'bookings',
  oldId: crypto.randomUUID(),
  ourId: crypto.randomUUID(),
  old: { status: 'aaaaaaaaaaaa', date: 'bbbbbbbbbbbb' },
  ours: { status: 'aaaaaaaaaaaa', date: 'cccccccccccc' },
  importedAt: '2026-12-01T08:00:00.000Z',
  ...extra,
});

describe.each(contractEngines(openSql, openFirestore))('the import ledger’s storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  }, deadline(90_000));
  afterAll(() => engine.close());

  test('an entry saved is found by its kind and old id, with its fingerprints; others are left out', async () => {
    const saved = entry();
    await engine.repo.save([saved]);
    const found = await engine.repo.find('bookings', [saved.oldId, 'never-imported']);
    expect([...found.keys()]).toEqual([saved.oldId]);
    expect(found.get(saved.oldId)).toEqual(saved);
    // The same old id under another kind is another record.
    expect((await engine.repo.find('questions', [saved.oldId])).size).toBe(0);
  });

  test('saving an entry again replaces it', async () => {
    const first = entry({ kind: 'users' });
    await engine.repo.save([first]);
    const again = { ...first, old: { name: 'dddddddddddd' }, ours: {}, importedAt: '2026-12-02T08:00:00.000Z' };
    await engine.repo.save([again]);
    expect((await engine.repo.find('users', [first.oldId])).get(first.oldId)).toEqual(again);
  });

  test('many entries are saved and found at once, in a transaction too', async () => {
    const many = Array.from({ length: 620 }, () => entry({ kind: 'answers' }));
    await engine.inTransaction(async (repo) => {
      await repo.save(many.slice(0, 120));
    });
    await engine.repo.save(many.slice(120));
    const found = await engine.repo.find(
      'answers',
      many.map((e) => e.oldId),
    );
    expect(found.size).toBe(many.length);
    expect(found.get(many[619]!.oldId)).toEqual(many[619]);
  });

  test('ids any engine keeps: slashes, dots and Firestore’s reserved names are kept apart', async () => {
    const odd = ['a/b', '..', '__name__', 'x:y', 'ü ✓'];
    await engine.repo.save(odd.map((oldId) => entry({ kind: 'enrolments', oldId })));
    const found = await engine.repo.find('enrolments', odd);
    expect([...found.keys()].sort()).toEqual([...odd].sort());
  });

  test('a transaction that fails saves nothing', async () => {
    const lost = entry({ kind: 'modules' });
    await expect(
      engine.inTransaction(async (repo) => {
        await repo.save([lost]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect((await engine.repo.find('modules', [lost.oldId])).size).toBe(0);
  });
});
