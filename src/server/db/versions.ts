import type { UpdateResult } from 'kysely';
import type { Db } from './create-db.ts';
import { preparedQuery, type Arg } from './prepared-query.ts';

/** One row per versioned collection (`sync_counter`, created by migration 0003): the last version handed out. */
export interface SyncCounterTable {
  name: string;
  value: number;
}

/**
 * Reserves `count` new versions of a collection (a `sync_counter` row, e.g. the board's or the bookings') and
 * returns the first; the others follow it. The counter row stays locked until the transaction ends, so every
 * write to the collection runs one after another from here on.
 *
 * Why a locked counter: incremental sync (`since`) must never skip a change that commits late. A sequence or a
 * timestamp is taken before commit, so a change numbered 5 can commit after one numbered 6, and a client that
 * read up to 6 in between would never see 5. With the row lock, version 6 cannot even be taken until the
 * transaction holding 5 has committed or rolled back, so versions become visible in order. Every write takes
 * this lock *first*, before touching any of the collection's rows, so two writers can never hold each other's
 * rows (no deadlock), and a check followed by a write (a client id already used, say) is safe from a
 * concurrent writer; the cost is that the collection's writes are serialised. `count` 0 only takes the lock.
 */
export async function takeVersions(db: Db, counter: string, count: number): Promise<number> {
  const {
    rows: [row],
  } = await takeQuery(db, { counter, count });
  if (!row) throw new Error(`no sync_counter row ${counter}`);
  return row.value - count + 1;
}

type TakeArgs = { counter: string; count: number };

/** The counter's update by `count`: with RETURNING (`takeVersions`), or without (`takeVersionsApart`). */
const bump = (db: Db, arg: Arg<TakeArgs>) =>
  db
    .updateTable('sync_counter')
    .set((eb) => ({ value: eb('value', '+', arg('count')) }))
    .where('name', '=', arg('counter'));

const takeQuery = preparedQuery<TakeArgs, { value: number }>((db, arg) => bump(db, arg).returning('value'));

/**
 * SQLite's take: the update, then a read of what it wrote, in the same transaction. SQLite runs RETURNING as a
 * trigger, and a statement with a trigger opens a statement journal, at which its full-text index writes out
 * all it holds (migration 0012): with RETURNING, the board's index was written out at every question's take
 * instead of once a commit, about 85 µs of a `POST /api/questions` of 790 (issue 22).
 */
async function takeVersionsApart(tx: Db, counter: string, count: number): Promise<number> {
  await bumpQuery(tx, { counter, count });
  return (await readVersion(tx, counter)) - count + 1;
}

const bumpQuery = preparedQuery<TakeArgs, UpdateResult>(bump);

/**
 * The collection's committed version: the last version handed out by a transaction that has committed. A
 * plain read, so it does not wait for a writer holding the lock; that writer's version is above it. Because
 * versions become visible in order (above), every change at this version or below has committed.
 */
export async function readVersion(db: Db, counter: string): Promise<number> {
  const {
    rows: [row],
  } = await readQuery(db, { counter });
  if (!row) throw new Error(`no sync_counter row ${counter}`);
  return row.value;
}

const readQuery = preparedQuery<{ counter: string }, { value: number }>((db, arg) =>
  db.selectFrom('sync_counter').select('value').where('name', '=', arg('counter')),
);

/** How a repository reads and takes its collection's versions, on the connection it was made for. */
export interface Versions {
  /** The collection's committed version (`readVersion`). */
  read(counter: string): Promise<number>;
  /** Reserves `count` versions and returns the first (`takeVersions`). */
  take(counter: string, count: number): Promise<number>;
  /** Takes the collection's lock until the transaction ends, and no version (`takeVersions` of 0). */
  lock(counter: string): Promise<void>;
}

/** Reads, takes and locks on `db`, every time. */
export const versionsOn = (db: Db): Versions => ({
  read: (counter) => readVersion(db, counter),
  take: (counter, count) => takeVersions(db, counter, count),
  lock: async (counter) => void (await takeVersions(db, counter, 0)),
});

/**
 * SQLite: each collection's committed version, kept in memory between changes (issue 22). Every read of a list
 * starts with it (`Synced-To`): one statement less of the two such a request ran, about 6 µs of 150 (the
 * first statement of a request costs twice the next, and the page's query is now the first).
 *
 * A kept version is dropped when this process takes versions of the collection, and every kept one when
 * another process has committed (`dataVersion`, SQLite's `PRAGMA data_version`, read at most once a
 * millisecond). On SQLite's one connection no read runs while a transaction holds it, so the first read after a
 * take runs after that transaction's commit or rollback and reads what is committed. A read that was under way
 * when a take began is not kept: it may have read the version before that take's commit.
 *
 * A kept version can be behind for the millisecond in which another process's commit is not yet seen. That is
 * safe: the position only promises that everything at or below it has committed, and it was read before the
 * data that follows it. It is never ahead.
 *
 * `outside` is for the repositories on the database itself; `within(tx)` for those of a transaction, which read
 * afresh and drop what they take. A transaction here is one of SQLite's grouped transactions, which begin with
 * SQLite's write lock (`begin immediate`, grouped-transactions.ts): that lock covers every collection, so `lock`
 * within one has nothing to do (the counter's update of 0 was about 3 % of a booking request, issue 22).
 */
export function keptVersions(db: Db, dataVersion: () => number): { outside: Versions; within(tx: Db): Versions } {
  const kept = new Map<string, number>();
  let seen = dataVersion();
  // Moves at every take: a read that began before one is not kept.
  let takes = 0;
  const take = (tx: Db, counter: string, count: number) => {
    takes++;
    kept.delete(counter);
    return takeVersionsApart(tx, counter, count);
  };
  return {
    outside: {
      async read(counter) {
        const now = dataVersion();
        if (now !== seen) {
          seen = now;
          kept.clear();
        }
        const hit = kept.get(counter);
        if (hit !== undefined) return hit;
        const takesBefore = takes;
        const value = await readVersion(db, counter);
        if (takes === takesBefore && seen === now) kept.set(counter, value);
        return value;
      },
      take: (counter, count) => take(db, counter, count),
      lock: async (counter) => void (await take(db, counter, 0)),
    },
    within: (tx) => ({
      read: (counter) => readVersion(tx, counter),
      take: (counter, count) => take(tx, counter, count),
      lock: async () => undefined,
    }),
  };
}
