import { startFirestoreEmulator } from '../src/server/test/firestore-emulator.ts';
import { journeyArgs, runPlaywright } from './playwright-run.ts';

/**
 * `npm run test:e2e:firestore [-- <playwright arguments>]`: the browser journeys on the Firestore engine. Starts
 * Google's emulator in its own process group (or uses the one FIRESTORE_EMULATOR_HOST names), gives the run a
 * project of its own, runs Playwright with E2E_DATABASE_URL set (tests/start-server.ts and the fixtures' CLI
 * read it), and stops the emulator after. Without spec files among the arguments it runs the journeys listed
 * in .ci/firestore-journeys.txt, those that touch storage: its lines are spec files and Playwright options.
 */
const args = journeyArgs('.ci/firestore-journeys.txt', process.argv.slice(2));

const emulator = await startFirestoreEmulator();
// A fresh project per run: the emulator keeps projects apart, so nothing from an earlier run is seen.
const projectId = `demo-e2e-${Date.now().toString(36)}`;
console.log(`Journeys on Firestore: project ${projectId} on the emulator at ${emulator.host}`);

// This script lives on to stop the emulator (a process group of its own) once Playwright has ended.
const code = await runPlaywright(args, {
  E2E_DATABASE_URL: `firestore://${projectId}`,
  FIRESTORE_EMULATOR_HOST: emulator.host,
});
await emulator.stop();
process.exit(code);
