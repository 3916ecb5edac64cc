import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSqlEngine, type SqlEngine } from '../test/storage-engines.ts';
import { preparedQuery } from './prepared-query.ts';

/** On the SQLite file, or on PostgreSQL with TEST_DATABASE_URL: each dialect compiles its own SQL. */
describe('a prepared query', () => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await openSqlEngine();
    await engine.db
      .insertInto('sync_counter')
      .values([
        { name: 'prepared-a', value: 1 },
        { name: 'prepared-b', value: 2 },
        { name: 'prepared-c', value: 3 },
      ])
      .execute();
  });
  afterAll(() => engine.close());

  const counters = preparedQuery<{ name?: string; above?: number | null; limit: number }, { name: string }>(
    (db, arg) => {
      let query = db.selectFrom('sync_counter').select('name').where('name', 'like', 'prepared-%');
      const name = arg('name');
      if (name !== undefined) query = query.where('name', '=', name);
      const above = arg('above');
      if (above !== undefined) query = query.where('value', '>', above);
      return query.orderBy('name').limit(arg('limit'));
    },
  );
  const names = async (args: Parameters<typeof counters>[1]) =>
    (await counters(engine.db, args)).rows.map((row) => row.name);

  test('binds each call’s values, and compiles each combination of the arguments given on its own', async () => {
    expect(await names({ limit: 10 })).toEqual(['prepared-a', 'prepared-b', 'prepared-c']);
    expect(await names({ limit: 2 })).toEqual(['prepared-a', 'prepared-b']);
    expect(await names({ above: 1, limit: 10 })).toEqual(['prepared-b', 'prepared-c']);
    expect(await names({ above: 2, limit: 10 })).toEqual(['prepared-c']);
    // null is a value (nothing is above it), undefined leaves the filter out.
    expect(await names({ above: null, limit: 10 })).toEqual([]);
    expect(await names({ above: undefined, limit: 10 })).toEqual(['prepared-a', 'prepared-b', 'prepared-c']);
    expect(await names({ name: 'prepared-b', limit: 10 })).toEqual(['prepared-b']);
    expect(await names({ name: 'prepared-b', above: 2, limit: 10 })).toEqual([]);
    expect(await names({ limit: 1 })).toEqual(['prepared-a']);
  });

  test('inserts a row of stand-ins', async () => {
    const insert = preparedQuery<{ name: string; value: number }, never>((db, _arg, slots) =>
      db.insertInto('sync_counter').values(slots),
    );
    await insert(engine.db, { name: 'prepared-e', value: 5 });
    await insert(engine.db, { name: 'prepared-f', value: 6 });
    expect(await names({ above: 4, limit: 10 })).toEqual(['prepared-e', 'prepared-f']);
    await engine.db.deleteFrom('sync_counter').where('name', 'in', ['prepared-e', 'prepared-f']).execute();
  });

  test('runs in a transaction, on its connection', async () => {
    await engine.db.transaction().execute(async (tx) => {
      await tx.insertInto('sync_counter').values({ name: 'prepared-d', value: 4 }).execute();
      expect((await counters(tx, { above: 3, limit: 10 })).rows.map((row) => row.name)).toEqual(['prepared-d']);
    });
  });

  test('refuses a builder that leaves an argument out of its parameters', async () => {
    const inlined = preparedQuery<{ name: string }, { value: number }>((db) =>
      db.selectFrom('sync_counter').select('value').where('name', '=', 'prepared-a'),
    );
    await expect(inlined(engine.db, { name: 'prepared-b' })).rejects.toThrow('name not bound as parameters');
  });
});
