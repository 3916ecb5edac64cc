/**
 * What happens to an outbox row, as pure functions of the row (OFFLINE-ENGINE.md, client rules): outbox.ts reads
 * rows, asks these, and writes what they return inside its Dexie transactions.
 *
 *   queued ──► waiting ──send──► sending ──2xx──► acknowledged (row gone; its rows settle, sync.ts)
 *                ▲   ▲              │
 *                │   └──retried─────┤ no answer, timeout, 408, 429, 5xx: back off (Retry-After when longer)
 *                │                  ├─ 401: the queue pauses for its user (the row is unchanged)
 *                └──resent──── refused ◄─ any other 4xx: needs attention, with the server's message
 *
 * An item is blocked, rather than sent, while it needs attention, while this build does not know its mutation,
 * or while the row it must follow (`after`) is held by an item that is itself blocked (rule 4).
 */
import { backoffMs } from '../lib/connection-loop.ts';
import { ApiError, NetworkError } from '../lib/api.ts';
import type { OutboxError, OutboxRow, RowRef } from './db.ts';

/** One key per row of a local table: dependencies name the table as well as the id (rule 10). */
export const rowKey = (row: RowRef) => `${row.table}\u0000${row.id}`;

export const unknownVersion: OutboxError = {
  status: 0,
  code: 'outbox.unknown_mutation',
  message: 'This was saved by another version of the app. Reload the page to send it.',
};

const clientFault: OutboxError = {
  status: 0,
  code: 'client.error',
  message: 'This could not be sent. Edit it and try again, or discard it.',
};

/** How long an item may go on failing while the browser is online before the user is told it is stuck. */
export const stallAfterMs = 60_000;

/** What a mutation says of its payload, which the row keeps. */
export interface RowSpec {
  name: string;
  version: number;
  target: RowRef;
  after?: RowRef;
  /** The rows the item changes here: its target and what its acknowledgement writes. */
  touches: RowRef[];
}

/** A new row, waiting to be sent: the change's own id is made here and never changes unless the user edits it. */
export function queued(spec: RowSpec, payload: unknown, userId: string, changeId: string, now: number): OutboxRow {
  return {
    name: spec.name,
    version: spec.version,
    payload,
    userId,
    changeId,
    target: spec.target,
    rows: rowKeys(spec),
    after: spec.after,
    state: 'waiting',
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: new Date(now).toISOString(),
  };
}

const rowKeys = (spec: Pick<RowSpec, 'target' | 'touches'>) => [...new Set([spec.target, ...spec.touches].map(rowKey))];

/** The rows an item of an older build is indexed under (it was queued without `rows`). */
export const indexed = (row: OutboxRow, spec: Pick<RowSpec, 'target' | 'touches'>): OutboxRow => ({
  ...row,
  rows: rowKeys(spec),
});

/** What the server's answer (or its absence) means for the item: by status and code only (rule 5). */
export type Verdict =
  { kind: 'retry'; notBefore?: number } | { kind: 'pause' } | { kind: 'attention'; error: OutboxError };

export function verdictOf(error: unknown, now: number): Verdict {
  if (error instanceof NetworkError) return { kind: 'retry' };
  if (error instanceof ApiError) {
    if (error.status === 408 || error.status === 429 || error.status >= 500)
      return error.retryAfterMs === undefined
        ? { kind: 'retry' }
        : { kind: 'retry', notBefore: now + error.retryAfterMs };
    // The session ended, or the server found another user's cookie on this user's change (auth.other_user).
    if (error.status === 401) return { kind: 'pause' };
    return { kind: 'attention', error: { status: error.status, code: error.code, message: error.message } };
  }
  // Not an answer from the server (a fault in the app): keep the item and say so rather than loop.
  return { kind: 'attention', error: clientFault };
}

/** No answer, or one to try again later: one more try counted, the next after a backoff (or the server's Retry-After, if later). */
export function retried(row: OutboxRow, now: number, notBefore = 0, random = Math.random): OutboxRow {
  const attempts = row.attempts + 1;
  return {
    ...row,
    attempts,
    nextAttemptAt: Math.max(now + backoffMs(attempts, { random }), notBefore),
    failingSince: row.failingSince ?? now,
  };
}

/** Refused: it needs the user, with the server's message; everything typed stays in the payload. */
export const refused = (row: OutboxRow, error: OutboxError): OutboxRow => ({ ...row, state: 'attention', error });

/**
 * The connection is back or the app starts: what waited out a backoff may go now, and its stall starts again.
 * `keepStall`: the service worker's wake-up (`engine.sendQueued`) sends what waits without restarting the stall a
 * page may be showing: its wake-up says little about the server, which an open page may have watched fail.
 */
export const backoffReset = (row: OutboxRow, { keepStall = false } = {}): OutboxRow => ({
  ...row,
  attempts: 0,
  nextAttemptAt: 0,
  failingSince: keepStall ? row.failingSince : undefined,
});

/**
 * Sent again after a refusal. Edited (`edit`), it is a new change: a new id (the server answers the same change
 * with the same refusal), and its target and rows follow the new payload.
 */
export function resent(row: OutboxRow, edit?: { payload: unknown; spec: RowSpec; changeId: string }): OutboxRow {
  if (row.state !== 'attention') throw new Error('Only an item that needs attention can be retried.');
  const changed = edit
    ? {
        payload: edit.payload,
        changeId: edit.changeId,
        target: edit.spec.target,
        rows: rowKeys(edit.spec),
        after: edit.spec.after,
      }
    : {};
  return backoffReset({ ...row, ...changed, state: 'waiting', error: undefined });
}

/** What a pass does with an item now: send it, wait for its next try, or leave it blocked (and block its followers). */
export type Step = { kind: 'send' } | { kind: 'wait'; until: number } | { kind: 'blocked' };

export function stepOf(
  row: OutboxRow,
  { known, after, blocked, now }: { known: boolean; after: RowRef | undefined; blocked: Set<string>; now: number },
): Step {
  if (row.state === 'attention' || !known || (after && blocked.has(rowKey(after)))) return { kind: 'blocked' };
  if (row.nextAttemptAt > now) return { kind: 'wait', until: row.nextAttemptAt };
  return { kind: 'send' };
}

/** The rows of items after `first` that wait for it, directly or through another, in order. */
export function dependantsOf(
  first: OutboxRow,
  rows: OutboxRow[],
  afterOf: (row: OutboxRow) => RowRef | undefined,
): OutboxRow[] {
  const gone = new Set([rowKey(first.target)]);
  const found: OutboxRow[] = [];
  for (const row of rows) {
    const after = afterOf(row);
    if (row.seq! > first.seq! && after && gone.has(rowKey(after))) {
      gone.add(rowKey(row.target));
      found.push(row);
    }
  }
  return found;
}

/** Items that have kept failing for over a minute (the oldest first): what the user is told is stuck. */
export interface Stall {
  count: number;
  since: number;
}

export function stallOf(rows: readonly Pick<OutboxRow, 'state' | 'failingSince'>[], now: number): Stall | undefined {
  const stuck = rows.filter(
    (row) => row.state === 'waiting' && row.failingSince !== undefined && now - row.failingSince >= stallAfterMs,
  );
  if (stuck.length === 0) return undefined;
  return { count: stuck.length, since: Math.min(...stuck.map((row) => row.failingSince!)) };
}
