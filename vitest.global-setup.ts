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
 * need one say what to install.
 */
let emulator: FirestoreEmulator | undefined;

export async function setup() {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const env = process.env;
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
}
