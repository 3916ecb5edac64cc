import { describe, expect, test } from 'vitest';
import { validate, version } from 'uuid';
import { timeOrderedId } from './time-ordered-id.ts';

describe('time-ordered ids', () => {
  test('are UUID v7, each after the last, carry the time they were made, and never repeat', () => {
    const before = Date.now();
    const ids = Array.from({ length: 2_000 }, () => timeOrderedId());
    const after = Date.now();
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const msecs = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(msecs(ids[0]!)).toBeGreaterThanOrEqual(before);
    expect(msecs(ids.at(-1)!)).toBeLessThanOrEqual(after + 1);
  });

  test('differ in their random part', () => {
    const tails = new Set(Array.from({ length: 600 }, () => timeOrderedId().slice(-12)));
    expect(tails.size).toBe(600);
  });
});
