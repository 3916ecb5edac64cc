import { journeyArgs, runPlaywright } from './playwright-run.ts';

/**
 * `npm run test:e2e:hosting [-- <playwright arguments>]`: browser journeys behind the Firebase Hosting stand-in
 * (scripts/hosting-standin.ts, docs/decisions/0038). tests/start-server.ts then puts the stand-in on the run's port,
 * in front of the server, ending every request after E2E_HOSTING_LIMIT_MS (4 s here unless set: Hosting's 60 s
 * would leave the streams' cuts out of a journey's minute). Without spec files among the arguments it runs the
 * journeys listed in .ci/hosting-journeys.txt: its lines are spec files and Playwright options.
 */
const args = journeyArgs('.ci/hosting-journeys.txt', process.argv.slice(2));
process.exit(await runPlaywright(args, { E2E_HOSTING_LIMIT_MS: process.env.E2E_HOSTING_LIMIT_MS ?? '4000' }));
