import { startOwnFirestoreEmulator, type FirestoreEmulator } from './src/server/test/firestore-emulator.ts';

/**
 * The Firestore run (`TEST_DATABASE_URL=firestore://…`, .ci/run): one emulator for the whole run, named in
 * FIRESTORE_EMULATOR_HOST for the test processes, which give each test server a project of its own
 * (test/harness.ts). A FIRESTORE_EMULATOR_HOST already set is used as it is; SQL runs start nothing.
 */
let emulator: FirestoreEmulator | undefined;

export async function setup() {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const env = process.env;
  if (!env.TEST_DATABASE_URL?.startsWith('firestore://') || env.FIRESTORE_EMULATOR_HOST) return;
  emulator = await startOwnFirestoreEmulator();
  env.FIRESTORE_EMULATOR_HOST = emulator.host;
}

export async function teardown() {
  await emulator?.stop();
}
