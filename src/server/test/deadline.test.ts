import { afterEach, describe, expect, test, vi } from 'vitest';
import { deadline, factorFor, maxLoadFactor } from './deadline.ts';

describe('the tests’ time factor', () => {
  afterEach(() => vi.unstubAllEnvs());

  test('TEST_TIME_FACTOR multiplies every deadline, whatever the load', () => {
    expect(factorFor('3', 0, 2)).toBe(3);
    expect(factorFor('1', 30, 2)).toBe(1);
    expect(factorFor('0.5', 0, 2)).toBe(0.5);
    vi.stubEnv('TEST_TIME_FACTOR', '2.5');
    expect(deadline(20_000)).toBe(50_000);
  });

  test('unset, it follows the load per core, from 1 on an idle machine to at most 8', () => {
    expect(factorFor(undefined, 0.3, 2)).toBe(1);
    expect(factorFor(undefined, 2, 2)).toBe(1);
    expect(factorFor('auto', 5, 2)).toBe(2.5);
    expect(factorFor('', 6, 4)).toBe(1.5);
    // Issue 34's machine: load 15 on 2 cores.
    expect(factorFor(undefined, 15, 2)).toBe(7.5);
    expect(factorFor(undefined, 30, 2)).toBe(maxLoadFactor);
  });

  test('a value that is not a positive number stops the run with its name', () => {
    for (const bad of ['0', '-1', 'two', 'Infinity'])
      expect(() => factorFor(bad, 0, 2)).toThrow(`TEST_TIME_FACTOR must be a positive number or "auto", not "${bad}"`);
  });
});
