import { describe, expect, test } from 'vitest';
import { ApiError, NetworkError, TimeoutError } from '../lib/api.ts';
import type { OutboxRow } from './db.ts';
import {
  backoffReset,
  dependantsOf,
  queued,
  refused,
  resent,
  retried,
  rowKey,
  stallAfterMs,
  stallOf,
  stepOf,
  verdictOf,
  type RowSpec,
} from './outbox-rules.ts';

const now = Date.parse('2026-12-02T10:00:00Z');
const spec = (id: string, after?: string): RowSpec => ({
  name: 'notes.add',
  version: 1,
  target: { table: 'notes', id },
  ...(after ? { after: { table: 'notes', id: after } } : {}),
  touches: [{ table: 'counts', id: 'all' }],
});
const row = (id: string, seq: number, after?: string): OutboxRow => ({
  ...queued(spec(id, after), { id, text: `Note ${id}` }, 'u1', `change-${id}`, now),
  seq,
});
const afterOf = (r: OutboxRow) => (typeof r.after === 'object' ? r.after : undefined);

describe('a new item', () => {
  test('waits, with its own change id, the rows it touches indexed, and no tries yet', () => {
    expect(row('n1', 1)).toMatchObject({
      state: 'waiting',
      changeId: 'change-n1',
      userId: 'u1',
      attempts: 0,
      nextAttemptAt: 0,
      rows: [rowKey({ table: 'notes', id: 'n1' }), rowKey({ table: 'counts', id: 'all' })],
      createdAt: '2026-12-02T10:00:00.000Z',
    });
  });
});

describe('answers, by status and code only (rule 5)', () => {
  test('no answer, a timeout, 408, 429 and 5xx are tried again; a Retry-After is kept', () => {
    for (const error of [
      new NetworkError(),
      new TimeoutError(),
      new ApiError(408, 'x', 'y'),
      new ApiError(503, 'x', 'y'),
    ])
      expect(verdictOf(error, now)).toEqual({ kind: 'retry' });
    expect(verdictOf(new ApiError(429, 'limits.too_many', 'Slow down', {}, 20_000), now)).toEqual({
      kind: 'retry',
      notBefore: now + 20_000,
    });
  });

  test('401 pauses the queue; any other 4xx needs attention with the server’s words; a fault of the app too', () => {
    expect(verdictOf(new ApiError(401, 'auth.unauthenticated', 'Log in'), now)).toEqual({ kind: 'pause' });
    expect(verdictOf(new ApiError(409, 'bookings.slot_taken', 'That time is taken.'), now)).toEqual({
      kind: 'attention',
      error: { status: 409, code: 'bookings.slot_taken', message: 'That time is taken.' },
    });
    expect(verdictOf(new TypeError('undefined is not a function'), now)).toMatchObject({
      kind: 'attention',
      error: { code: 'client.error' },
    });
  });
});

describe('trying again', () => {
  test('each try counts; the wait doubles from 1 s with jitter to 60 s; a later Retry-After wins', () => {
    let r = row('n1', 1);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      r = retried(r, now, 0, () => 1);
      waits.push(r.nextAttemptAt - now);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(r.attempts).toBe(8);
    expect(retried(row('n1', 1), now, 0, () => 0).nextAttemptAt - now).toBe(500);
    expect(retried(row('n1', 1), now, now + 20_000, () => 1).nextAttemptAt).toBe(now + 20_000);
  });

  test('an item failing for over a minute is a stall; the reset on reconnecting starts it again', () => {
    const first = retried(row('n1', 1), now);
    const later = retried(first, now + 50_000);
    expect(later.failingSince).toBe(now);
    expect(stallOf([later, row('n2', 2)], now + stallAfterMs - 1)).toBeUndefined();
    expect(stallOf([later, row('n2', 2)], now + stallAfterMs)).toEqual({ count: 1, since: now });
    expect(backoffReset(later)).toMatchObject({ attempts: 0, nextAttemptAt: 0, failingSince: undefined });
    // The service worker's wake-up sends at once but leaves the stall an open page shows.
    expect(backoffReset(later, { keepStall: true })).toMatchObject({
      attempts: 0,
      nextAttemptAt: 0,
      failingSince: now,
    });
    // Refused items need the user, not patience: they are no stall.
    expect(
      stallOf([refused(later, { status: 400, code: 'x', message: 'y' })], now + 10 * stallAfterMs),
    ).toBeUndefined();
  });
});

describe('refused, then sent again', () => {
  const error = { status: 400, code: 'qa.too_long', message: 'Too long.' };

  test('refused, it keeps what was typed and says why', () => {
    const r = refused(row('n1', 1), error);
    expect(r).toMatchObject({ state: 'attention', error, payload: { id: 'n1', text: 'Note n1' } });
  });

  test('sent again unchanged, it is the same change; edited, a new change with its new rows', () => {
    const r = refused(retried(row('n1', 1), now), error);
    expect(resent(r)).toMatchObject({ state: 'waiting', error: undefined, changeId: 'change-n1', attempts: 0 });
    const edited = resent(r, { payload: { id: 'n2', text: 'Shorter' }, spec: spec('n2'), changeId: 'change-new' });
    expect(edited).toMatchObject({
      payload: { id: 'n2', text: 'Shorter' },
      changeId: 'change-new',
      target: { table: 'notes', id: 'n2' },
      rows: [rowKey({ table: 'notes', id: 'n2' }), rowKey({ table: 'counts', id: 'all' })],
    });
    expect(() => resent(row('n3', 3))).toThrow(/needs attention/);
  });
});

describe('what a pass does with each item, in order (rule 4)', () => {
  test('an item goes when due, waits for its next try, or is blocked and blocks what follows it', () => {
    const blocked = new Set<string>();
    const at = (r: OutboxRow, known = true) => stepOf(r, { known, after: afterOf(r), blocked, now });
    expect(at(row('n1', 1))).toEqual({ kind: 'send' });
    expect(at(retried(row('n1', 1), now, 0, () => 1))).toEqual({ kind: 'wait', until: now + 1000 });
    expect(at(row('n1', 1), false)).toEqual({ kind: 'blocked' });
    const question = refused(row('q', 2), { status: 400, code: 'x', message: 'y' });
    expect(at(question)).toEqual({ kind: 'blocked' });
    blocked.add(rowKey(question.target));
    expect(at(row('answer', 3, 'q'))).toEqual({ kind: 'blocked' });
    // Rule 10: the same id in another table is another row.
    expect(at({ ...row('other', 4), after: { table: 'bookings', id: 'q' } })).toEqual({ kind: 'send' });
  });

  test('discarding an item takes what waits after it, directly or through another, and nothing else', () => {
    const rows = [row('q', 1), row('a1', 2, 'q'), row('c1', 3, 'a1'), row('n', 4), row('a2', 5, 'q')];
    expect(dependantsOf(rows[0]!, rows, afterOf).map((r) => r.target.id)).toEqual(['a1', 'c1', 'a2']);
    expect(dependantsOf(rows[3]!, rows, afterOf)).toEqual([]);
  });
});
