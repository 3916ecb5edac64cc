import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openFirestoreEngine } from '../../test/storage-engines.ts';
import { atomically, transact } from './context.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * A transaction's writes held until its work is done (docs/decisions/0028), on Google's emulator: steps that
 * each read then write follow one another in one transaction, as an account's deletion runs every feature's
 * part, and a read of a document already written is refused instead of answered with the old version.
 */

let db: Firestore;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFirestoreEngine('context'));
}, deadline(90_000));

afterAll(async () => {
  await close?.();
});

const value = async (path: string) => (await db.doc(path).get()).get('n') as number | undefined;

describe('transact', () => {
  test('two steps that each read then write run in one transaction, which the SDK alone refuses', async () => {
    await db.doc('steps/a').set({ n: 1 });
    await db.doc('steps/b').set({ n: 10 });
    const step = (tx: FirebaseFirestore.Transaction) => async (path: string) => {
      const doc = await tx.get(db.doc(path));
      tx.update(db.doc(path), { n: (doc.get('n') as number) + 1 });
    };

    await transact(db, async (tx) => {
      await step(tx)('steps/a');
      await step(tx)('steps/b');
    });
    expect([await value('steps/a'), await value('steps/b')]).toEqual([2, 11]);

    // The same two steps on the SDK's own transaction: the second step's read follows the first's write.
    await expect(
      db.runTransaction(async (tx) => {
        await step(tx)('steps/a');
        await step(tx)('steps/b');
      }),
    ).rejects.toThrow(/reads .* before all writes/i);
    expect([await value('steps/a'), await value('steps/b')]).toEqual([2, 11]);
  });

  test('a read of a document the transaction wrote is refused, and nothing is written', async () => {
    await db.doc('again/a').set({ n: 1 });
    await expect(
      transact(db, async (tx) => {
        tx.set(db.doc('again/a'), { n: 2 });
        await tx.get(db.doc('again/a'));
      }),
    ).rejects.toThrow('again/a is read after this transaction wrote it');
    await expect(
      transact(db, async (tx) => {
        tx.delete(db.doc('again/a'));
        await tx.getAll(db.doc('again/other'), db.doc('again/a'));
      }),
    ).rejects.toThrow('again/a is read after this transaction wrote it');
    expect(await value('again/a')).toBe(1);
  });

  test('writes commit in the order they were made, and a failure part-way writes none of them', async () => {
    await transact(db, async (tx) => {
      tx.create(db.doc('order/a'), { n: 1 });
      tx.update(db.doc('order/a'), { n: 2 });
      tx.set(db.doc('order/b'), { n: 3 });
      tx.delete(db.doc('order/b'));
    });
    expect([await value('order/a'), (await db.doc('order/b').get()).exists]).toEqual([2, false]);

    await expect(
      transact(db, async (tx) => {
        tx.set(db.doc('order/c'), { n: 1 });
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect((await db.doc('order/c').get()).exists).toBe(false);
  });

  test('a transaction run again after contention starts with no writes held from the attempt before', async () => {
    await db.doc('contended/a').set({ n: 0 });
    let attempts = 0;
    await transact(db, async (tx) => {
      attempts++;
      const doc = await tx.get(db.doc('contended/a'));
      tx.update(db.doc('contended/a'), { n: (doc.get('n') as number) + 1 });
      tx.set(db.doc(`contended/attempt-${attempts}`), { n: attempts });
      // The first attempt loses as to a concurrent writer: gRPC's ABORTED, which the SDK runs again.
      if (attempts === 1) throw Object.assign(new Error('lost to another writer'), { code: 10 });
    });
    expect(attempts).toBe(2);
    expect(await value('contended/a')).toBe(1);
    expect((await db.doc('contended/attempt-1').get()).exists).toBe(false);
    expect(await value('contended/attempt-2')).toBe(2);
  });

  // The emulator closes a transaction left idle for a minute ("Transaction is invalid or closed", where Google's
  // Firestore says "transaction has expired", which the SDK tries again): seen in crash.test, where a killed
  // server's transactions held the locks others waited for. The SDK alone fails the request with a 500.
  test('a transaction Firestore closes under a read is run again, not failed', async () => {
    await db.doc('closed/a').set({ n: 0 });
    let attempts = 0;
    await transact(
      db,
      async (tx) => {
        attempts++;
        const doc = await tx.get(db.doc('closed/a'));
        if (attempts === 1) await new Promise((resolve) => setTimeout(resolve, 62_000));
        await tx.get(db.doc('closed/b'));
        tx.update(db.doc('closed/a'), { n: (doc.get('n') as number) + 1 });
      },
      { maxAttempts: 2 },
    );
    expect(attempts).toBe(2);
    expect(await value('closed/a')).toBe(1);
  }, 90_000);

  test('atomically joins the transaction it is given, and holds its writes too', async () => {
    await db.doc('joined/a').set({ n: 1 });
    await transact(db, async (tx) => {
      await atomically({ db, tx }, async (inner) => {
        expect(inner.tx).toBe(tx);
        inner.tx.update(db.doc('joined/a'), { n: 2 });
      });
      // A later step reads another document after the first step's write.
      await tx.get(db.doc('joined/b'));
    });
    expect(await value('joined/a')).toBe(2);
  });
});
