import { describe, expect, test } from 'vitest';
import { covers, coversStamp, formatPosition, maxPositionShards, mergePositions, parsePosition } from './positions.ts';
import { maxSinceVersion, positionSchema, sinceMessage } from './position-schema.ts';

describe('positions', () => {
  test('a SQL version is a one-shard position, written as the number it always was', () => {
    expect(parsePosition('42')).toEqual([42]);
    expect(parsePosition(42)).toEqual([42]);
    expect(parsePosition('0')).toEqual([0]);
    expect(formatPosition([42])).toBe('42');
    expect(formatPosition(parsePosition('42')!)).toBe('42');
  });

  test("Firestore's positions name a version per shard, joined by '-', and read back as they were written", () => {
    expect(parsePosition('12-0-7')).toEqual([12, 0, 7]);
    for (const text of ['12-0-7', '0-0-1', '9007199254740991-3'])
      expect(formatPosition(parsePosition(text)!)).toBe(text);
  });

  test('trailing shards at 0 are left out of the text, which does not change the position', () => {
    expect(formatPosition([5, 0, 0])).toBe('5');
    expect(formatPosition([0, 0])).toBe('0');
    expect(formatPosition([])).toBe('0');
    expect(covers([5], [5, 0, 0])).toBe(true);
  });

  test('anything else is no position: an old reader never takes a many-shard position for a number', () => {
    const bad = ['', '-1', '1-', '-', '1--2', '1.5', '01', '1-02', ' 1', '1e3', 'abc', '9007199254740992', '1,2'];
    for (const text of bad) expect(parsePosition(text), JSON.stringify(text)).toBeNull();
    expect(parsePosition(-1)).toBeNull();
    expect(parsePosition(1.5)).toBeNull();
    expect(parsePosition(null)).toBeNull();
    expect(parsePosition(undefined)).toBeNull();
    expect(parsePosition(Array(maxPositionShards).fill('1').join('-'))).toHaveLength(maxPositionShards);
    expect(
      parsePosition(
        Array(maxPositionShards + 1)
          .fill('1')
          .join('-'),
      ),
    ).toBeNull();
    // What the client does with `Synced-To` today: a many-shard position is not a number to it.
    expect(Number.isSafeInteger(Number('12-0-7'))).toBe(false);
  });

  test('a position covers another when every shard has reached it; a missing shard is at 0', () => {
    expect(covers([5], [4])).toBe(true);
    expect(covers([5], [5])).toBe(true);
    expect(covers([5], [6])).toBe(false);
    expect(covers([3, 9], [3, 8])).toBe(true);
    expect(covers([3, 9], [4, 1])).toBe(false);
    expect(covers([3], [3, 1])).toBe(false);
    expect(covers([3], [3, 0])).toBe(true);
    expect(covers([3, 1], [3])).toBe(true);
    expect(covers([], [])).toBe(true);
  });

  test('a position covers a stamped change when its shard has reached the change', () => {
    expect(coversStamp([3, 9], { shard: 1, version: 9 })).toBe(true);
    expect(coversStamp([3, 9], { shard: 1, version: 10 })).toBe(false);
    expect(coversStamp([3, 9], { shard: 2, version: 1 })).toBe(false);
    expect(coversStamp([3, 9], { shard: 2, version: 0 })).toBe(true);
  });

  test('merging two positions keeps each shard at its later version, and covers both', () => {
    const a = [3, 9];
    const b = [4, 1, 2];
    const merged = mergePositions(a, b);
    expect(merged).toEqual([4, 9, 2]);
    expect(covers(merged, a) && covers(merged, b)).toBe(true);
    expect(mergePositions([], [])).toEqual([]);
  });

  test('a route reads `since` as a position, and refuses anything else with a message', () => {
    expect(positionSchema.parse('12-0-7')).toEqual([12, 0, 7]);
    expect(positionSchema.parse('42')).toEqual([42]);
    const refused = positionSchema.safeParse('1.5');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(sinceMessage);
    // Beyond SQL's 32-bit versions: PostgreSQL would refuse it with an error, so the route refuses it first.
    expect(positionSchema.parse(String(maxSinceVersion))).toEqual([maxSinceVersion]);
    for (const bad of [String(maxSinceVersion + 1), `0-${maxSinceVersion + 1}`, '', '-1', '01', '1--2'])
      expect(positionSchema.safeParse(bad).error?.issues[0]?.message, bad).toBe(sinceMessage);
  });
});
