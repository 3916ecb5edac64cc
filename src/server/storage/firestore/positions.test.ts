import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { covers, coversStamp, type Position, type Stamp } from '../../../common/positions.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../../test/firestore-emulator.ts';
import { seededRandom } from '../../test/random.ts';
import { connectFirestore, type FirestoreConnection } from './connect.ts';
import { createPositions, stampFields, type Positions } from './positions.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * Changes since a position on Firestore (docs/decisions/0027), on Google's emulator: concurrent writers stamp
 * documents while a reader pulls what changed since its last position, as a client's `?since=` does.
 */

let emulator: FirestoreEmulator;
const connections: FirestoreConnection[] = [];

beforeAll(async () => {
  emulator = await startFirestoreEmulator();
}, deadline(90_000));

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await emulator?.stop();
});

/** A project of its own on the emulator: nothing shared with another test. */
async function freshProject(): Promise<Firestore> {
  const connection = await connectFirestore({
    projectId: `demo-positions-${crypto.randomUUID().slice(0, 8)}`,
    emulatorHost: emulator.host,
    probeTimeoutMs: deadline(10_000),
  });
  connections.push(connection);
  return connection.firestore;
}

/**
 * Writes as a usecase makes them: read the documents, take stamps above their versions, write them; one
 * transaction. More attempts than the SDK's 5: on a loaded machine the emulator times out lock waits
 * ("Transaction lock timeout"), and a write given up on would be no test of positions.
 */
async function stampedWrites(
  firestore: Firestore,
  positions: Positions,
  ids: readonly string[],
  fields: object,
  onRun = () => {},
): Promise<Stamp[]> {
  const refs = ids.map((id) => firestore.doc(`items/${id}`));
  return firestore.runTransaction(
    async (tx) => {
      onRun();
      const held = (await tx.getAll(...refs)).flatMap((doc) =>
        doc.exists ? [doc.get(stampFields.version) as number] : [],
      );
      const stamps = await positions.takeStamps(tx, 'items', { above: held, count: refs.length });
      refs.forEach((ref, i) =>
        tx.set(ref, { ...fields, [stampFields.version]: stamps[i]!.version, [stampFields.shard]: stamps[i]!.shard }),
      );
      return stamps;
    },
    { maxAttempts: 20 },
  );
}

const stampedWrite = async (firestore: Firestore, positions: Positions, id: string) =>
  (await stampedWrites(firestore, positions, [id], {}))[0]!;

/** A client: pulls every change since its position, and keeps each document's newest version, as the merge does. */
function createReader(firestore: Firestore, positions: Positions, limit: number) {
  const held = new Map<string, number>();
  let position: Position = [];
  let pulls = 0;
  let outOfOrder = 0;
  let repeats = 0;
  return {
    held,
    get position() {
      return position;
    },
    get stats() {
      return { pulls, outOfOrder, repeats };
    },
    /** Pages until the answer says there is no more; returns the position reached. */
    async pullAll(): Promise<Position> {
      for (;;) {
        const changes = await positions.readChangesSince('items', firestore.collection('items'), position, { limit });
        pulls++;
        for (const doc of changes.docs) {
          const version = doc.get(stampFields.version) as number;
          const before = held.get(doc.id);
          if (before !== undefined && version < before) outOfOrder++;
          else if (before === version) repeats++;
          else held.set(doc.id, version);
        }
        expect(covers(changes.position, position), 'a position never goes back').toBe(true);
        position = changes.position;
        if (!changes.more) return position;
      }
    },
  };
}

describe('changes since a position', () => {
  test('a pull returns what changed since the last one, in pages cut between versions, and says the position', async () => {
    const firestore = await freshProject();
    const positions = createPositions(firestore, { shards: 3 });
    const reader = createReader(firestore, positions, 4);
    expect(await reader.pullAll()).toEqual([]);

    const first = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => stampedWrite(firestore, positions, id)),
    );
    const position = await reader.pullAll();
    expect([...reader.held.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(first.every((stamp) => coversStamp(position, stamp))).toBe(true);
    expect(position).toEqual(await positions.readPosition('items'));
    // A page of 4, then the other 3: two pulls after the first.
    expect(reader.stats.pulls).toBe(3);

    // Nothing changed: nothing comes, the position stays.
    expect((await positions.readChangesSince('items', firestore.collection('items'), position)).docs).toEqual([]);

    // A rewrite goes above the document's version whichever shard takes it.
    const again = await stampedWrite(firestore, positions, 'c');
    expect(again.version).toBeGreaterThan(reader.held.get('c')!);
    const changes = await positions.readChangesSince('items', firestore.collection('items'), position);
    expect(changes.docs.map((doc) => doc.id)).toEqual(['c']);
    expect(coversStamp(changes.position, again)).toBe(true);
  });

  test('a transaction stamping several documents gives each its own version, above every one it had', async () => {
    const firestore = await freshProject();
    const positions = createPositions(firestore, { shards: 2, pickShard: () => 1 });
    await stampedWrite(firestore, positions, 'old');
    const stamps = await firestore.runTransaction(async (tx) => {
      const stamps = await positions.takeStamps(tx, 'items', { above: [41], count: 3 });
      for (const [i, stamp] of stamps.entries())
        tx.set(firestore.doc(`items/new-${i}`), { version: stamp.version, versionShard: stamp.shard });
      return stamps;
    });
    expect(stamps).toEqual([42, 43, 44].map((version) => ({ shard: 1, version })));
    expect(await positions.readPosition('items')).toEqual([0, 44]);
    // A page of 2 ends between two of them, and the next goes on from there.
    const page = await positions.readChangesSince('items', firestore.collection('items'), [], { limit: 2 });
    expect(page.docs.map((doc) => doc.id)).toEqual(['old', 'new-0']);
    expect(page).toMatchObject({ position: [0, 42], more: true });
    const rest = await positions.readChangesSince('items', firestore.collection('items'), page.position, { limit: 2 });
    expect(rest.docs.map((doc) => doc.id)).toEqual(['new-1', 'new-2']);
    expect(rest).toMatchObject({ position: [0, 44], more: false });
  });

  test('a page that a shard fills leaves the shards after it where the client had them', async () => {
    const firestore = await freshProject();
    let shard = 0;
    const positions = createPositions(firestore, { shards: 2, pickShard: () => shard });
    await stampedWrite(firestore, positions, 'zero');
    shard = 1;
    await stampedWrite(firestore, positions, 'one');
    const items = firestore.collection('items');
    const page = await positions.readChangesSince('items', items, [], { limit: 1 });
    expect(page.docs.map((doc) => doc.id)).toEqual(['zero']);
    expect(page).toMatchObject({ position: [1, 0], more: true });
    const rest = await positions.readChangesSince('items', items, page.position, { limit: 1 });
    expect(rest.docs.map((doc) => doc.id)).toEqual(['one']);
    expect(rest).toMatchObject({ position: [1, 1], more: false });
    // A position ahead of the counters (another project's, say) stays as it is: nothing is above it.
    expect(await positions.readChangesSince('items', items, [5, 5])).toMatchObject({ docs: [], position: [5, 5] });
  });

  /**
   * Issue 21's proof: 20 writers stamp documents of a shared pool while a reader pulls. Each transaction stamps
   * 4 documents: the emulator on a loaded machine manages about 60 one-document transactions a second, about
   * 200 document writes a second in fours (0027 has the figures). 64 shards: writers in one process take them
   * in turn, so the 20 in flight rarely share one (on the emulator, two transactions that meet stall for
   * seconds). `npm test` runs 200 writes each (4,000 in 1,000 transactions, a fifth of the proof);
   * `POSITIONS_PROOF=full` runs the 1,000 each of the recorded proof (2 minutes or more on a 2-core machine).
   */
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const full = process.env.POSITIONS_PROOF === 'full';
  const writesEach = full ? 1000 : 200;
  test(
    `20 writers × ${writesEach} writes while a reader pulls: nothing missed, nothing out of order`,
    { timeout: 600_000 },
    async () => {
      // The pool keeps the proof's ratio: 8,000 documents for 20,000 writes.
      await expectNothingMissed({ writers: 20, writesEach, perTransaction: 4, shards: 64, poolSize: writesEach * 8 });
    },
  );

  test('writers that meet on a shard and on documents are ordered by it: nothing missed, nothing out of order', async () => {
    const random = seededRandom();
    await expectNothingMissed({
      writers: 4,
      writesEach: 15,
      shards: 2,
      poolSize: 15,
      pickShard: (shards) => random.int(0, shards - 1),
    });
  }, 120_000);
});

/**
 * Writers stamp documents of a shared pool (each write a transaction) while a reader pulls what changed
 * since its position, pausing a little between pulls as a client would. After every pull, each write that had
 * committed before the pull began is covered by the position and held at its version or a later one: nothing
 * is missed, whenever it committed. Per document, versions arrive only increasing. At the end the reader holds
 * every document at its final version, as Firestore does.
 */
async function expectNothingMissed(workload: {
  writers: number;
  writesEach: number;
  shards: number;
  poolSize: number;
  pickShard?: (shards: number) => number;
  /** Documents each transaction stamps, drawn at random from the pool. */
  perTransaction?: number;
}) {
  const { writers, writesEach, shards, poolSize, pickShard, perTransaction = 1 } = workload;
  const random = seededRandom();
  const firestore = await freshProject();
  const positions = createPositions(firestore, { shards, pickShard });
  const reader = createReader(firestore, positions, 500);
  const committed: { id: string; stamp: Stamp }[] = [];
  const final = new Map<string, number>();
  let runs = 0;
  let transactions = 0;
  let writing = true;

  const started = performance.now();
  const writes = Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let n = 0; n < writesEach; n += perTransaction) {
        const ids = new Set<string>();
        while (ids.size < perTransaction) ids.add(`doc-${random.int(0, poolSize - 1)}`);
        const stamps = await stampedWrites(firestore, positions, [...ids], { writer: w, n }, () => runs++);
        transactions++;
        [...ids].forEach((id, i) => {
          committed.push({ id, stamp: stamps[i]! });
          final.set(id, Math.max(final.get(id) ?? 0, stamps[i]!.version));
        });
      }
    }),
  ).finally(() => (writing = false));
  // Heard now, thrown below: a writer's failure must not surface as an unhandled rejection meanwhile.
  writes.catch(() => undefined);

  // Writes (by their index in `committed`) that a pull left out: not covered by its position, or not held (with
  // how many writes were known committed when that pull began).
  const uncovered = new Set<number>();
  const missed = new Map<number, number>();
  const check = async () => {
    const done = committed.length;
    await reader.pullAll();
    committed.slice(0, done).forEach(({ id, stamp }, i) => {
      if (!coversStamp(reader.position, stamp)) uncovered.add(i);
      if ((reader.held.get(id) ?? 0) < stamp.version && !missed.has(i)) missed.set(i, done);
    });
  };
  while (writing) {
    await check();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await writes;
  const seconds = (performance.now() - started) / 1000;
  await check();

  const { pulls, outOfOrder, repeats } = reader.stats;
  // A miss the emulator explains: the document was written again by a write not known committed when the pull
  // began, so one that may have committed during it (see below).
  const overtaken = [...missed].filter(([i, done]) =>
    committed.slice(done).some(({ id }) => id === committed[i]!.id),
  ).length;
  console.info(
    `positions: ${committed.length} writes by ${writers} writers on ${shards} shards in ${seconds.toFixed(1)} s ` +
      `(${(committed.length / seconds).toFixed(0)} writes/s, ${transactions} transactions of ${perTransaction}, ${runs - transactions} run again); ` +
      `${pulls} pulls: ${missed.size} writes missed (${overtaken} overtaken), ${uncovered.size} uncovered, ${outOfOrder} out of order, ${repeats} repeated; seed ${random.seed}`,
  );
  expect(committed).toHaveLength(writers * writesEach);
  // The emulator under load reads a little past the read time it is given. A snapshot read at the counters'
  // time T sends a document at most at the counter's version, and the next pull asks above that; yet two runs
  // under heavy load (load average 13 to 33) saw 4 repeats each (a version the reader held, sent again), and CI
  // saw 1 in 60 writes: the emulator had answered with a write that committed just after T. The same quirk can
  // hide a write: when the document's next write, committed during the pull, moved it to a shard that was not
  // behind at T, the shard read sees neither version (seen once: 1 of 4,000 writes). The next pull
  // then brings that newer version. A handful of each is the emulator's; every other miss fails, and at the end
  // the reader must hold every document at its final version.
  const handful = Math.max(5, writers * writesEach * 0.01);
  expect({ missed: missed.size - overtaken, uncovered: uncovered.size, outOfOrder }).toEqual({
    missed: 0,
    uncovered: 0,
    outOfOrder: 0,
  });
  expect(overtaken, 'misses by a write during the pull: a handful under load at most').toBeLessThan(handful);
  expect(repeats, 'repeats: a handful under load at most').toBeLessThan(handful);
  expect(reader.held).toEqual(final);
  // The final position is the counters', and what the reader holds is what Firestore holds.
  expect(reader.position).toEqual(await positions.readPosition('items'));
  const stored = await firestore.collection('items').get();
  expect(new Map(stored.docs.map((doc) => [doc.id, doc.get(stampFields.version) as number]))).toEqual(final);
}
