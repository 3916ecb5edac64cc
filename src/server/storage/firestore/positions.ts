import type { Firestore, Query, QueryDocumentSnapshot, QuerySnapshot, Transaction } from 'firebase-admin/firestore';
import { mergePositions, type Position, type Stamp } from '../../../common/positions.ts';

/**
 * Versions and positions on Firestore: what `db/versions.ts` does on SQL, for `?since=` and `Synced-To`
 * (docs/decisions/0027 has the whole argument and the figures).
 *
 * SQL keeps one counter row per collection, locked by every writer. On Firestore one counter document does not
 * take the load (20 writers: 89 % of transactions aborted on the emulator; about one write per second per
 * document in production), so a collection has `shards` counter documents, `syncCounters/<collection>.<k>`.
 *
 * Writing: a transaction takes a stamp (`takeStamp`): it reads one shard's counter, and its documents get
 * versions above both that counter and their own previous versions; the counter is raised to the last of
 * them. Each stamped document stores `version` and `versionShard`.
 * - Within a shard, versions grow in commit order: every writer of shard k reads and writes its counter, so
 *   Firestore's serialisable transactions order them, and each takes versions above what its predecessor
 *   wrote. This is the SQL lock's guarantee, per shard.
 * - Per document, versions grow in commit order: a writer reads the document it stamps (so two writers of one
 *   document are ordered too) and goes above its version. The client's merge keeps a record's newest version
 *   (an older one never overwrites it), whichever shard it came from.
 * - Within a shard, no two documents share a version, so a page of changes can end between any two.
 *
 * Reading (`readChangesSince`): in one consistent snapshot at a time T (the counters' read time, at which the
 * queries read too), it reads every counter c_k of the collection, then for each shard the documents with
 * versionShard k and version above the client's position p_k, in version order. The answer's position is c_k for each shard read whole. Why
 * nothing is missed: a document that changed after the snapshot the client read p at was written by a
 * transaction that committed after it; on its shard k that transaction follows, in the shard's order, the one
 * that wrote p_k, so its version is above p_k; and if it committed before T, its version is at most c_k and T
 * sees it (it also sees any later write of the document, whose version is likewise covered). A change that
 * commits after T is above c_k, so the next read finds it. Nothing in this needs clocks or commit times
 * (a `serverTimestamp()` feed missed 17 of 1,000 writes: the stored time is not the commit order).
 */

/** Where the counters live: one document per collection and shard. */
export const countersCollection = 'syncCounters';

/** The fields a stamped document carries (besides its own). */
export const stampFields = { version: 'version', shard: 'versionShard' } as const;

/** 16 counters: 16 transactions at once on different shards, or about 16 writes/s in production (0027). */
export const defaultShards = 16;

export interface PositionsOptions {
  /** Counter documents per collection for writers to spread over (default 16; see 0027 for the sizing). */
  shards?: number;
  /** The shard a stamp takes, given how many there are; default: round the shards from a random one. */
  pickShard?: (shards: number) => number;
}

export interface Changes {
  /** The changed documents, by shard, then version. */
  docs: QueryDocumentSnapshot[];
  /** What the answer reflects: every change with a stamp it covers (`Synced-To`, the next `since`). */
  position: Position;
  /** A limit cut the answer: ask again from `position` for the rest. */
  more: boolean;
}

export interface Positions {
  readonly shards: number;
  /**
   * Takes `count` versions of `collection` for the documents this transaction writes, and raises the shard's
   * counter. Call it after the transaction's other reads (it reads the counter, then writes it, and Firestore
   * allows no read after a write), with the versions the documents to stamp have now (`above`; a document it
   * creates has none), and write each document with one stamp's `version` and `shard` (`stampFields`).
   */
  takeStamps(
    tx: Transaction,
    collection: string,
    options?: { above?: readonly number[]; count?: number },
  ): Promise<Stamp[]>;
  /** `takeStamps` for one document. */
  takeStamp(tx: Transaction, collection: string, above?: readonly number[]): Promise<Stamp>;
  /**
   * Every counter of `collection`: a position that everything committed so far reflects. An answer read after
   * it reflects it (as SQL's `readVersion`, `Synced-To`). Outside any read-write transaction: there it would
   * lock every counter against the writers.
   */
  readPosition(collection: string): Promise<Position>;
  /**
   * The documents of `query` changed since `since`, at most `limit`. `query` is on the documents `collection`
   * stamps, with equality filters only: the shard's filter and the version's order are added here.
   */
  readChangesSince(collection: string, query: Query, since: Position, options?: { limit?: number }): Promise<Changes>;
}

export function createPositions(firestore: Firestore, options: PositionsOptions = {}): Positions {
  const shards = options.shards ?? defaultShards;
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`shards must be a whole number ≥ 1 (got ${shards})`);
  const pickShard = options.pickShard ?? roundFromRandom();
  const counter = (collection: string, shard: number) => firestore.doc(`${countersCollection}/${collection}.${shard}`);

  async function takeStamps(
    tx: Transaction,
    collection: string,
    { above = [], count = 1 }: { above?: readonly number[]; count?: number } = {},
  ): Promise<Stamp[]> {
    if (!Number.isInteger(count) || count < 1) throw new Error(`count must be a whole number ≥ 1 (got ${count})`);
    const shard = pickShard(shards);
    const ref = counter(collection, shard);
    const current = ((await tx.get(ref)).get('version') as number | undefined) ?? 0;
    const first = Math.max(current, ...above) + 1;
    const last = first + count - 1;
    tx.set(ref, { collection, shard, version: last });
    return Array.from({ length: count }, (_, i) => ({ shard, version: first + i }));
  }

  const countersOf = (collection: string) =>
    firestore.collection(countersCollection).where('collection', '==', collection);

  async function readPosition(collection: string): Promise<Position> {
    return positionOf(await countersOf(collection).get());
  }

  async function readChangesSince(
    collection: string,
    query: Query,
    since: Position,
    { limit = Number.POSITIVE_INFINITY }: { limit?: number } = {},
  ): Promise<Changes> {
    if (!(limit >= 1)) throw new Error(`limit must be 1 or more (got ${limit})`);
    const counters = await countersOf(collection).get();
    const now = positionOf(counters);
    const behind = now.flatMap((version, shard) => (version > (since[shard] ?? 0) ? [shard] : []));
    if (behind.length === 0) return { docs: [], position: [...mergePositions(now, since)], more: false };
    // Every shard's query reads the database as the counters' read saw it: one snapshot, at a time the server
    // chose (never ahead of its clock). A read-only transaction with a read time holds no locks and begins no
    // transaction on the server (the SDK then sends each read with the time).
    return firestore.runTransaction(
      async (tx) => {
        const perShard = await Promise.all(
          behind.map(async (shard) => {
            let changed = query
              .where(stampFields.shard, '==', shard)
              .where(stampFields.version, '>', since[shard] ?? 0)
              .orderBy(stampFields.version);
            // One more than the page holds: a shard that returns it was cut, and is not read whole.
            if (Number.isFinite(limit)) changed = changed.limit(limit + 1);
            return { shard, docs: (await tx.get(changed)).docs };
          }),
        );
        return pageOf(perShard, now, since, limit);
      },
      { readOnly: true, readTime: counters.readTime },
    );
  }

  return {
    shards,
    takeStamps,
    takeStamp: async (tx, collection, above = []) => (await takeStamps(tx, collection, { above }))[0]!,
    readPosition,
    readChangesSince,
  };
}

/**
 * The first `limit` changes in (shard, version) order, and the position they reflect: a shard read whole is at
 * its counter; the shard the limit cuts is at its last version returned (versions are unique within a shard);
 * the shards after it stay where the client was.
 */
function pageOf(
  perShard: { shard: number; docs: QueryDocumentSnapshot[] }[],
  now: Position,
  since: Position,
  limit: number,
): Changes {
  const position = [...mergePositions(now, since)];
  const docs: QueryDocumentSnapshot[] = [];
  for (const [i, { shard, docs: changed }] of perShard.entries()) {
    const room = limit - docs.length;
    if (changed.length <= room) {
      docs.push(...changed);
      continue;
    }
    const taken = changed.slice(0, room);
    docs.push(...taken);
    position[shard] = taken.length ? (taken.at(-1)!.get(stampFields.version) as number) : (since[shard] ?? 0);
    for (const { shard: later } of perShard.slice(i + 1)) position[later] = since[later] ?? 0;
    return { docs, position, more: true };
  }
  return { docs, position, more: false };
}

/** The counters' versions by shard; a shard without a counter document yet is at 0. */
function positionOf(counters: QuerySnapshot): number[] {
  const position: number[] = [];
  for (const doc of counters.docs) position[doc.get('shard') as number] = doc.get('version') as number;
  return Array.from(position, (version) => version ?? 0);
}

/**
 * Writers in one process take the shards in turn, from a random one: transactions in flight at once then hold
 * different shards (while fewer than the shards), and processes, starting apart, rarely meet. A collision is
 * only slower, never wrong: the two transactions are ordered by the counter they share.
 */
function roundFromRandom(): (shards: number) => number {
  let next = Math.floor(Math.random() * 1_000_000);
  return (shards) => next++ % shards;
}
