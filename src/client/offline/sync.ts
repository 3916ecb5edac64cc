/**
 * Sources: how the local tables learn what the server has.
 *
 *   export const notesSource = defineSource({
 *     name: 'notes', tables: ['notes', 'comments'], needsUser: false, listensTo: ['notes'],
 *     pull: async ({ cursor, signal, etag }) => {
 *       const answer = await readRevalidated(await client.notes.$get({ query: { since: Number(cursor ?? 0) } }, { init: { signal }, headers: ifNoneMatch(etag) }));
 *       if (answer.notModified) return answer;
 *       const changes = answer.body;
 *       return { put: { notes: changes.notes }, remove: { notes: changes.deleted }, cursor: String(changes.version), more: changes.more, etag: answer.etag };
 *     },
 *   });
 *
 * - `pull({ cursor, signal, etag })` answers with rows to `put`, ids to `remove`, the next `cursor` (stored in
 *   `syncState`, handed back next time; null starts from scratch) and `more` (pull again at once). With
 *   `replace` the answer is the whole of the source's tables (a snapshot such as the catalogue): the engine
 *   gathers every page, then deletes the local rows the answer lacks.
 * - Repeat visits: an answer's `etag` is kept with the cursor when the next refresh will ask the same again
 *   (one answer that left the cursor where it was), and handed back as `etag` for the pull to send as
 *   `If-None-Match` (`readRevalidated` in lib/api.ts reads the 304). `{ notModified: true }` then means nothing
 *   changed: nothing is merged, the cursor stays, and the source counts as freshly synced.
 * - Every answer is **merged** in one transaction: rows put (except over a row held at a newer `version`, for
 *   rows that carry one: answers can land out of order), removed ids deleted, and then every pending
 *   outbox item's `apply` runs again, in order, on top (so a refresh never reverts, flickers or resurrects
 *   local work); a snapshot never deletes a row a pending item targets.
 * - `children` says which tables an answer holds whole for each parent row it puts or removes (a question's
 *   answers): the merge deletes the local rows it lacks, deciding inside its transaction, and leaves a parent's
 *   children alone when the parent's row was older than the one held.
 * - Settling (OFFLINE-ENGINE.md rule 9): an acknowledged change's rows (`settling`, written with the
 *   acknowledgement) stay as the acknowledgement wrote them until the source has merged a pull that reflects
 *   the change: one whose `syncedTo` (the answer's `Synced-To`, a position) covers the change's, shard by shard
 *   (docs/decisions/0027), or one that began after the acknowledgement was recorded (its request left after the
 *   server had committed). Once every source that could write those rows has, the record goes.
 * - `needsUser` sources belong to the signed-in user: they do not run for a visitor, their sync state is
 *   theirs, and an answer that arrives after the user changed (log-out, someone else logged in) is dropped.
 * - One refresh per source at a time, on its own loop (lib/connection-loop.ts); a refresh asked during one gets
 *   one more run after it (a write's refresh never reuses a fetch that started before the write); one asked
 *   `ifStale` (a page opening, the engine starting) is content with the source being fresh for the current
 *   user: read, or being read. Offline, or while the server does not answer, a refresh sends nothing unless
 *   the engine's connectivity admits it as the probe, and runs again once it says requests may go.
 * - `refreshSources(table, notice)` (live notices) runs every source whose `listensTo` holds the table, unless the
 *   notice's rows are held at its version already.
 */
import type { Position } from '../../common/positions.ts';
import { NetworkError } from '../lib/api.ts';
import { createLoop } from '../lib/connection-loop.ts';
import type { LocalTransaction, SettlingRecord } from './db.ts';
import type { EngineContext } from './engine.ts';
import { mergeAnswer, reflectedBy, settle, settlingOf, type Settling } from './merge.ts';
import { rowKey, type Outbox } from './outbox.ts';

export interface PullArgs {
  cursor: string | null;
  signal: AbortSignal;
  /** The ETag of the last answer to this same request, if kept: send it as `If-None-Match`. */
  etag: string | null;
}

export interface PullResult {
  put?: Record<string, unknown[]>;
  remove?: Record<string, string[]>;
  replace?: boolean;
  cursor?: string | null;
  more?: boolean;
  etag?: string | null;
  /** The server answered 304 to `etag`: what this device holds is current. */
  notModified?: boolean;
  /** The answer's `Synced-To`: it reflects every change to the source's collection this position covers. */
  syncedTo?: Position | null;
  /**
   * Child tables the answer holds whole: for every row of `parent` it puts or removes, every row of the child
   * table whose `key` is that row's id is in `put` (or is gone).
   */
  children?: Record<string, { parent: string; key: string }>;
}

export interface SourceSpec {
  name: string;
  tables: string[];
  needsUser: boolean;
  listensTo: string[];
  /** The server's collection whose versions the answers' `syncedTo` counts (a mutation's `collection`). */
  collection?: string;
  /**
   * Read for a page that shows it, not each time the app starts: one of several lists of which a page needs one
   * (a category's free times). Notices and resyncs keep it fresh once the device holds it (another tab may show
   * it).
   */
  onDemand?: boolean;
  pull(args: PullArgs): Promise<PullResult>;
}

export type Source = Readonly<SourceSpec>;

/** How a refresh went: `offline` when the server could not be reached, `failed` when it answered with an error. */
export type SyncResult = 'ok' | 'offline' | 'failed';

export interface RefreshOptions {
  /**
   * A source read for this user (this generation) will do, under way or done well: a page opening, the engine
   * starting, the same user named again. Without it, one more read after any under way (focus, a notice,
   * reconnecting: the last may predate what changed, or have failed).
   */
  ifStale?: boolean;
  /**
   * For every source (`refreshAll`): a public one only if a page in this tab has shown it, or the device does not
   * hold it yet. The engine starting and the window's focus ask so: a list nobody opened is not worth a phone's
   * data at each opening of the app, and its page reads it when it opens. Notices and resyncs still refresh it
   * (another tab may show it).
   */
  shownOnly?: boolean;
}

/** The user changed while an answer was on its way: it is dropped, which is neither success nor failure. */
class Dropped extends Error {}

/** A refresh given up as hung (a request or IndexedDB that never answers): the next one starts afresh. */
const refreshTimeoutMs = 2 * 60_000;

export function createSync(ctx: EngineContext, outbox: Outbox) {
  const { db } = ctx;
  const sources = new Map<string, { source: Source; refresh: (options?: RefreshOptions) => Promise<SyncResult> }>();
  /** Sources a page in this tab has shown: a visitor's background refreshes keep only those fresh. */
  const shown = new Set<string>();

  function defineSource(spec: SourceSpec): Source {
    if (sources.has(spec.name)) throw new Error(`Source "${spec.name}" is defined twice.`);
    const source = Object.freeze({ ...spec });
    sources.set(spec.name, { source, refresh: oneAtATime(source) });
    return source;
  }

  /**
   * The source's refreshes, on one loop (lib/connection-loop.ts): one at a time, and a call made while one runs
   * gets one more run after it (shared by all such calls). A call `ifStale` is content with the run that keeps
   * the source fresh for the current generation (asked for this user, not failed or dropped), under way or done.
   * A refresh that could not reach the server runs again when the connectivity says the network may be used.
   */
  function oneAtATime(source: Source): (options?: RefreshOptions) => Promise<SyncResult> {
    let fresh: { generation: number; run: Promise<SyncResult> } | null = null;
    const loop = createLoop<SyncResult | undefined>({
      connectivity: ctx.connectivity,
      runTimeoutMs: refreshTimeoutMs,
      run: async (signal) => {
        ctx.setSourceStatus(source.name, { running: true });
        const result = await execute(source, signal)
          .then((): SyncResult => 'ok')
          .catch((error: unknown): SyncResult | undefined => {
            if (error instanceof Dropped) return undefined;
            if (error instanceof NetworkError) return 'offline';
            console.warn(`Refresh of ${source.name} failed`, error);
            return 'failed';
          });
        ctx.setSourceStatus(source.name, result ? { running: false, result } : { running: false });
        // No answer: tried again after a backoff while the engine still counts the server as reachable (one
        // failure may be a blip), else when the connectivity says requests may go.
        if (result !== 'offline') return { value: result, next: { after: 'idle' } };
        return {
          value: result,
          next: ctx.connectivity.state() === 'online' ? { after: 'backoff' } : { after: 'network' },
        };
      },
    });
    return ({ ifStale = false } = {}) => {
      if (ifStale && fresh?.generation === ctx.generation()) return fresh.run;
      const kicked = loop.kick();
      // A failed read is tried again, and so is a dropped one (its answer came before the device recorded its
      // user, say: see `forTheSameUser`).
      const run = kicked.then(
        (result) => {
          if (result !== 'ok' && fresh?.run === run) fresh = null;
          return result ?? 'ok';
        },
        (error: unknown): SyncResult => {
          if (fresh?.run === run) fresh = null;
          console.warn(`Refresh of ${source.name} stopped`, error);
          return 'failed';
        },
      );
      fresh = { generation: ctx.generation(), run };
      return run;
    };
  }

  async function execute(source: Source, runSignal: AbortSignal): Promise<void> {
    const userId = ctx.user();
    if (source.needsUser && !userId) return;
    // Offline or unanswered: no request that is bound to fail, unless it is the probe (lib/connectivity.ts).
    if (!ctx.connectivity.admit()) throw new NetworkError();
    const owner = source.needsUser ? userId : null;
    const generation = ctx.generation();
    const dropped = ctx.signal();
    const signal = AbortSignal.any([dropped, runSignal]);
    const [state, settling] = await Promise.all([db.syncState.get(source.name), settlingFor(source)]);
    // Acknowledged before this pull left: whatever it reads reflects them.
    const before = new Set(settling.map((record) => record.seq!));
    const own = state?.userId === owner;
    let cursor = own ? state.cursor : null;
    // A 304 would merge nothing, and so settle nothing: while changes settle, the answer is asked for whole.
    let etag = own && settling.length === 0 ? (state.etag ?? null) : null;
    const gathered: Required<Pick<PullResult, 'put' | 'remove'>> = { put: {}, remove: {} };
    let more: boolean;
    do {
      const asked = cursor;
      const startedAt = Date.now();
      const answer = await source.pull({ cursor, signal, etag }).then(
        (pulled) => {
          ctx.connectivity.succeeded();
          return pulled;
        },
        (error: unknown) => {
          // Aborted because the user changed or the engine stopped: dropped, not failed.
          if (dropped.aborted) throw new Dropped();
          if (error instanceof NetworkError) ctx.connectivity.failed(startedAt);
          else if (!signal.aborted) ctx.connectivity.succeeded();
          throw error;
        },
      );
      if (generation !== ctx.generation()) throw new Dropped();
      if (answer.notModified) return markFresh(source, owner, generation);
      cursor = answer.cursor ?? null;
      more = answer.more === true;
      // An ETag names the answer to one request: worth keeping only if the next refresh sends that request again.
      etag = !more && cursor === asked ? (answer.etag ?? null) : null;
      if (answer.replace) {
        for (const [table, rows] of Object.entries(answer.put ?? {}))
          gathered.put[table] = [...(gathered.put[table] ?? []), ...rows];
        for (const [table, ids] of Object.entries(answer.remove ?? {}))
          gathered.remove[table] = [...(gathered.remove[table] ?? []), ...ids];
        if (!more)
          await merge(
            source,
            { ...gathered, replace: true, syncedTo: answer.syncedTo, children: answer.children },
            { cursor, etag, before },
            owner,
            generation,
          );
      } else await merge(source, answer, { cursor, etag, before }, owner, generation);
    } while (more);
  }

  /** The current user's change records that `source` has not yet seen settled. */
  async function settlingFor(source: Source, tx?: LocalTransaction): Promise<SettlingRecord[]> {
    const userId = ctx.user();
    if (!userId) return [];
    const all = await (tx ?? db).settling.toArray();
    return all.filter((record) => record.userId === userId && record.sources.includes(source.name));
  }

  /**
   * Inside the merge of `source`'s answer: the records it settles (it reflects their change) and the rows of
   * the others, which it must leave as their acknowledgement wrote them.
   */
  const settlingIn = async (
    tx: LocalTransaction,
    source: Source,
    syncedTo: Position | null | undefined,
    before: Set<number>,
  ): Promise<Settling> => settlingOf(await settlingFor(source, tx), source, syncedTo, before);

  /**
   * Inside an acknowledgement's transaction: the rows it wrote are kept from pulls that do not reflect the change
   * yet, by every source that holds one of their tables.
   */
  async function recordSettling(
    tx: LocalTransaction,
    change: Pick<SettlingRecord, 'userId' | 'collection' | 'version' | 'touches'>,
  ): Promise<void> {
    const tables = new Set(change.touches.map((row) => row.table));
    const names = [...sources.values()]
      .filter(({ source }) => source.tables.some((table) => tables.has(table)))
      .map(({ source }) => source.name);
    if (names.length > 0) await tx.settling.add({ ...change, sources: names, ackedAt: new Date().toISOString() });
  }

  async function merge(
    source: Source,
    answer: PullResult,
    { cursor, etag, before }: { cursor: string | null; etag: string | null; before: Set<number> },
    owner: string | null,
    generation: number,
  ): Promise<void> {
    await forTheSameUser(owner, generation, async (tx) => {
      const settling = await settlingIn(tx, source, answer.syncedTo, before);
      await mergeInTransaction(tx, answer, answer.replace ? source.tables : [], settling.held);
      await settle(tx, source.name, settling.settled);
      await tx.syncState.put({
        key: source.name,
        userId: owner,
        cursor,
        etag: etag ?? undefined,
        syncedAt: new Date().toISOString(),
      });
    });
  }

  /** The server said nothing changed: only the time of the last sync moves (an ETag a revert forgot meanwhile stays forgotten). */
  async function markFresh(source: Source, owner: string | null, generation: number): Promise<void> {
    await forTheSameUser(owner, generation, (tx) =>
      tx.syncState.update(source.name, { syncedAt: new Date().toISOString() }),
    );
  }

  /** Runs `work` in one transaction over every table, unless the user changed since the pull began. */
  async function forTheSameUser(
    owner: string | null,
    generation: number,
    work: (tx: LocalTransaction) => Promise<unknown>,
  ): Promise<void> {
    await ctx.write(async (tx) => {
      // Checked again inside the transaction: another tab may have logged out meanwhile (the session record).
      if (generation !== ctx.generation() || (owner !== null && !(await ctx.ownerIs(owner, tx)))) throw new Dropped();
      await work(tx);
    });
  }

  /** Server rows in and pending work on top (merge.ts), unless the rows are held by settling changes. */
  async function mergeInTransaction(
    tx: LocalTransaction,
    answer: Pick<PullResult, 'put' | 'remove' | 'children'>,
    snapshotTables: string[],
    held: Set<string>,
  ): Promise<void> {
    const userId = ctx.user();
    await mergeAnswer(tx, answer, { snapshotTables, held, pending: await outbox.pendingTargets(userId, tx) });
    await outbox.reapplyPending(userId, tx);
  }

  /**
   * Rows a page fetched by itself (the next page of a list, a search, a staff change's answer), merged as a
   * pull's are: pending work is re-applied on top, and the rows of acknowledged changes the answer may not
   * reflect (its `syncedTo` is below theirs, or unknown) are left alone, so they never revert what the user
   * did. It settles nothing. Dropped if the user changed meanwhile.
   */
  async function mergeRows(
    answer: Pick<PullResult, 'put' | 'remove' | 'children' | 'syncedTo'> & { collection?: string },
    fetchedAt = ctx.generation(),
  ): Promise<void> {
    await ctx.write(async (tx) => {
      if (fetchedAt !== ctx.generation()) return;
      const userId = ctx.user();
      const records = userId ? (await tx.settling.toArray()).filter((record) => record.userId === userId) : [];
      const { syncedTo, collection } = answer;
      const reflected = (record: SettlingRecord) =>
        collection !== undefined && reflectedBy(syncedTo, collection, record);
      const held = new Set(records.filter((record) => !reflected(record)).flatMap((r) => r.touches.map(rowKey)));
      await mergeInTransaction(tx, answer, [], held);
    });
  }

  function refreshSource(source: Source | string, options?: RefreshOptions): Promise<SyncResult> {
    const name = typeof source === 'string' ? source : source.name;
    const entry = sources.get(name);
    if (!entry) throw new Error(`Source "${name}" is not defined in this engine.`);
    if (options?.ifStale) shown.add(name);
    return entry.refresh(options);
  }

  /** What a background refresh (start, focus, reconnect, live notice) may fetch: a visitor's device only what a page showed. */
  const wanted = (source: Source) => (ctx.user() ? true : !source.needsUser && shown.has(source.name));

  /** Every source the device wants; `ifStale` as for one source (`oneAtATime`), `shownOnly` as its comment says. */
  async function refreshAll(options?: RefreshOptions): Promise<SyncResult[]> {
    const chosen = [...sources.values()].filter(({ source }) => wanted(source));
    const unshown = (source: Source) => options?.shownOnly && !source.needsUser && !shown.has(source.name);
    // A public list no page here showed is still read if the device does not hold it yet: its pages then open
    // offline (the catalogue for a booking made on the train). Unreadable, it counts as not held.
    const skipped = await Promise.all(
      chosen.map(
        async ({ source }) =>
          (await notOnDemand(source, options)) || (unshown(source) && everSynced([source.name]).catch(() => false)),
      ),
    );
    return Promise.all(chosen.filter((_, i) => !skipped[i]).map(({ refresh }) => refresh(options)));
  }

  /**
   * Whether an `onDemand` source sits this background refresh out: no page in this tab has shown it, and the
   * app is starting or focused (`shownOnly`), or the device does not hold it (nothing to keep fresh).
   */
  async function notOnDemand(source: Source, options?: RefreshOptions): Promise<boolean> {
    if (!source.onDemand || shown.has(source.name)) return false;
    if (options?.shownOnly) return true;
    return !(await everSynced([source.name]).catch(() => false));
  }

  /**
   * A notice said rows of `table` changed: every source that listens to it refreshes, unless the notice says the
   * version of the change and the device already holds each of its rows at that version or later (the answer to
   * the user's own change brought them: they are not fetched and merged again).
   */
  async function refreshSources(
    table: string,
    notice: { ids?: readonly string[]; version?: number } = {},
  ): Promise<SyncResult[]> {
    if (await heldSince(table, notice)) return [];
    const listening = [...sources.values()].filter(({ source }) => source.listensTo.includes(table) && wanted(source));
    const skipped = await Promise.all(listening.map(({ source }) => notOnDemand(source)));
    return Promise.all(listening.filter((_, i) => !skipped[i]).map(({ refresh }) => refresh()));
  }

  /** Whether a local table of that name holds every one of `ids` at `version` or later. */
  async function heldSince(table: string, { ids, version }: { ids?: readonly string[]; version?: number }) {
    if (version === undefined || !ids?.length || !db.tables.some((t) => t.name === table)) return false;
    const rows = await db
      .table(table)
      .bulkGet([...ids])
      .catch(() => []);
    return (
      rows.length === ids.length &&
      rows.every((row) => {
        const held = (row as { version?: unknown } | undefined)?.version;
        return typeof held === 'number' && held >= version;
      })
    );
  }

  /**
   * Tables whose rows a revert guessed at: the sources that hold them refresh, without their ETags (the server's
   * list has not changed, so a 304 would keep the guess).
   */
  async function refreshTables(tables: string[]): Promise<SyncResult[]> {
    const holders = [...sources.values()].filter(({ source }) => source.tables.some((t) => tables.includes(t)));
    await db.syncState
      .where('key')
      .anyOf(holders.map(({ source }) => source.name))
      .modify((state) => void delete state.etag)
      .catch((error: unknown) => console.warn('Could not forget the ETags of reverted tables', error));
    return Promise.all(holders.filter(({ source }) => wanted(source)).map(({ refresh }) => refresh()));
  }

  /** Whether every one of `names` has matched the server on this device (for the current user, where it needs one). */
  async function everSynced(names: string[]): Promise<boolean> {
    const states = await db.syncState.bulkGet(names);
    return names.every((name, i) => {
      const source = sources.get(name)?.source;
      const state = states[i];
      return state !== undefined && state.userId === (source?.needsUser ? ctx.user() : null);
    });
  }

  return {
    defineSource,
    refreshSource,
    refreshAll,
    refreshSources,
    refreshTables,
    everSynced,
    mergeRows,
    recordSettling,
  };
}

export type Sync = ReturnType<typeof createSync>;
