import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { deadline } from './src/server/test/deadline.ts';

/**
 * Tests of Firestore alone (the engine's parts on Google's emulator, whatever TEST_DATABASE_URL says): by name,
 * `firestore*.test.ts`, or under storage/firestore/. They run in the SQLite run and not again in the PostgreSQL
 * one (.ci/run); a contract test's Firestore half skips there by `firestoreTestsRun` (test/firestore-emulator.ts).
 */
const firestoreOnly = ['src/server/**/firestore*.test.ts', 'src/server/storage/firestore/**/*.test.ts'];
/**
 * The tests that reach no database of their own, and the client's, whose servers are only the ground its engine
 * runs on (the server's own tests cover each route on each engine): the PostgreSQL run leaves them to the SQLite
 * one. They were a fifth of its time, the seeded offline chaos run alone three minutes.
 */
const engineBlind = ['src/client/**', 'src/common/**', 'scripts/**', 'eslint.config.test.ts'];
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');
/**
 * On Google's emulator a contended transaction waits out the SDK's backoff (1 s, then 1.5 s, …) before it
 * tries again, so the tests of many writers at once take seconds there, not milliseconds.
 */
const onFirestore = (process.env.TEST_DATABASE_URL ?? '').startsWith('firestore://');

/**
 * The files that take longest, most of it waiting (on the emulator's one-minute timeout, on backoffs, on killed
 * servers), in that order: started first, they wait beside the others instead of after them. On a fresh
 * clone (CI) Vitest knows no durations and starts the biggest files first, which put the 75-s `context.test`
 * 37th of 70 and the 33-s `firestore-adapter.test` 63rd. Measured on 28 November; a file missing here only
 * starts later.
 */
const slowestFirst = [
  'src/server/storage/firestore/context.test.ts',
  'src/client/app/offline-chaos.test.ts',
  'src/server/modules/qa/qa.storage.test.ts',
  'src/server/storage/firestore/positions.test.ts',
  'src/server/auth/firestore-adapter.test.ts',
  'src/server/modules/bookings/bookings.storage.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (spec: TestSpecification) => {
      const at = slowestFirst.findIndex((file) => spec.moduleId.endsWith(file));
      return at === -1 ? slowestFirst.length : at;
    };
    // A stable sort: the rest keep the order Vitest gave them.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * `npm test`: unit and integration tests next to the code (`src/**\/*.test.ts`), and the test of the lint
 * rules' boundaries. tests/ (Playwright's browser journeys) and bench/ are not part of it. Each integration file starts its own server on a free port, its own SQLite
 * file or PostgreSQL database and its own SMTP server, so files share nothing and two can run at once
 * (four at once, below). Timeouts are generous: the tests hash real passwords and start the real CLI.
 */
const exclude = [...configDefaults.exclude, ...(onPostgres ? [...firestoreOnly, ...engineBlind] : [])];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // KaTeX's style sheet, which the board's pages link to by its URL (features/qa/post-text.tsx): processed, so that
    // the URL is there as in a build (Vitest leaves CSS out by default, and the URL empty).
    css: { include: [/[\\/]katex[\\/]dist[\\/]katex\.min\.css/] },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: [
            'src/server/**/*.test.ts',
            'src/common/**/*.test.ts',
            'scripts/**/*.test.ts',
            'eslint.config.test.ts',
          ],
          exclude,
          // The run's one emulator on CI, and the Firestore run's anywhere (vitest.global-setup.ts); the
          // client's files need none.
          globalSetup: ['vitest.global-setup.ts'],
          // A worker runs file after file in one process and loads the server's modules once: a process of its
          // own per file, loading them again, cost 1.5 to 3 s of CPU a file. On 3 December, CPU seconds with a
          // process per file / in shared workers: 16 small files on SQLite 56 / 28; the 20 booking and calendar
          // files on SQLite 98 / 67; 13 files of the Firestore run 161 / 124 (152 / 132 s). These files leave
          // nothing behind in the process: no stubbed globals, mocked modules or fake timers past their test,
          // and each server, database and emulator project they start is their own; what a file started for
          // itself is stopped after it (test/per-file.ts).
          isolate: false,
          setupFiles: ['src/server/test/per-file.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The client's tests stub a browser's globals (fetch, IndexedDB, localStorage): a process per file.
          name: 'client',
          include: ['src/client/**/*.test.ts'],
          exclude,
        },
      },
    ],
    // Four files at once on CI's two cores: a file waits much of its time (on Google's emulator, on timers, on
    // the servers it starts), and with two at once the SQLite run used half the CPU. Four took the SQLite run
    // from 332 to 266 s; PostgreSQL's, busy throughout, stayed at 220 s. The Firestore run keeps two: with four
    // (176 s instead of 229) the emulator, shared by all, slowed events.test's slow-reader case past its 15 s.
    maxWorkers: onFirestore ? 2 : 4,
    sequence: { sequencer: SlowestFirst },
    // 90 s: on Google's emulator a test can take many times what it takes alone. When each file that tested
    // Firestore in the SQLite run started an emulator of its own (now only outside CI: vitest.global-setup.ts),
    // four files at once on two cores, the board's search test went from 4 s alone to 28 s there (once past 30 s,
    // CI, 28 November). The PostgreSQL run skips the
    // contract tests' Firestore halves (firestoreTestsRun) but not every test that uses the emulator (the
    // Firebase import's). A passing test takes no longer; only a hung one fails later. Both scaled by the time
    // factor (src/server/test/deadline.ts, docs/testing.md), read once as the run starts.
    testTimeout: deadline(90_000),
    hookTimeout: deadline(30_000),
    teardownTimeout: 10_000,
    // better-auth logs expected refusals ("User not found") to the console: show logs of failing tests only.
    silent: 'passed-only',
  },
});
