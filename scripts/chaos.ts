/**
 * `npm run chaos -- --runs 200 --seed 1234`: runs the offline engine's chaos test (src/client/app/offline-chaos.test.ts)
 * as many times as asked, seeds `seed`, `seed + 1`, …, and prints one line per run and the failing seeds at the end.
 * Without `--seed` the first seed is random (printed first). One failing seed again: `--runs 1 --seed <seed>`;
 * `--steps` prints the steps of the runs that pass too.
 * `TEST_DATABASE_URL=postgres://…` runs it on PostgreSQL, as `npm test` does.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startVitest, type Reporter } from 'vitest/node';

const testFile = 'src/client/app/offline-chaos.test.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    seed: { type: 'string' },
    steps: { type: 'boolean', default: false },
  },
  strict: true,
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? randomInt(1, 1_000_000) : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('Usage: npm run chaos -- [--runs <count>] [--seed <first seed>] [--steps]');
  process.exit(2);
}

// Read by the test: which seeds it runs.
process.env.CHAOS_RUNS = String(runs);
process.env.CHAOS_SEED = String(seed);
const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
console.log(`chaos: ${runs} runs, seeds ${seed}–${seed + runs - 1}, on ${database}`);

interface Summary {
  seed: number;
  ok: boolean;
  ms: number;
  line: string;
  steps: string[];
}

const failed: number[] = [];
let passed = 0;
let totalMs = 0;

/** One line per run as it ends; a failing run's whole report (its problems, steps and the server's last lines). */
const reporter: Reporter = {
  onTestCaseResult(testCase) {
    const summary = (testCase.meta() as { chaos?: Summary }).chaos;
    if (summary) {
      totalMs += summary.ms;
      if (summary.ok) passed += 1;
      else failed.push(summary.seed);
      console.log(summary.line);
      if (summary.ok && values.steps) console.log(summary.steps.map((step) => `  ${step}`).join('\n'));
      return;
    }
    // Stopped before it could report (a timeout, say).
    const result = testCase.result();
    if (result.state !== 'failed') return;
    const runSeed = Number(/seed (\d+)/.exec(testCase.name)?.[1]);
    failed.push(runSeed);
    console.log(`seed ${runSeed}: FAILED\n${result.errors.map((e) => e.stack ?? e.message).join('\n')}`);
  },
};

// The seeded runs only: not the file's other tests (the known bug's reproduction).
const vitest = await startVitest('test', [testFile], {
  watch: false,
  reporters: [reporter],
  testNamePattern: /^.* seed \d+: /,
});
await vitest.close();

const average = passed + failed.length > 0 ? totalMs / (passed + failed.length) / 1000 : 0;
console.log(`chaos: ${passed} of ${runs} runs passed on ${database} (${average.toFixed(1)} s a run)`);
if (failed.length > 0) {
  console.log(`failing seeds: ${failed.join(', ')} (again: npm run chaos -- --runs 1 --seed <seed>)`);
  process.exitCode = 1;
} else if (passed < runs) process.exitCode = 1;
