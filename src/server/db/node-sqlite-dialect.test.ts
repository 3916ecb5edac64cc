import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterEach, expect, test } from 'vitest';
import { createDb } from './create-db.ts';

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the write-ahead log is copied into the file by the checkpoints’ own thread, not by the writer', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sqlite-checkpoints-'));
  const file = path.join(dir, 'app.db');
  const { db } = createDb(`file:${file}`);
  // The server's connection takes no checkpoint itself.
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  expect(rows[0]!.wal_autocheckpoint).toBe(0);
  await sql`create table t (id integer primary key, body text not null)`.execute(db);
  const before = statSync(file).size;
  // About 2 MB in 500 commits: with no checkpoint, all of it would stay in the log.
  for (let i = 0; i < 500; i++) await sql`insert into t (body) values (${'x'.repeat(4000)})`.execute(db);
  const deadline = Date.now() + 5000;
  while (statSync(file).size < before + 1_000_000 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
  await db.destroy();
  // Closed last, the server's connection removed the log: everything is in the file.
  expect(existsSync(`${file}-wal`)).toBe(false);
  const reopened = new DatabaseSync(file, { readOnly: true });
  expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 500 });
  reopened.close();
});

test('a savepoint’s statement journal is kept in memory, not in a temporary file', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sqlite-temp-store-'));
  const { db } = createDb(`file:${path.join(dir, 'app.db')}`);
  // 2 is MEMORY (0 would be the build's default, a file).
  const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(db);
  expect(rows[0]!.temp_store).toBe(2);
  await db.destroy();
});
