import type { Db } from './create-db.ts';
import { preparedQuery } from './prepared-query.ts';

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

const takeQuery = preparedQuery<{ counter: string; count: number }, { value: number }>((db, arg) =>
  db
    .updateTable('sync_counter')
    .set((eb) => ({ value: eb('value', '+', arg('count')) }))
    .where('name', '=', arg('counter'))
    .returning('value'),
);

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
