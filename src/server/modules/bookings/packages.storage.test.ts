import { beforeAll, describe, expect, test } from 'vitest';
import type { PackageOffer } from '../../../common/packages.ts';
import { transact } from '../../storage/firestore/context.ts';
import { deadline } from '../../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createPackagesFirestoreRepository } from './packages.firestore.ts';
import type { PackageRecord, PackagesRepository } from './packages.storage.ts';

/**
 * The monthly packages' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL
 * with TEST_DATABASE_URL) and Firestore (Google's emulator). That sessions draw their hours in the confirmation's
 * transaction, never the same last hour twice, is tested through the API on every engine
 * (bookings.packages.test.ts).
 */
interface Engine {
  repo: PackagesRepository;
  transaction<T>(work: (repo: PackagesRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.packages,
    transaction: (work) => storage.transaction((repos) => work(repos.packages)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('packages');
  return {
    repo: createPackagesFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createPackagesFirestoreRepository({ db, tx }))),
    close,
  };
}

const offer = (fields: Partial<PackageOffer> = {}): PackageOffer => ({
  id: crypto.randomUUID(),
  name: '10 hours of Mathematics',
  category: 'Mathematics',
  moduleName: null,
  hours: 10,
  priceCents: 800_00,
  carryOver: false,
  lateCancel: 'all',
  active: true,
  updatedAt: '2026-12-03T10:00:00.000Z',
  ...fields,
});

let references = 0;
const pkg = (fields: Partial<PackageRecord> = {}): PackageRecord => ({
  id: crypto.randomUUID(),
  offerId: crypto.randomUUID(),
  name: '10 hours of Mathematics',
  category: 'Mathematics',
  moduleName: 'Calculus I',
  minutes: 600,
  usedMinutes: 0,
  priceCents: 800_00,
  carryOver: true,
  lateCancel: 'half',
  student: { id: crypto.randomUUID(), name: 'Thandi Mokoena', email: 'thandi@example.com' },
  month: '2026-12',
  validUntil: '2027-01-31',
  paymentReference: `TB-${String(references++).padStart(6, 'A')}-P`,
  payments: { paidCents: 0, refundedCents: 0, waivedCents: 0 },
  createdAt: `2026-12-03T10:00:0${references % 10}.000Z`,
  ...fields,
});

describe.each(contractEngines(openSql, openFirestore))('the packages’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('an offer is stored whole and changed whole; an unknown one finds nothing', async () => {
    const { repo } = engine;
    const first = offer({ moduleName: 'Calculus I' });
    await repo.saveOffer(first);
    expect(await repo.findOffer(first.id)).toEqual(first);
    const changed = { ...first, active: false, priceCents: 750_00 };
    await repo.saveOffer(changed);
    expect(await repo.findOffer(first.id)).toEqual(changed);
    expect((await repo.listOffers()).filter((o) => o.id === first.id)).toEqual([changed]);
    expect(await repo.findOffer(crypto.randomUUID())).toBeUndefined();
  });

  test('a package is stored whole, found by id and by its student, newest first; its reference is taken', async () => {
    const { repo } = engine;
    const older = pkg({ createdAt: '2026-12-01T08:00:00.000Z' });
    const newer = pkg({ student: older.student, createdAt: '2026-12-02T08:00:00.000Z', moduleName: null });
    await repo.insert(older);
    await repo.insert(newer);
    expect(await repo.find(older.id)).toEqual(older);
    expect(await repo.ofStudent(older.student.id!)).toEqual([newer, older]);
    expect(await repo.isReferenceTaken(older.paymentReference)).toBe(true);
    expect(await repo.isReferenceTaken('TB-ZZZZZZ-P')).toBe(false);
    expect(await repo.find(crypto.randomUUID())).toBeUndefined();
    expect((await repo.list(1000)).map((p) => p.id)).toEqual(expect.arrayContaining([older.id, newer.id]));
    await expect(repo.insert({ ...pkg(), id: older.id })).rejects.toThrow();
  });

  test('packages found by many references at once, in and out of a transaction; a reference nobody holds, none', async () => {
    const { repo } = engine;
    const held = [pkg(), pkg(), pkg()];
    for (const p of held) await repo.insert(p);
    const byId = (found: PackageRecord[]) => [...found].sort((a, b) => a.id.localeCompare(b.id));
    // A statement's hundreds of references, most held by nobody: the held ones last, past the first reads' worth.
    const nobodys = Array.from({ length: 650 }, (_, i) => `TB-${String(i).padStart(6, 'Z')}-P`);
    const references = [...nobodys, 'TB-ABCDEF', ...held.map((p) => p.paymentReference)];
    expect(byId(await repo.findByPaymentReferences(references))).toEqual(byId(held));
    expect(await repo.findByPaymentReferences([held[1]!.paymentReference])).toEqual([held[1]]);
    expect(await repo.findByPaymentReferences([])).toEqual([]);
    expect(await repo.findByPaymentReferences(nobodys.slice(0, 3))).toEqual([]);
    // A session's reference with the package's code is not the package's.
    expect(await repo.findByPaymentReferences([held[0]!.paymentReference.slice(0, -2)])).toEqual([]);
    const inTransaction = await engine.transaction((tx) => tx.findByPaymentReferences(references));
    expect(byId(inTransaction)).toEqual(byId(held));
  });

  test('hours and money change in a transaction; the student’s name changes and is forgotten', async () => {
    const { repo } = engine;
    const stored = pkg();
    await repo.insert(stored);
    await engine.transaction(async (tx) => {
      const read = await tx.find(stored.id);
      expect(read?.usedMinutes).toBe(0);
      await tx.update(stored.id, { usedMinutes: 120 });
    });
    await repo.update(stored.id, { payments: { paidCents: 800_00, refundedCents: 0, waivedCents: 0 } });
    expect(await repo.find(stored.id)).toEqual({
      ...stored,
      usedMinutes: 120,
      payments: { paidCents: 800_00, refundedCents: 0, waivedCents: 0 },
    });
    await repo.setStudent(stored.student.id!, { name: 'Thandi M.' }, false);
    expect((await repo.find(stored.id))?.student).toEqual({ ...stored.student, name: 'Thandi M.' });
    await repo.setStudent(stored.student.id!, { name: 'Deleted user', email: '' }, true);
    expect((await repo.find(stored.id))?.student).toEqual({ id: null, name: 'Deleted user', email: '' });
    expect(await repo.ofStudent(stored.student.id!)).toEqual([]);
  });
});
