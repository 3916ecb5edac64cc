import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startFirestoreEmulator } from '../src/server/test/firestore-emulator.ts';

/**
 * `npm run test:e2e:firestore [-- <playwright arguments>]`: the browser journeys on the Firestore engine. Starts
 * Google's emulator in its own process group (or uses the one FIRESTORE_EMULATOR_HOST names), gives the run a
 * project of its own, runs Playwright with E2E_DATABASE_URL set (tests/start-server.ts and the fixtures' CLI
 * read it), and stops the emulator after. Without spec files among the arguments it runs the journeys listed
 * in .ci/firestore-journeys.txt, those that touch storage: its lines are spec files and Playwright options.
 */
const listFile = '.ci/firestore-journeys.txt';
const args = process.argv.slice(2);
const namesSpecs = args.some((arg) => !arg.startsWith('-'));
const listed = namesSpecs
  ? []
  : readFileSync(listFile, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));

const emulator = await startFirestoreEmulator();
// A fresh project per run: the emulator keeps projects apart, so nothing from an earlier run is seen.
const projectId = `demo-e2e-${Date.now().toString(36)}`;
console.log(`Journeys on Firestore: project ${projectId} on the emulator at ${emulator.host}`);

// Playwright's own CLI on this Node (Node 24), not whichever `node` the PATH finds first.
const playwright = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...listed, ...args], {
  stdio: 'inherit',
  env: { ...process.env, E2E_DATABASE_URL: `firestore://${projectId}`, FIRESTORE_EMULATOR_HOST: emulator.host },
});
// Ctrl-C reaches Playwright through the terminal already; a SIGTERM sent to this script alone is passed on.
// Either way this script lives on to stop the emulator (a process group of its own) once Playwright has ended.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => playwright.kill('SIGTERM'));
const code = await new Promise<number>((resolve) =>
  playwright.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
await emulator.stop();
process.exit(code);
