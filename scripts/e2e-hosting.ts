import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `npm run test:e2e:hosting [-- <playwright arguments>]`: browser journeys behind the Firebase Hosting stand-in
 * (scripts/hosting-standin.ts, docs/decisions/0038). tests/start-server.ts then puts the stand-in on the run's port,
 * in front of the server, ending every request after E2E_HOSTING_LIMIT_MS (4 s here unless set: Hosting's 60 s
 * would leave the streams' cuts out of a journey's minute). Without spec files among the arguments it runs the
 * journeys listed in .ci/hosting-journeys.txt: its lines are spec files and Playwright options.
 */
const listFile = '.ci/hosting-journeys.txt';
const args = process.argv.slice(2);
const namesSpecs = args.some((arg) => !arg.startsWith('-'));
const listed = namesSpecs
  ? []
  : readFileSync(listFile, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));

// Playwright's own CLI on this Node (Node 24), not whichever `node` the PATH finds first.
const playwright = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...listed, ...args], {
  stdio: 'inherit',
  env: { ...process.env, E2E_HOSTING_LIMIT_MS: process.env.E2E_HOSTING_LIMIT_MS ?? '4000' },
});
process.on('SIGINT', () => {});
process.on('SIGTERM', () => playwright.kill('SIGTERM'));
process.exit(
  await new Promise<number>((resolve) =>
    playwright.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
  ),
);
