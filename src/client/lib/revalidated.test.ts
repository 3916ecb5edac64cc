import { describe, expect, test } from 'vitest';
import { firstCursor, syncedToOf } from './revalidated.ts';

const answer = (syncedTo?: string) => ({
  headers: new Headers(syncedTo === undefined ? {} : { 'synced-to': syncedTo }),
});

describe('Synced-To as a position (docs/decisions/0027)', () => {
  test("SQL's whole number is a one-shard position; Firestore's shards are read joined by '-'", () => {
    expect(syncedToOf(answer('42'))).toEqual([42]);
    expect(syncedToOf(answer('0'))).toEqual([0]);
    expect(syncedToOf(answer('12-0-7'))).toEqual([12, 0, 7]);
  });

  test('a missing or malformed header is no position, never a wrong one', () => {
    for (const bad of [undefined, '', 'abc', '-1', '1.5', '5.0', '1--2', '01'])
      expect(syncedToOf(answer(bad)), String(bad)).toBeNull();
  });

  test("a source's changes start from its first page's Synced-To, as the server wrote it", () => {
    const rows = [{ version: 9 }, { version: 30 }];
    expect(firstCursor([12], rows)).toBe('12');
    // The newest row's 30 counts in its own shard: as a position it would skip shard 0's changes up to 30.
    expect(firstCursor([12, 0, 7], rows)).toBe('12-0-7');
    // Without a Synced-To (an older server), the newest version on the page, as before.
    expect(firstCursor(null, rows)).toBe('30');
    expect(firstCursor(null, [])).toBe('0');
  });
});
