import pg from 'pg';
import { createDb, migrateToLatest } from './src/server/db/create-db.ts';
import { startOwnFirestoreEmulator, type FirestoreEmulator } from './src/server/test/firestore-emulator.ts';

/**
 * One emulator for the whole run, which the test processes give each test server and each contract test a
 * project of their own on (test/harness.ts, test/storage-engines.ts):
 * - in the Firestore run (`TEST_DATABASE_URL=firestore://…`, .ci/run), where it is the engine: named in
 *   FIRESTORE_EMULATOR_HOST, which the servers and firebase-admin read;
 * - on CI in the SQLite and PostgreSQL runs too, named in TEST_FIRESTORE_EMULATOR_HOST only, which only
 *   `startFirestoreEmulator` reads (firebase-admin reads FIRESTORE_EMULATOR_HOST from the environment, and the
 *   tests of a missing or frozen emulator need it unset). The files that test Firestore there (the engine's
 *   parts, the contract tests' Firestore halves, the Firebase import) each started one of their own: about 25
 *   Java start-ups, each on a cold emulator, four at once on two cores. With one, the SQLite run took 364 s
 *   instead of 533.
 * Elsewhere each such file starts its own, so that one file run alone does not wait for an emulator it may not
 * need. An emulator already named is used as it is. Where none can start, nothing is set, and the files that
 * need one say what to install. In the PostgreSQL run, also the migrated database each test database copies
 * (createPostgresTemplate, below).
 */
let emulator: FirestoreEmulator | undefined;
let dropTemplate: (() => Promise<void>) | undefined;

export async function setup() {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const env = process.env;
  if (/^postgres(ql)?:/.test(env.TEST_DATABASE_URL ?? '') && !env.TEST_POSTGRES_TEMPLATE) {
    const template = await createPostgresTemplate(env.TEST_DATABASE_URL!);
    env.TEST_POSTGRES_TEMPLATE = template.name;
    dropTemplate = template.drop;
  }
  const onFirestore = env.TEST_DATABASE_URL?.startsWith('firestore://') ?? false;
  if (onFirestore) {
    if (!env.FIRESTORE_EMULATOR_HOST) {
      emulator = await startOwnFirestoreEmulator();
      env.FIRESTORE_EMULATOR_HOST = emulator.host;
    }
    env.TEST_FIRESTORE_EMULATOR_HOST = env.FIRESTORE_EMULATOR_HOST;
    return;
  }
  if (!env.CI || env.TEST_FIRESTORE_EMULATOR_HOST) return;
  try {
    emulator = await startOwnFirestoreEmulator();
  } catch (error) {
    console.warn(`No emulator shared by the run: ${(error as Error).message}`);
    return;
  }
  env.TEST_FIRESTORE_EMULATOR_HOST = emulator.host;
}

export async function teardown() {
  await emulator?.stop();
  await dropTemplate?.();
}

/**
 * The PostgreSQL run's migrated database, which each test database is a copy of (test/harness.ts
 * `createTestDatabase`): the migrations run once here, on an empty database, instead of for each test server
 * (each migration a round trip and a commit). On 4 December, 15 files of the PostgreSQL run (376 tests) took 253
 * and 237 s migrating each database, 169 and 163 s copying (CPU, PostgreSQL's included: 65 and 66 s, 64 and
 * 57 s). PostgreSQL copies a database only while nobody is connected to it: the migration's pool has gone first.
 */
async function createPostgresTemplate(adminUrl: string) {
  const name = `t_template_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = async <Row extends pg.QueryResultRow>(query: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query<Row>(query, values)).rows;
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db } = createDb(url.toString());
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  for (let i = 0; i < 100; i++) {
    const [row] = await admin<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
    if (Number(row?.n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { name, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined) };
}
