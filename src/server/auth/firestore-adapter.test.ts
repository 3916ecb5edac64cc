import {
  authFlowTestSuite,
  caseInsensitiveTestSuite,
  normalTestSuite,
  testAdapter,
  transactionsTestSuite,
  uuidTestSuite,
} from '@better-auth/test-utils/adapter';
import { afterAll } from 'vitest';
import { emulatorFirestore } from '../test/firestore-client.ts';
import { startFirestoreEmulator } from '../test/firestore-emulator.ts';
import { firestoreAdapter } from './firestore-adapter.ts';

/**
 * better-auth's own adapter test suite (@better-auth/test-utils, the one its Kysely, Prisma, Drizzle and
 * Mongo adapters pass) against our Firestore adapter on Google's emulator. Left out: the number-id suite
 * (Firestore ids are strings: the adapter says `supportsNumericIds: false`) and the native-joins suite
 * (better-auth joins through separate queries unless `advanced.database.joins` is set, which we never set).
 * The transactions suite skips itself: the adapter offers no multi-step transaction (firestore-adapter.ts).
 */
const emulator = await startFirestoreEmulator();
const firestore = emulatorFirestore(emulator.host, `adapter-suite-${crypto.randomUUID().slice(0, 8)}`);

const { execute } = await testAdapter({
  adapter: () => firestoreAdapter(firestore.db),
  // Firestore has no schema: collections appear with their first document.
  runMigrations: () => {},
  tests: [normalTestSuite(), authFlowTestSuite(), caseInsensitiveTestSuite(), uuidTestSuite(), transactionsTestSuite()],
});

execute();

// Here rather than in the suite's onFinish, which a failed clean-up would skip, leaving the emulator running.
afterAll(async () => {
  await firestore.close();
  await emulator.stop();
});
