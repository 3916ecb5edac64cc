/**
 * A position in a versioned collection (the board's, the bookings'): how far an answer reflects every change,
 * as `Synced-To` says and `?since=` asks (docs/decisions/0027). It is one counter per shard of the collection,
 * `position[k]` the shard's last version covered; a missing shard counts as 0 (nothing seen there yet).
 *
 * The SQL engines keep one counter per collection: their positions have one shard, and are written as the
 * plain number they always were (`Synced-To: 42`, `since=42`). Firestore keeps several (its single counter
 * document would not take the load); a position there is written as its shards' versions joined by `-`
 * (`12-0-7`, shard 0 at 12, shard 2 at 7). `-`, not `.`: `Number('5.0')` would read a two-shard position
 * as 5 without a word, while `Number('5-0')` is NaN, so an old reader rejects one instead of misreading it.
 */
export type Position = readonly number[];

/** Shards a position may name: Firestore's default is 16 (0027); beyond this a position is refused as bad input. */
export const maxPositionShards = 64;

/** What a change is stamped with: the shard whose counter it took, and its version (the counter's new value). */
export interface Stamp {
  shard: number;
  version: number;
}

const component = /^(0|[1-9]\d{0,15})$/;

/**
 * The position a `Synced-To`, a `since` or a stored value says, or null when it is none: a whole number ≥ 0
 * (SQL, or a record stored before positions had shards), or such numbers joined by `-`.
 */
export function parsePosition(value: string | number | null | undefined): Position | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? [value] : null;
  if (typeof value !== 'string' || value === '') return null;
  const parts = value.split('-');
  if (parts.length > maxPositionShards || !parts.every((part) => component.test(part))) return null;
  const position = parts.map(Number);
  return position.every(Number.isSafeInteger) ? position : null;
}

/** The text of a position: what `parsePosition` reads back. Trailing zero shards are left out; nothing is `0`. */
export function formatPosition(position: Position): string {
  const shards = [...position];
  while (shards.length > 1 && shards.at(-1) === 0) shards.pop();
  return shards.length === 0 ? '0' : shards.join('-');
}

/**
 * A position as a changes answer's body `version` carries it: a one-shard position (SQL's) as the whole number
 * it always was, one of several shards (Firestore's) as its text.
 */
export function positionInBody(position: Position): number | string {
  const text = formatPosition(position);
  return text.includes('-') ? text : Number(text);
}

/**
 * Whether what reflects `held` also reflects everything up to `wanted`: every shard of `held` at least
 * `wanted`'s. A client settles an acknowledged change when a pull's `Synced-To` covers the change's (0020).
 */
export function covers(held: Position, wanted: Position): boolean {
  return wanted.every((version, shard) => (held[shard] ?? 0) >= version);
}

/** Whether a position covers one stamped change: its shard's version at least the change's. */
export function coversStamp(held: Position, stamp: Stamp): boolean {
  return (held[stamp.shard] ?? 0) >= stamp.version;
}

/** The position that covers both: each shard's later version. Two answers read together reflect it. */
export function mergePositions(a: Position, b: Position): Position {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, shard) => Math.max(a[shard] ?? 0, b[shard] ?? 0));
}
