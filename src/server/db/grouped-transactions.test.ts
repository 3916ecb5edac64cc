import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createDb, type Db } from './create-db.ts';
import { groupedTransactions } from './grouped-transactions.ts';

/** SQLite only: PostgreSQL's transactions run side by side on its pool (storage/sql-storage.ts). */
let dir: string;
let db: Db;
/** Another connection to the same file, as another process would read it. */
let other: DatabaseSync;
let inTransaction: ReturnType<typeof groupedTransactions>;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'grouped-transactions-'));
  const file = path.join(dir, 'app.db');
  db = createDb(`file:${file}`).db;
  await sql`create table parent (id text primary key)`.execute(db);
  await sql`create table child (id text primary key, parent_id text not null references parent (id))`.execute(db);
  other = new DatabaseSync(file);
  inTransaction = groupedTransactions(db);
});
afterEach(async () => {
  other.close();
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

const insert = (tx: Db, id: string) => sql`insert into parent (id) values (${id})`.execute(tx);
const count = async (tx: Db) => (await sql<{ n: number }>`select count(*) as n from parent`.execute(tx)).rows[0]!.n;
const storedElsewhere = () =>
  other
    .prepare('select id from parent order by id')
    .all()
    .map((row) => row.id);

test('the transactions asked for in one turn commit together; each sees those before it, and one that fails is undone alone', async () => {
  const committedWhenAnswered: unknown[] = [];
  const first = inTransaction(async (tx) => {
    await insert(tx, 'a');
    return 'first';
  });
  const second = inTransaction(async (tx) => {
    await insert(tx, 'b');
    // In the same SQLite transaction as the first, which has not committed: nobody else sees it yet.
    expect(storedElsewhere()).toEqual([]);
    return count(tx);
  });
  const failing = inTransaction(async (tx) => {
    await insert(tx, 'c');
    throw new Error('refused');
  });
  const fourth = inTransaction(async (tx) => count(tx));
  void first.then(() => committedWhenAnswered.push(storedElsewhere()));

  expect(await first).toBe('first');
  expect(await second).toBe(2);
  await expect(failing).rejects.toThrow('refused');
  expect(await fourth).toBe(2);
  expect(committedWhenAnswered).toEqual([['a', 'b']]);
  expect(storedElsewhere()).toEqual(['a', 'b']);
});

test('a group that succeeds whole runs each transaction once; one that fails runs the others again, apart', async () => {
  const runs = new Map<string, number>();
  const counted = (id: string, fail = false) =>
    inTransaction(async (tx) => {
      runs.set(id, (runs.get(id) ?? 0) + 1);
      await insert(tx, id);
      if (fail) throw new Error(`refused ${id}`);
      return count(tx);
    });
  expect(await Promise.all([counted('a'), counted('b'), counted('c')])).toEqual([1, 2, 3]);
  expect(Object.fromEntries(runs)).toEqual({ a: 1, b: 1, c: 1 });

  runs.clear();
  const group = [counted('d'), counted('e', true), counted('f')];
  expect(await group[0]).toBe(4);
  await expect(group[1]).rejects.toThrow('refused e');
  expect(await group[2]).toBe(5);
  // Together first (d, then e failing, which rolls back all), then each in a savepoint of its own.
  expect(Object.fromEntries(runs)).toEqual({ d: 2, e: 2, f: 1 });
  expect(storedElsewhere()).toEqual(['a', 'b', 'c', 'd', 'f']);

  // Alone, a transaction that fails keeps its error and is not run again.
  runs.clear();
  await expect(counted('g', true)).rejects.toThrow('refused g');
  expect(Object.fromEntries(runs)).toEqual({ g: 1 });
  expect(storedElsewhere()).toEqual(['a', 'b', 'c', 'd', 'f']);
});

test('a statement outside the group waits for its commit, and never sees part of it', async () => {
  let read: Promise<number> | undefined;
  const group = [
    inTransaction(async (tx) => {
      await insert(tx, 'a');
      read = count(db);
    }),
    inTransaction((tx) => insert(tx, 'b')),
  ];
  await Promise.all(group);
  expect(await read).toBe(2);
});

test('if the commit fails, nothing of the group is stored and each of its transactions gets the error', async () => {
  const fine = inTransaction((tx) => insert(tx, 'a'));
  const breaking = inTransaction(async (tx) => {
    // Checked at the commit: the whole group's commit fails.
    await sql`pragma defer_foreign_keys = on`.execute(tx);
    await sql`insert into child (id, parent_id) values ('x', 'missing')`.execute(tx);
  });
  await expect(fine).rejects.toThrow(/FOREIGN KEY/);
  await expect(breaking).rejects.toThrow(/FOREIGN KEY/);
  expect(storedElsewhere()).toEqual([]);
  // The connection is left usable.
  await inTransaction((tx) => insert(tx, 'b'));
  expect(storedElsewhere()).toEqual(['b']);
});

test('transactions asked for in later turns go in later groups', async () => {
  await inTransaction((tx) => insert(tx, 'a'));
  const seen = await inTransaction(async (tx) => {
    await insert(tx, 'b');
    return storedElsewhere();
  });
  expect(seen).toEqual(['a']);
});

test('a group holds the write lock from its start: before it writes, another process cannot write (Versions.lock)', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const begun = new Promise<void>((resolve) => (started = resolve));
  const group = inTransaction(async (tx) => {
    // A read only, as a change's first reads are once its collection's lock is taken.
    const before = await count(tx);
    started();
    await held;
    await insert(tx, 'after-the-wait');
    return before;
  });
  await begun;
  // The other process does not wait: it is told at once that the database is locked.
  other.exec('pragma busy_timeout = 0');
  expect(() => other.exec("insert into parent (id) values ('elsewhere')")).toThrow(/locked/);
  release();
  expect(await group).toBe(0);
  other.exec("insert into parent (id) values ('elsewhere')");
  expect(storedElsewhere()).toEqual(['after-the-wait', 'elsewhere']);
});

test('transactions waiting for more than one group are all committed in the same turn, one group after another', async () => {
  // Issue 33: at saturation a turn of the event loop serves hundreds of reads (a second or more); writes that
  // waited a turn for each group of 32 waited several seconds behind them.
  let turns = 0;
  let counting = true;
  const countTurns = () => {
    turns += 1;
    if (counting) setImmediate(countTurns);
  };
  setImmediate(countTurns);
  const many = Array.from({ length: 100 }, (_, i) => inTransaction((tx) => insert(tx, `t${i}`)));
  await Promise.all(many);
  counting = false;
  expect(storedElsewhere()).toHaveLength(100);
  // The turn they were asked for in, and the check phase that ran them: no turn of its own for each group.
  expect(turns).toBeLessThanOrEqual(2);
});
