import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, migrateToLatest, postgresPool, type Db } from '../db/create-db.ts';
import { isAppError } from '../http/errors.ts';
import { createTestDatabase, delay, onPostgres, type TestDatabase } from '../test/harness.ts';
import { createSqlStorage } from './sql-storage.ts';
import type { Storage } from './storage.ts';

/**
 * PostgreSQL at saturation (issue 33, decision 0042): the board's writes, which take one lock one after another,
 * never hold every connection of the pool while reads wait; and a query that cannot get a connection in time is
 * refused with 503 instead of waiting for as long as the queue is long.
 */

describe.runIf(onPostgres)('PostgreSQL at saturation', () => {
  let database: TestDatabase;
  let db: Db;
  let storage: Storage;

  beforeAll(async () => {
    database = await createTestDatabase('');
    ({ db } = createDb(database.url));
    await migrateToLatest(db);
    storage = createSqlStorage(db, 'postgres');
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  test('while ten writes wait for the board’s lock, a read is answered at once', async () => {
    // Each holds the board's lock (versions.ts) for 500 ms: one after another, five seconds in all.
    const writes = Array.from({ length: postgresPool.connections }, () =>
      storage.transaction(async (repos) => {
        await repos.qa.beginChanges();
        await delay(500);
      }),
    );
    await delay(100);
    const started = performance.now();
    await storage.repos.qa.listPage({ search: undefined, after: undefined, limit: 20 });
    const readMs = performance.now() - started;
    await Promise.allSettled(writes);
    // Without the gate, the read waited for the first write's commit at least (400 ms here), then for the next
    // connection the queue gave it.
    expect(readMs).toBeLessThan(300);
  });

  test('a query that waits for a connection longer than the pool allows is refused with 503', async () => {
    // Every connection held, as at saturation.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: postgresPool.connections }, () =>
      db.connection().execute(async (connection) => {
        await connection.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        await held;
      }),
    );
    await delay(200);
    const started = performance.now();
    const refusal = await storage.repos.qa.listPage({ search: undefined, after: undefined, limit: 20 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const waitedMs = performance.now() - started;
    release();
    await Promise.all(holders);
    expect(isAppError(refusal) && refusal.code).toBe('server.busy');
    expect(waitedMs).toBeGreaterThanOrEqual(postgresPool.poolWaitMs - 50);
    expect(waitedMs).toBeLessThan(postgresPool.poolWaitMs + 2000);
  });
});
