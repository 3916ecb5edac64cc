/**
 * The outbox: writes made offline-first, kept in IndexedDB until the server has them.
 *
 *   export const addNote = defineMutation<NoteInput, Note>({
 *     name: 'notes.add', version: 1, collection: 'notes',
 *     target: (p) => ({ table: 'notes', id: p.id }),
 *     apply: async (p, tx) => { await notesTable.in(tx).put({ ...p, pending: true }); },
 *     // the typed client; `readSent` reads the Note and the answer's `Synced-To`
 *     send: async (p, change) => readSent(await client.notes.$post({ json: p }, { headers: change.headers })),
 *     acknowledge: async (p, note, tx) => { await notesTable.in(tx).put(note); },
 *     revert: async (p, tx) => { await notesTable.in(tx).delete(p.id); },
 *   });
 *   const addComment = defineMutation<CommentInput>({ …, after: (p) => ({ table: 'notes', id: p.noteId }) });
 *   await addNote(input); // the optimistic row and its outbox row are written together
 *   await addNote(input, { also: (tx) => draftsTable.in(tx).delete('note') }); // and this, in the same transaction
 *
 * - `apply`, `acknowledge` and `revert` run inside one Dexie transaction over every table, `tx`: reach tables
 *   through it only (`table.in(tx)`, see `EngineContext.write`), and use Dexie calls only (no fetch, no
 *   timers), or the transaction commits early. `apply` must be idempotent (put by id, set
 *   values, and count from what the row says it already holds, e.g. a vote row keeps `myVote`): it runs again
 *   on top of every refresh while the item is unsent (sync.ts).
 * - `send` carries the client-made id in the payload; the server stores the effect once per id, so sending
 *   again after a lost answer is the normal case. It sends `change.headers` too: `Change-Id` (the server
 *   answers a refusal of this change the same way every time) and `Change-User` (the user who queued it: a
 *   log-in in another tab may have swapped the cookie since the owner was checked, and the server then refuses
 *   with 401, which pauses the queue). It answers with `readSent`: the result and the answer's `Synced-To`.
 * - `target` is the row the change is about (`useChange` follows it; the UI marks it "Waiting to send"); `after`
 *   names the row (table and id) of an earlier item that must reach the server first: while that one needs
 *   attention, this one waits with it.
 * - Settling (OFFLINE-ENGINE.md rule 9): `acknowledge` writes the server's rows (`touches`, the target by
 *   default); a pull that left before the server committed the change would undo them, so they stay as
 *   written until every source of the mutation's `collection` has merged a pull that reflects it (sync.ts).
 * - `describe` names the item in the list of unsent items (the navbar's indicator), with a link to where it
 *   lives: `describe: (p) => ({ label: `Note: ${p.title}`, href: `/notes#${p.id}` })`. Without it the item
 *   shows under a generic label.
 * - `version` is the payload's shape. A row whose name or version this build does not know is never dropped:
 *   it shows as needing attention here and waits for a tab that knows it.
 * - Answers are classified by status and code only (outbox-rules.ts, where every change of an item's state is a
 *   pure function of its row): 2xx acknowledged (row deleted and `acknowledge` writes the server's record, in
 *   one transaction); network error, timeout, 408, 429, 5xx retried (1 s doubling to 60 s, with jitter, or the
 *   server's Retry-After if later); 401 pauses the queue until the same user is back; any other 4xx needs
 *   attention with the server's message, and the rest of the queue goes on.
 * - Sending runs on one loop (lib/connection-loop.ts): one pass at a time, a flush during a pass gets one more
 *   after it, and while the connection is gone or silent a pass sends only when the engine's connectivity
 *   admits it (one probe per window, lib/connectivity.ts), then waits to be woken.
 * - One tab sends at a time (Web Locks; in-tab serialisation where they are missing, e.g. in Node tests).
 */
import Dexie from 'dexie';
import { formatPosition } from '../../common/positions.ts';
import { NetworkError } from '../lib/api.ts';
import { createLoop, type Next } from '../lib/connection-loop.ts';
import type { Sent } from '../lib/revalidated.ts';
import type { LocalTransaction, OutboxError, OutboxRow, RowRef } from './db.ts';
import type { EngineContext } from './engine.ts';
import { LocalWriteError } from '../lib/local-write-error.ts';
import { createOutboxReads } from './outbox-reads.ts';
import {
  backoffReset,
  dependantsOf,
  indexed,
  queued,
  refused,
  resent,
  retried,
  rowKey,
  stepOf,
  verdictOf,
  type RowSpec,
} from './outbox-rules.ts';

export { rowKey } from './outbox-rules.ts';
export type { Stall } from './outbox-rules.ts';

export interface MutationSpec<P, R = unknown> {
  name: string;
  version: number;
  /** The server's collection the change goes to (`Synced-To` counts its versions), e.g. `questions`. */
  collection?: string;
  target(payload: P): RowRef;
  after?(payload: P): RowRef | undefined;
  /** The rows `acknowledge` writes, kept from stale pulls until settled; the target when left out. */
  touches?(payload: P): RowRef[];
  apply(payload: P, tx: LocalTransaction): Promise<void>;
  send(payload: P, change: Change): Promise<Sent<R>>;
  acknowledge?(payload: P, result: R, tx: LocalTransaction): Promise<void>;
  revert?(payload: P, tx: LocalTransaction): Promise<void>;
  describe?(payload: P): ItemDescription;
}

/** What a send must carry besides the payload: the `Change-Id` and `Change-User` headers. */
export interface Change {
  headers: Record<string, string>;
}

/** What a queued item is, in the user's words, and the page where it lives. */
export interface ItemDescription {
  label: string;
  href?: string;
}

export interface EnqueueOptions {
  /** More local writes that belong with this change (a form's draft linked to it): the same transaction. */
  also?(tx: LocalTransaction): Promise<void>;
}

/**
 * Where a queued change is: waiting on the device (with the tries so far), on its way, refused by the server
 * (needs attention, with its message), done (the server's copy of the row is here), or none (discarded).
 */
export type ChangeState =
  | { state: 'waiting' | 'sending'; seq: number; attempts: number }
  | { state: 'attention'; seq: number; error: OutboxError }
  | { state: 'done' | 'none' };

/** A change once it is safely in IndexedDB: the page follows it by its target (`useChange`), here or after a reload. */
export interface QueuedChange {
  seq: number;
  target: RowRef;
}

/** Queues one mutation; resolves once it is safely in IndexedDB. */
export type Enqueue<P> = (payload: P, options?: EnqueueOptions) => Promise<QueuedChange>;

/** An outbox row as the "needs attention" list shows it. */
export interface OutboxItem {
  seq: number;
  name: string;
  payload: unknown;
  target: RowRef;
  /** From the mutation's `describe`; none for a mutation without one or that this build does not know. */
  description?: ItemDescription;
  /** An earlier unsent item targets the row this one must follow: it goes (or is discarded) after that one. */
  waitsForEarlier: boolean;
  /** How many later items wait for this one, directly or through another: discarding it discards them too. */
  dependants: number;
  state: 'waiting' | 'attention';
  error?: OutboxError;
  attempts: number;
  /** When its tries began to fail, if they have (epoch ms). */
  failingSince?: number;
  createdAt: string;
}

/** A pass gives up after this long (a request or IndexedDB that never answers): the next one starts afresh. */
const passTimeoutMs = 5 * 60_000;

type AnyMutation = MutationSpec<unknown, unknown>;
/** How sending one item went: sent, refused (its followers wait), or the pass stops here and says what comes next. */
type Outcome = 'sent' | 'attention' | { stop: Next };

export function createOutbox(ctx: EngineContext) {
  const { db, connectivity } = ctx;
  const mutations = new Map<string, AnyMutation>();
  let pausedFor: string | null = null;
  let askedPersist = false;
  const loop = createLoop<void>({
    connectivity,
    runTimeoutMs: passTimeoutMs,
    run: async (signal) => {
      try {
        return { value: undefined, next: await withLock(() => pass(signal), signal) };
      } catch (error) {
        // IndexedDB failed under us (a dropped connection, a closed page): the items stay; try again later.
        if (ctx.stopped()) return { value: undefined, next: { after: 'idle' } };
        console.warn('Sending stopped', error);
        return { value: undefined, next: { after: 'backoff' } };
      } finally {
        ctx.setSending(false);
      }
    },
  });

  const known = (row: OutboxRow): AnyMutation | undefined => {
    const mutation = mutations.get(row.name);
    return mutation?.version === row.version ? mutation : undefined;
  };

  /** The row an item must follow. An older build stored a bare id: its mutation says again which table. */
  const afterOf = (row: OutboxRow): RowRef | undefined =>
    typeof row.after === 'string' ? known(row)?.after?.(row.payload) : row.after;

  const reads = createOutboxReads(db, { known: (row) => known(row), afterOf: (row) => afterOf(row) });
  const { rowsOf, reapplyOver } = reads;

  /** What the row keeps of the mutation's view of a payload. */
  const specOf = (mutation: AnyMutation, payload: unknown): RowSpec => ({
    name: mutation.name,
    version: mutation.version,
    target: mutation.target(payload),
    after: mutation.after?.(payload),
    touches: mutation.touches?.(payload) ?? [],
  });

  function defineMutation<P, R = unknown>(spec: MutationSpec<P, R>): Enqueue<P> {
    if (mutations.has(spec.name)) throw new Error(`Mutation "${spec.name}" is defined twice.`);
    const mutation = spec as AnyMutation;
    mutations.set(spec.name, mutation);
    return async (payload, options = {}) => {
      const userId = ctx.user();
      if (!userId) throw new Error(`"${spec.name}" was queued with nobody signed in: the item would have no owner.`);
      const row = queued(specOf(mutation, payload), payload, userId, crypto.randomUUID(), Date.now());
      let seq: number;
      try {
        seq = await ctx.write(async (tx) => {
          await spec.apply(payload, tx);
          await options.also?.(tx);
          return (await tx.outbox.add(row)) as number;
        });
      } catch (error) {
        throw asLocalWriteError(error);
      }
      askForPersistentStorage();
      ctx.changed();
      void flush();
      return { seq, target: row.target };
    };
  }

  // Once the user has something to lose, ask the browser not to evict the site's storage (Safari does after
  // about seven days without a visit).
  function askForPersistentStorage() {
    if (askedPersist) return;
    askedPersist = true;
    if (typeof navigator !== 'undefined' && navigator.storage?.persist)
      void navigator.storage.persist().catch(() => undefined);
  }

  /** Sends what is due, in order, in one tab at a time; a call during a pass gets one more pass after it. */
  const flush = (): Promise<void> => loop.kick();

  /** In one tab at a time; a pass abandoned by the loop gives the lock up at once. */
  function withLock<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return task();
    const abandoned = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
    );
    return locks.request(`${db.name}:outbox`, { signal }, () => Promise.race([task(), abandoned])) as Promise<T>;
  }

  /** One pass over the user's queue, in order; says when the next is due. */
  async function pass(signal: AbortSignal): Promise<Next> {
    const idle: Next = { after: 'idle' };
    const userId = ctx.user();
    const goOn = () => ctx.user() === userId && pausedFor !== userId && !ctx.stopped() && !signal.aborted;
    if (!userId || !goOn()) return idle;
    // Rows targeted by items that cannot go now: an item `after` one of them waits with it.
    const blocked = new Set<string>();
    const listing = await rowsOf(userId);
    await indexOlderRows(listing);
    for (const listed of listing) {
      if (!goOn()) return idle;
      // Another tab may have sent, edited or discarded it since the list was read.
      const row = await db.outbox.get(listed.seq!);
      if (!row) continue;
      const mutation = known(row);
      const step = stepOf(row, { known: mutation !== undefined, after: afterOf(row), blocked, now: Date.now() });
      if (step.kind === 'blocked') {
        blocked.add(rowKey(row.target));
        continue;
      }
      if (step.kind === 'wait') return { after: 'at', at: step.until };
      // Offline or unanswered: only the probe goes, then the pass waits to be woken (lib/connectivity.ts).
      if (!connectivity.admit()) {
        ctx.itemsWait();
        return { after: 'network' };
      }
      // The device may have been handed to someone else since the user was set (another tab logged in). The
      // cookie can still change between this check and the request: `Change-User` lets the server refuse then.
      if (!(await ctx.ownerIs(userId))) return idle;
      const outcome = await sendOne(row, mutation!, userId);
      if (typeof outcome === 'object') return outcome.stop;
      if (outcome === 'attention') blocked.add(rowKey(row.target));
    }
    return idle;
  }

  async function sendOne(row: OutboxRow, mutation: AnyMutation, userId: string): Promise<Outcome> {
    ctx.setSending(true, row.seq!);
    let sent: Sent<unknown>;
    const startedAt = Date.now();
    try {
      const headers: Record<string, string> = { 'change-user': row.userId };
      if (row.changeId) headers['change-id'] = row.changeId;
      sent = await mutation.send(row.payload, { headers });
    } catch (error) {
      if (error instanceof NetworkError) connectivity.failed(startedAt);
      else connectivity.succeeded();
      return failed(row, error, userId);
    }
    connectivity.succeeded();
    try {
      await ctx.write(async (tx) => {
        await tx.outbox.delete(row.seq!);
        // Logged out while it was on its way: the server has it, but nothing here is theirs any more.
        if (ctx.user() !== userId) return;
        await mutation.acknowledge?.(row.payload, sent.result, tx);
        const touches = mutation.touches?.(row.payload) ?? [row.target];
        // The server's copy of those rows does not have what is still queued for them (a vote on a question
        // just acknowledged): applied again on top, as a merge does (rule 2).
        await reapplyOver(userId, touches, tx);
        const version = sent.syncedTo && formatPosition(sent.syncedTo);
        await ctx.settling(tx, { userId, collection: mutation.collection, version, touches });
      });
    } catch (error) {
      // Not written here: the row stays and goes again; the server answers the repeat with what it stored.
      console.warn('Could not record a sent item', error);
      return retryLater(row);
    }
    ctx.setSending(true);
    ctx.changed();
    return 'sent';
  }

  async function failed(row: OutboxRow, error: unknown, userId: string): Promise<Outcome> {
    const verdict = verdictOf(error, Date.now());
    if (verdict.kind === 'retry') return retryLater(row, verdict.notBefore);
    ctx.setSending(true);
    if (verdict.kind === 'pause') {
      pausedFor = userId;
      ctx.changed();
      return { stop: { after: 'idle' } };
    }
    if (verdict.error.code === 'client.error') console.warn('Sending failed', error);
    await db.outbox.put(refused(row, verdict.error));
    ctx.changed();
    return 'attention';
  }

  async function retryLater(row: OutboxRow, notBefore?: number): Promise<Outcome> {
    ctx.setSending(true);
    const next = retried(row, Date.now(), notBefore);
    await db.outbox
      .update(row.seq!, { attempts: next.attempts, nextAttemptAt: next.nextAttemptAt, failingSince: next.failingSince })
      .catch(() => undefined);
    ctx.changed();
    ctx.itemsWait();
    // Unanswered for a while: woken by the connectivity (the probe window, the connection's return) instead.
    return { stop: connectivity.state() === 'online' ? { after: 'at', at: next.nextAttemptAt } : { after: 'network' } };
  }

  /** Start, reconnecting: whatever waited for its backoff goes now. */
  /** Every waiting item of the user may go now (`backoffReset`, `keepStall` as there). */
  async function resetBackoff(options?: { keepStall?: boolean }) {
    const userId = ctx.user();
    if (userId)
      await db.outbox
        .where('userId')
        .equals(userId)
        .modify((row) => void Object.assign(row, backoffReset(row, options)));
  }

  /**
   * Sends an item that needs attention again. With a new payload (the user edited it), its optimistic change is
   * replaced by the new one and it becomes a new change (a new `Change-Id`): the server answers the same change
   * sent again with the same refusal.
   */
  async function retryItem(seq: number, payload?: unknown): Promise<void> {
    await ctx.write(async (tx) => {
      const row = await tx.outbox.get(seq);
      if (!row || row.state !== 'attention') throw new Error('Only an item that needs attention can be retried.');
      const mutation = known(row);
      if (!mutation) throw new Error('This item was saved by another version of the app. Reload the page to send it.');
      if (payload === undefined) return tx.outbox.put(resent(row));
      if (mutation.revert) await mutation.revert(row.payload, tx);
      await mutation.apply(payload, tx);
      await tx.outbox.put(resent(row, { payload, spec: specOf(mutation, payload), changeId: crypto.randomUUID() }));
    });
    ctx.changed();
    void flush();
  }

  /** Drops an item and the items waiting `after` it, undoing their optimistic changes; returns how many. */
  async function discardItem(seq: number): Promise<number> {
    const tables = new Set<string>();
    const count = await ctx.write(async (tx) => {
      const first = await tx.outbox.get(seq);
      if (!first) return 0;
      const doomed = [first, ...dependantsOf(first, await rowsOf(first.userId, tx), afterOf)];
      for (const row of doomed.reverse()) {
        const mutation = known(row);
        if (mutation?.revert) await mutation.revert(row.payload, tx);
        await tx.outbox.delete(row.seq!);
        tables.add(row.target.table);
      }
      return doomed.length;
    });
    ctx.changed();
    // A revert can only guess what the row was before; the server's copy settles it.
    ctx.reverted([...tables]);
    return count;
  }

  /** Rows an older build queued have no `rows`: filled in before anything is sent (an acknowledgement needs them). */
  async function indexOlderRows(listing: OutboxRow[]): Promise<void> {
    const older = listing.filter((row) => !row.rows && known(row));
    if (older.length === 0) return;
    await ctx.write(async (tx) => {
      for (const row of older)
        await tx.outbox.update(row.seq!, { rows: indexed(row, specOf(known(row)!, row.payload)).rows });
    });
  }

  /** Inside `clearUserData`'s transaction: unsent work is undone (it was in public tables too) and dropped. */
  async function dropAll(tx: LocalTransaction): Promise<void> {
    const rows = await tx.outbox.toArray();
    for (const row of rows.reverse()) {
      const mutation = known(row);
      if (mutation?.revert) await mutation.revert(row.payload, tx);
    }
    await tx.outbox.clear();
    pausedFor = null;
  }

  function resume(userId: string | null) {
    if (userId !== null) pausedFor = null;
  }

  return {
    defineMutation,
    flush,
    resetBackoff,
    retryItem,
    discardItem,
    countUnsent: () => reads.countUnsent(ctx.user()),
    pendingTargets: reads.pendingTargets,
    reapplyPending: reads.reapplyPending,
    dropAll,
    items: reads.items,
    stall: reads.stall,
    changeState: reads.changeState,
    resume,
    /** Nothing more goes by itself (the engine stopped); a flush still starts a pass, which finds it stopped. */
    stop: () => loop.clear(),
    isPaused: () => pausedFor !== null && pausedFor === ctx.user(),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/** IndexedDB's refusals as a form can show them; nothing was written (the transaction was aborted whole). */
function asLocalWriteError(error: unknown): unknown {
  if (!(error instanceof Dexie.DexieError)) return error;
  const quota =
    error.name === 'QuotaExceededError' ||
    (error.inner as { name?: string } | undefined)?.name === 'QuotaExceededError';
  return new LocalWriteError(
    quota
      ? 'Your device has no room to save this. Free some space (or delete old files) and try again.'
      : 'This could not be saved on your device. Reload the page and try again.',
    error,
  );
}
