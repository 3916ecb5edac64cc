import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Firestore } from 'firebase-admin/firestore';
import { createDb, migrateToLatest, type Db, type DbKind } from '../db/create-db.ts';
import type { Storage } from '../storage/storage.ts';
import { createSqlStorage } from '../storage/sql-storage.ts';
import { afterThisFile } from './file-cleanup.ts';
import { emulatorFirestore } from './firestore-client.ts';
import { firestoreTestsRun, startFirestoreEmulator, type FirestoreEmulator } from './firestore-emulator.ts';
import { createTestDatabase } from './harness.ts';

/**
 * The two engines a repository's contract test (`<feature>.storage.test.ts`) runs its cases on: a migrated SQL
 * database (the SQLite file, or PostgreSQL with TEST_DATABASE_URL), and a fresh project on Google's Firestore
 * emulator, started once per test file and stopped after it (or the run's, vitest.global-setup.ts).
 */
export interface SqlEngine {
  db: Db;
  kind: DbKind;
  storage: Storage;
  close(): Promise<void>;
}

export async function openSqlEngine(): Promise<SqlEngine> {
  const dir = await mkdtemp(path.join(tmpdir(), 'storage-contract-'));
  const database = await createTestDatabase(dir);
  const { db, kind } = createDb(database.url);
  await migrateToLatest(db);
  const storage = createSqlStorage(db, kind);
  return {
    db,
    kind,
    storage,
    async close() {
      await storage.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The emulator of the file under way: the run's (vitest.global-setup.ts), or one of its own, stopped after it. */
let emulator: Promise<FirestoreEmulator> | undefined;

export async function openFirestoreEngine(name: string): Promise<{ db: Firestore; close(): Promise<void> }> {
  if (!emulator) {
    const started = (emulator = startFirestoreEmulator());
    afterThisFile(async () => {
      emulator = undefined;
      await (await started.catch(() => undefined))?.stop();
    });
  }
  return emulatorFirestore((await emulator).host, `demo-${name}-${crypto.randomUUID().slice(0, 8)}`);
}

/**
 * A contract test's engines for `describe.each`: SQL, then Firestore where this run tests Firestore
 * (`firestoreTestsRun`): in the SQLite run, not again in the PostgreSQL one, where the Firestore halves only
 * repeated what the SQLite run had checked, each file with an emulator of its own.
 */
export function contractEngines<Engine>(
  openSql: () => Promise<Engine>,
  openFirestore: () => Promise<Engine>,
): [name: string, open: () => Promise<Engine>][] {
  return [
    ['SQL', openSql],
    ...(firestoreTestsRun ? [['Firestore', openFirestore] as [string, () => Promise<Engine>]] : []),
  ];
}
