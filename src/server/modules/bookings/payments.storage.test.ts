import { beforeAll, describe, expect, test } from 'vitest';
import { transact } from '../../storage/firestore/context.ts';
import { deadline } from '../../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createPaymentsFirestoreRepository } from './payments.firestore.ts';
import type { BankMapping } from '../../../common/statements.ts';
import type { IgnoredStatementLine, PaymentRecord, PaymentsRepository } from './payments.storage.ts';

/**
 * The payments' repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and Firestore (Google's emulator). That a payment and the booking's sums change together is
 * tested through the API on every engine (bookings.payments.test.ts).
 */
interface Engine {
  repo: PaymentsRepository;
  transaction<T>(work: (repo: PaymentsRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.payments,
    transaction: (work) => storage.transaction((repos) => work(repos.payments)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('payments');
  return {
    repo: createPaymentsFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createPaymentsFirestoreRepository({ db, tx }))),
    close,
  };
}

const payment = (fields: Partial<PaymentRecord> = {}): PaymentRecord => {
  const bookingId = crypto.randomUUID();
  return {
    id: crypto.randomUUID(),
    kind: 'payment',
    method: 'eft',
    amountCents: 360_00,
    paidOn: '2026-12-02',
    reference: 'TB-ABC234',
    note: '',
    statementLineKey: null,
    recordedBy: { id: crypto.randomUUID(), name: 'Lerato Admin' },
    recordedAt: '2026-12-02T10:00:00.000Z',
    allocations: [{ bookingId, amountCents: 360_00 }],
    ...fields,
  };
};

const hash = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');

const ignore = (fields: Partial<IgnoredStatementLine> = {}): IgnoredStatementLine => ({
  key: hash(),
  ignoredBy: { id: crypto.randomUUID(), name: 'Lerato Admin' },
  ignoredAt: '2026-12-02T10:00:00.000Z',
  ...fields,
});

describe.each(contractEngines(openSql, openFirestore))('the payments’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('stored and found whole, by id and by its statement line; an unknown one finds nothing', async () => {
    const { repo } = engine;
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    const split = payment({
      statementLineKey: hash(),
      method: 'statement',
      amountCents: 500_00,
      allocations: [
        { bookingId: b!, amountCents: 140_00 },
        { bookingId: a!, amountCents: 360_00 },
      ],
    });
    await repo.insert(split);
    const whole = {
      ...split,
      allocations: [...split.allocations].sort((x, y) => x.bookingId.localeCompare(y.bookingId)),
    };
    expect(await repo.find(split.id)).toEqual(whole);
    expect(await repo.findByStatementLine(split.statementLineKey!)).toEqual(whole);
    expect(await repo.find(crypto.randomUUID())).toBeUndefined();
    expect(await repo.find('a/b')).toBeUndefined();
    expect(await repo.findByStatementLine(hash())).toBeUndefined();

    const waiver = payment({ kind: 'waiver', method: null, note: 'Goodwill', reference: '' });
    await repo.insert(waiver);
    expect(await repo.find(waiver.id)).toEqual(waiver);
  });

  test('a payment id or a statement line recorded twice throws, and the second records nothing', async () => {
    const { repo } = engine;
    const first = payment({ statementLineKey: hash() });
    await repo.insert(first);
    await expect(repo.insert({ ...first, statementLineKey: hash() })).rejects.toThrow();
    const again = payment({ statementLineKey: first.statementLineKey });
    await expect(engine.transaction((tx) => tx.insert(again))).rejects.toThrow();
    expect(await repo.find(again.id)).toBeUndefined();
    expect((await repo.findByStatementLine(first.statementLineKey!))?.id).toBe(first.id);
  });

  test('a booking’s payments in the order recorded, each whole; the money of some dates, by date', async () => {
    const { repo } = engine;
    const bookingId = crypto.randomUUID();
    const other = crypto.randomUUID();
    const paid = payment({
      recordedAt: '2026-12-01T09:00:00.000Z',
      paidOn: '2030-01-03',
      allocations: [{ bookingId, amountCents: 360_00 }],
    });
    const shared = payment({
      recordedAt: '2026-12-01T10:00:00.000Z',
      paidOn: '2030-01-01',
      amountCents: 400_00,
      allocations: [
        { bookingId: other, amountCents: 200_00 },
        { bookingId, amountCents: 200_00 },
      ].sort((x, y) => x.bookingId.localeCompare(y.bookingId)),
    });
    const refund = payment({
      kind: 'refund',
      recordedAt: '2026-12-01T11:00:00.000Z',
      paidOn: '2030-01-05',
      note: 'Paid twice',
      allocations: [{ bookingId, amountCents: 200_00 }],
    });
    for (const p of [refund, paid, shared]) await repo.insert(p);
    expect(await repo.listForBookings([bookingId])).toEqual([paid, shared, refund]);
    expect(await repo.listForBookings([other])).toEqual([shared]);
    expect(await repo.listForBookings([other, bookingId])).toEqual([paid, shared, refund]);
    expect(await repo.listForBookings([])).toEqual([]);
    expect((await repo.listPaidBetween('2030-01-01', '2030-01-03')).map((p) => p.id)).toEqual([shared.id, paid.id]);
    expect(await repo.listPaidBetween('2030-01-06', '2030-02-01')).toEqual([]);
  });

  test('a package’s payments, refunds and waivers in the order recorded, each whole; many packages at once', async () => {
    const { repo } = engine;
    const packageId = crypto.randomUUID();
    const ofPackage = (fields: Partial<PaymentRecord>) => payment({ allocations: [], packageId, ...fields });
    const paid = ofPackage({ recordedAt: '2026-12-01T09:00:00.000Z', reference: 'TB-ABC234-P' });
    const refund = ofPackage({ kind: 'refund', recordedAt: '2026-12-01T11:00:00.000Z', note: 'Paid twice' });
    const waiver = ofPackage({ kind: 'waiver', method: null, recordedAt: '2026-12-01T10:00:00.000Z', reference: '' });
    const toBooking = payment({ recordedAt: '2026-12-01T08:00:00.000Z' });
    for (const p of [refund, toBooking, paid, waiver]) await repo.insert(p);
    expect(await repo.listForPackages([packageId])).toEqual([paid, waiver, refund]);
    expect(await repo.listForPackages([crypto.randomUUID()])).toEqual([]);
    expect(await repo.listForPackages([])).toEqual([]);

    // More packages than one query takes (Firestore's `in` takes thirty): the last one's payment is found too.
    const many = Array.from({ length: 31 }, () => crypto.randomUUID());
    const last = payment({ allocations: [], packageId: many[30]!, recordedAt: '2026-12-01T07:00:00.000Z' });
    await repo.insert(last);
    expect(await repo.listForPackages([...many, packageId])).toEqual([last, paid, waiver, refund]);
    expect(await engine.transaction((tx) => tx.listForPackages([packageId]))).toEqual([paid, waiver, refund]);
  });

  test('a recorder renamed, then deleted: the name follows, and the id goes, on payments and ignored lines', async () => {
    const { repo } = engine;
    const admin = { id: crypto.randomUUID(), name: 'Lerato Admin' };
    const mine = payment({ recordedBy: admin });
    const others = payment();
    await repo.insert(mine);
    await repo.insert(others);
    const [myLine, otherLine] = [ignore({ ignoredBy: admin }), ignore()];
    await repo.ignoreStatementLines([myLine, otherLine]);
    await engine.transaction((tx) => tx.setRecorderName(admin.id, 'Lerato Dlamini', false));
    expect((await repo.find(mine.id))?.recordedBy).toEqual({ id: admin.id, name: 'Lerato Dlamini' });
    expect((await repo.ignoredStatementLines([myLine.key])).get(myLine.key)?.ignoredBy).toEqual({
      id: admin.id,
      name: 'Lerato Dlamini',
    });
    await repo.setRecorderName(admin.id, 'Deleted user', true);
    expect((await repo.find(mine.id))?.recordedBy).toEqual({ id: null, name: 'Deleted user' });
    expect((await repo.find(others.id))?.recordedBy).toEqual(others.recordedBy);
    const lines = await repo.ignoredStatementLines([myLine.key, otherLine.key]);
    expect(lines.get(myLine.key)?.ignoredBy).toEqual({ id: null, name: 'Deleted user' });
    expect(lines.get(otherLine.key)).toEqual(otherLine);
  });

  test('statement lines ignored: found with who and when, many at once; ignored again, kept as first; taken back, gone', async () => {
    const { repo } = engine;
    const first = ignore();
    const second = ignore({ ignoredAt: '2026-12-03T08:00:00.000Z' });
    await repo.ignoreStatementLines([first]);
    await engine.transaction((tx) => tx.ignoreStatementLines([second]));
    // More than one query's or read's worth of keys, the ignored ones among them.
    const others = Array.from({ length: 650 }, hash);
    const asked = [...others.slice(0, 320), first.key, 'a/b', ...others.slice(320), second.key];
    expect(await repo.ignoredStatementLines(asked)).toEqual(
      new Map([
        [first.key, first],
        [second.key, second],
      ]),
    );
    expect(await repo.ignoredStatementLines([])).toEqual(new Map());

    // The same line ignored again, by someone else later, and beside a new one: the first ignore stays whole.
    const again = {
      ...first,
      ignoredBy: { id: crypto.randomUUID(), name: 'Sipho Admin' },
      ignoredAt: '2026-12-09T00:00:00.000Z',
    };
    const third = ignore();
    await engine.transaction((tx) => tx.ignoreStatementLines([again, third]));
    await repo.ignoreStatementLines([again]);
    expect(await repo.ignoredStatementLines([first.key, third.key])).toEqual(
      new Map([
        [first.key, first],
        [third.key, third],
      ]),
    );

    // Taken back (in a transaction and outside one), then taken back again: gone, and the others stay.
    await engine.transaction((tx) => tx.unignoreStatementLines([first.key]));
    await repo.unignoreStatementLines([third.key, hash(), 'a/b']);
    await repo.unignoreStatementLines([third.key]);
    expect(await repo.ignoredStatementLines([first.key, second.key, third.key])).toEqual(
      new Map([[second.key, second]]),
    );
    // Ignored once more after being taken back: who and when are the new ones.
    await repo.ignoreStatementLines([again]);
    expect((await repo.ignoredStatementLines([first.key])).get(first.key)).toEqual(again);
  });

  test('a package’s payment from a statement line: found by the line, counted recorded, recorded once', async () => {
    const { repo } = engine;
    const packageId = crypto.randomUUID();
    const fromLine = payment({
      method: 'statement',
      reference: 'TB-ABC234-P',
      statementLineKey: hash(),
      allocations: [],
      packageId,
    });
    await engine.transaction((tx) => tx.insert(fromLine));
    expect(await repo.findByStatementLine(fromLine.statementLineKey!)).toEqual(fromLine);
    expect(await engine.transaction((tx) => tx.findByStatementLine(fromLine.statementLineKey!))).toEqual(fromLine);
    expect(await repo.recordedStatementLines([fromLine.statementLineKey!, hash()])).toEqual(
      new Set([fromLine.statementLineKey]),
    );
    // The same line again, for the package or for a booking: refused, and nothing of it stored.
    for (const again of [
      payment({ statementLineKey: fromLine.statementLineKey, allocations: [], packageId }),
      payment({ statementLineKey: fromLine.statementLineKey }),
    ]) {
      await expect(engine.transaction((tx) => tx.insert(again))).rejects.toThrow();
      expect(await repo.find(again.id)).toBeUndefined();
    }
    expect(await repo.listForPackages([packageId])).toEqual([fromLine]);
  });

  test('which statement lines were recorded, asked for many at once', async () => {
    const { repo } = engine;
    const recorded = [hash(), hash()];
    for (const key of recorded) await repo.insert(payment({ statementLineKey: key, method: 'statement' }));
    // More than one query's or read's worth of keys, the recorded ones at the end.
    const asked = [...Array.from({ length: 650 }, hash), 'a/b', ...recorded];
    expect(await repo.recordedStatementLines(asked)).toEqual(new Set(recorded));
    expect(await engine.transaction((tx) => tx.recordedStatementLines(recorded.slice(0, 1)))).toEqual(
      new Set(recorded.slice(0, 1)),
    );
    expect(await repo.recordedStatementLines([])).toEqual(new Set());
  });

  test('one mapping per bank, its name’s case aside; the last saved is the one read', async () => {
    const { repo } = engine;
    const suffix = crypto.randomUUID().slice(0, 8);
    const fnb: BankMapping = {
      bank: `FNB ${suffix}`,
      date: 'Date',
      amount: { kind: 'signed', column: 'Amount' },
      description: ['Description'],
    };
    const capitec: BankMapping = {
      bank: `Capitec ${suffix}`,
      date: 'Transaction Date',
      amount: { kind: 'in-out', in: 'Money In', out: 'Money Out' },
      description: ['Description', 'Original Description'],
    };
    await repo.saveBankMapping(fnb, '2026-12-01T10:00:00.000Z');
    await engine.transaction((tx) => tx.saveBankMapping(capitec, '2026-12-01T10:00:00.000Z'));
    const renamed = { ...fnb, bank: `fnb ${suffix}`, date: 'Transaction date' };
    await repo.saveBankMapping(renamed, '2026-12-02T10:00:00.000Z');
    const mine = (await repo.listBankMappings()).filter((m) => m.bank.endsWith(suffix));
    expect(mine).toEqual([capitec, renamed]);
  });
});
