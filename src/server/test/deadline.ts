import os from 'node:os';

/**
 * The tests' deadlines, scaled by one factor: how long the harness waits for a server to start, a CLI to finish,
 * a message to arrive, and Vitest's own test and hook timeouts. A deadline is a guard against a hang, not a
 * measurement: on a machine busy with other work everything takes longer, and a fixed 20 s failed tests that were
 * only slow (issue 34: 31 of 1,244 at load 15 on 2 cores). docs/testing.md says how to set it.
 *
 * `TEST_TIME_FACTOR=3` multiplies every deadline by 3. Unset (or `auto`), the factor follows the machine: the
 * 1-minute load average per core, never below 1 (an idle or merely busy machine keeps the written figures) and
 * never above 8 (the issue's machine, load 15 on 2 cores, gets 7.5; a hung test still fails within minutes). No dependency beyond Node: scripts outside Vitest use it.
 */
export function deadline(ms: number): number {
  return Math.round(ms * timeFactor());
}

/** The factor now: the load average moves, so each deadline reads it when it is set. */
export function timeFactor(): number {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  return factorFor(process.env.TEST_TIME_FACTOR, os.loadavg()[0] ?? 0, os.availableParallelism());
}

/** Most the load can stretch a deadline by itself. */
export const maxLoadFactor = 8;

/** The rule, apart from the machine: a setting wins; otherwise the load per core, between 1 and maxLoadFactor. */
export function factorFor(setting: string | undefined, load: number, cores: number): number {
  if (setting === undefined || setting === '' || setting === 'auto')
    return Math.min(maxLoadFactor, Math.max(1, load / Math.max(1, cores)));
  const factor = Number(setting);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new Error(`TEST_TIME_FACTOR must be a positive number or "auto", not ${JSON.stringify(setting)}`);
  return factor;
}
