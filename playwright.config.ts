import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * E2E_PORT lets a second run go beside this one: another checkout (a git worktree), or the other half of the
 * journeys (.ci/run runs `--shard=1/2` and `--shard=2/2` at once). Each port has a folder of its own: the
 * server's data, and the copy of the build it serves (tests/start-server.ts), which tests/app-update.spec.ts
 * replaces with a new version without the other run's pages seeing it.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 4173);
export const e2eDir = path.resolve(`test-results/e2e-${e2ePort}`);
export const e2eDataDir = path.join(e2eDir, 'data');
/** The built app this run's server serves: a copy of dist/ (client, pages, ssr) in e2eDir. */
export const e2eClientDir = path.join(e2eDir, 'dist/client');
/**
 * WhatsApp's Cloud API as the journeys' server reaches it: the stand-in tests/start-server.ts starts on this port
 * (scripts/whatsapp-standin.ts), whose `/stand-in/messages` a journey reads.
 */
export const e2eWhatsApp = { port: e2ePort + 200, token: 'e2e-whatsapp-token', appSecret: 'e2e-whatsapp-app-secret' };
/** E2E_DATABASE_URL runs the journeys on another engine (scripts/e2e-firestore.ts); unset: SQLite in e2eDataDir. */
export const e2eDatabaseUrl = process.env.E2E_DATABASE_URL || undefined;
/**
 * E2E_HOSTING_LIMIT_MS runs the journeys behind the Firebase Hosting stand-in (scripts/e2e-hosting.ts), which
 * ends every request after that many milliseconds (Hosting: 60,000); tests/behind-hosting.spec.ts runs only then.
 */
export const e2eHosting = process.env.E2E_HOSTING_LIMIT_MS
  ? { requestLimitMs: Number(process.env.E2E_HOSTING_LIMIT_MS) }
  : undefined;
const hostingOnly = e2eHosting ? [] : ['behind-hosting.spec.ts'];

/**
 * E2E_LANE=first or second: the two halves CI runs at once (.ci/run). The first is the spec files named in
 * .ci/e2e-first-lane.txt, the second every other one, so a new file always runs somewhere. Unset: all.
 */
const lane = process.env.E2E_LANE;
const firstLane = lane
  ? readFileSync('.ci/e2e-first-lane.txt', 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
  : [];
if (lane && lane !== 'first' && lane !== 'second') throw new Error(`E2E_LANE: first or second, not ${lane}`);

/** Browser journeys in Debian's Chromium against the built app (`npm run build` first). */
export default defineConfig({
  testDir: 'tests',
  ...(lane === 'first' ? { testMatch: firstLane } : {}),
  testIgnore: [...(lane === 'second' ? firstLane : []), ...hostingOnly],
  outputDir: `test-results/playwright-${e2ePort}`,
  fullyParallel: false,
  workers: 1,
  // In CI a journey that fails runs once more: passing then, it is reported as flaky in the log; failing twice,
  // it fails CI. Until 2 December a failed first lane passed CI unseen (.ci/run), and the flaky journeys it hid
  // are named in issue 34's notes. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  // A guard against a hang, not a measure: CI's machine has run the journeys at a third of the speed they run here
  // (3 December: 26.9 minutes for the second run, 10.4 here), and the board's axe-and-screenshot journey then
  // passed 60 s. Twice the time there.
  timeout: process.env.CI ? 120_000 : 60_000,
  expect: { timeout: process.env.CI ? 15_000 : 10_000 },
  // On CI, a failed journey's page is printed too: the log is all CI keeps (tests/page-snapshot-reporter.ts).
  reporter: process.env.CI ? [['list'], ['./tests/page-snapshot-reporter.ts']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${e2ePort}`,
    // A trace records the screen all along, for every journey: about a sixth of the run's time here (bookings and
    // the board: 358 s with it, 294 s without). CI keeps only what the run prints, so it records none there.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Chromium 150 gives a reloaded page a new document host, and Playwright's offline emulation does not
        // reach its navigator.onLine (true while the context is offline): the older behaviour keeps it false.
        '--disable-features=RenderDocument',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node tests/start-server.ts',
    url: `http://127.0.0.1:${e2ePort}/api/health`,
    reuseExistingServer: false,
    timeout: process.env.CI ? 120_000 : 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
