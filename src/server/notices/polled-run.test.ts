import pino from 'pino';
import { expect, test } from 'vitest';
import { createPolledRun } from './polled-run.ts';

/**
 * The dispatcher's and delivery workers' loop: a run asked for while one is under way waits for a run that starts
 * after it was asked for (a flush after a write must see the write), and asking many times then makes one more run.
 */
test('a run asked for during another is a later run, and the caller waits for it; many asks make one', async () => {
  const written: number[] = [];
  const seen: number[][] = [];
  let release: () => void = () => undefined;
  const run = createPolledRun(
    async () => {
      const snapshot = [...written];
      // The first run looks before the write, then takes a while.
      if (seen.length === 0) await new Promise<void>((resolve) => (release = resolve));
      seen.push(snapshot);
      return snapshot.length;
    },
    { pollMs: 3_600_000, logger: pino({ level: 'silent' }), what: 'test run' },
  );
  const first = run.runOnce();
  written.push(1);
  const asked = [run.runOnce(), run.runOnce(), run.runOnce()];
  release();
  expect(await first).toBe(0);
  expect(await Promise.all(asked)).toEqual([1, 1, 1]);
  expect(seen).toEqual([[], [1]]);
  await run.stop();
});
