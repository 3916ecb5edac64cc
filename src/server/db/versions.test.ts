import { mkdtemp, rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Storage } from '../storage/storage.ts';
import { createSqlStorage } from '../storage/sql-storage.ts';
import { createDb, migrateToLatest } from './create-db.ts';

/**
 * SQLite keeps each collection's committed version in memory between changes (`keptVersions`): every change
 * counts from the next read, whether this process made it or another one did. On PostgreSQL nothing is kept.
 */
describe('the committed versions a SQLite process keeps', () => {
  let dir: string;
  let file: string;
  let storage: Storage;
  /** Another process's connection to the same file. */
  let other: DatabaseSync;
  /** Stands for `PRAGMA data_version`: what tells this process another one committed. */
  let elsewhere = 0;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'versions-'));
    file = path.join(dir, 'app.db');
    const { db, kind } = createDb(`file:${file}`);
    await migrateToLatest(db);
    elsewhere = 0;
    storage = createSqlStorage(db, kind, () => elsewhere);
    other = new DatabaseSync(file);
  });
  afterEach(async () => {
    other.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  const position = async () => (await storage.repos.bookings.readPosition())[0];
  const board = async () => (await storage.repos.qa.readPosition())[0];
  const stampBookings = (count: number) =>
    storage.transaction(async (repos) => {
      await repos.bookings.beginChanges();
      return repos.bookings.takeStamps(count);
    });
  const commitElsewhere = (counter: string, value: number) =>
    other.prepare('update sync_counter set value = ? where name = ?').run(value, counter);

  test('a version read is kept: a change no notice reached is not read again', async () => {
    expect(await position()).toBe(0);
    commitElsewhere('bookings', 7);
    // Nothing told this process: the kept version stands (behind, which a position may be, never ahead).
    expect(await position()).toBe(0);
  });

  test('another process’s commit drops every kept version', async () => {
    expect([await position(), await board()]).toEqual([0, 0]);
    commitElsewhere('bookings', 7);
    commitElsewhere('questions', 3);
    elsewhere++;
    expect([await position(), await board()]).toEqual([7, 3]);
  });

  test('this process’s change counts from the next read, and drops only its own collection', async () => {
    expect([await position(), await board()]).toEqual([0, 0]);
    await stampBookings(2);
    expect(await position()).toBe(2);
    // The board's was kept: a change the board's counter never saw is not read.
    commitElsewhere('questions', 5);
    expect(await board()).toBe(0);
  });

  test('a change rolled back leaves the version where it was', async () => {
    expect(await position()).toBe(0);
    await expect(
      storage.transaction(async (repos) => {
        await repos.bookings.takeStamps(3);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await position()).toBe(0);
    await stampBookings(1);
    expect(await position()).toBe(1);
  });

  test('reads and changes asked for together: every read after a change has committed sees it', async () => {
    await position();
    await stampBookings(1);
    // The read runs first: the change's group waits for the next turn of the event loop.
    const [before] = await Promise.all([position(), stampBookings(1)]);
    expect(before).toBe(1);
    expect(await position()).toBe(2);
    for (let round = 0; round < 20; round++) {
      await Promise.all([position(), stampBookings(1), position()]);
      expect(await position()).toBe(3 + round);
    }
  });

  test('questions stored in one group take their versions in turn and write the search index once, at the commit', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        storage.transaction(async (repos) => {
          await repos.qa.beginChanges();
          const [stamp] = await repos.qa.takeStamps(1);
          await repos.qa.insertQuestion({
            id: crypto.randomUUID(),
            userId: null,
            title: `Question ${i}`,
            text: 'Text',
            searchText: `question ${i}\ntext`,
            createdAt: new Date().toISOString(),
            stamp: stamp!,
          });
        }),
      ),
    );
    expect(
      other
        .prepare('select version from questions order by version')
        .all()
        .map((row) => row.version),
    ).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await board()).toBe(12);
    // One segment of FTS5's index: written out once. A statement journal (RETURNING, a trigger) after a question
    // had written it out at each question: twelve (migration 0012).
    expect(other.prepare('select count(*) as n from questions_search_idx').get()).toEqual({ n: 1 });
  });

  test('with SQLite’s own data_version, another connection’s commit is read within a millisecond', async () => {
    await storage.close();
    const { db, kind, dataVersion } = createDb(`file:${file}`);
    storage = createSqlStorage(db, kind, dataVersion);
    expect(await position()).toBe(0);
    commitElsewhere('bookings', 9);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await position()).toBe(9);
  });
});
