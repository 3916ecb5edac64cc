/**
 * The local-first engine: features' tables (db.ts), sources (sync.ts) and mutations (outbox.ts), run for
 * one signed-in user. It knows no feature; a feature registers its parts in its own `*.sync.ts`:
 *
 *   import { defineLocalTable } from '../../offline/db.ts';
 *   import { defineMutation, defineSource } from '../../offline/engine.ts';
 *
 * and `app/` imports those files before IndexedDB opens, then drives the engine:
 *
 *   engine.identity.restore(served) // as it loads: whose data this is (identity.ts owns that, and changes it
 *                                   // on log-in, log-out and an ended session, giving the engine its user)
 *   startEngine();               // once: refreshes, sends, and listens to `online` and window focus
 *   refreshSources(table)        // a live notice said the table changed
 *   mergeRows({ put, remove })   // rows a page fetched itself (next page, search), merged like a pull
 *   reconnected()                // the live stream (re)connected or the server answered again: every source
 *                                // refreshes (one with a cursor asks for what changed since, exactly what a
 *                                // missed notice said) and what waited out a backoff goes now (as on `online`)
 *   countUnsent()                // what a log-out would drop (identity.ts clears the user's data)
 *
 * Background refreshes (start, focus, reconnect, live notices) fetch every source for a signed-in user; a
 * visitor's device fetches only public sources a page has shown (many arrive on phones with little data). The
 * start and focus leave out, for everyone, a public source no page in this tab has shown (its page reads it),
 * unless the device does not hold it yet.
 * `setBackgroundRefresh(false)` (the app's "Save data") stops them: a page opening then reads only a source
 * never read here for this user, and a source refreshes when asked (`refreshSource` without `ifStale`).
 *
 * The status's `storage` says when the device's storage was found emptied (once per page, with what unsent
 * work went with it) or cannot be opened; the app tells the user (storage.ts).
 *
 * `createEngine(db, { marks })` makes an independent engine over any `LocalDb` (tests run two "pages" over
 * one database, with a stand-in for localStorage); the app uses the one below, over `localDb`.
 */
import { onServerAnswered } from '../lib/api.ts';
import { createConnectivity, type Connectivity, type ConnectivityState } from '../lib/connectivity.ts';
import { localDb, userTableNames, type LocalDb, type LocalTransaction, type SettlingRecord } from './db.ts';
import { createIdentity } from './identity.ts';
import { createOutbox } from './outbox.ts';
import { browserMarks, createStorageWatch, type Marks, type StorageStatus } from './storage.ts';
import { createSync, type RefreshOptions, type Source, type SyncResult } from './sync.ts';

export interface SourceStatus {
  running: boolean;
  /** How the last refresh in this page went; none yet (or dropped by a change of user): undefined. */
  result?: SyncResult;
}

export interface EngineStatus {
  sources: Readonly<Record<string, SourceStatus>>;
  /** A request from the outbox is on its way. */
  sending: boolean;
  /** The item on its way (its `seq`), if one is. */
  sendingSeq?: number;
  /** The server said the session ended while sending: nothing goes until the same user is back. */
  paused: boolean;
  user: string | null;
  storage: StorageStatus;
  /** Whether the server can be reached (lib/connectivity.ts): `unreachable` is online without answers. */
  connection: ConnectivityState;
}

/** What the outbox and the sync share with the engine that runs them. */
export interface EngineContext {
  db: LocalDb;
  user(): string | null;
  /** Grows whenever the user changes or the engine stops: work started under an older one is dropped. */
  generation(): number;
  signal(): AbortSignal;
  stopped(): boolean;
  /**
   * Runs `work` in one read-write transaction over every table. Inside, every table is reached through `tx`
   * (`tx.outbox`, a feature's `table.in(tx)`), never through `db`: Dexie finds the transaction of a call on `db`
   * by following the code across its awaits, and with other pages' reads under way it lost track after an
   * `await` of an async function that had nothing to wait for. That call then ran outside, and the transaction
   * ended early (PrematureCommitError: a tutor's first dashboard said "Failed to fetch bookings.").
   */
  write<T>(work: (tx: LocalTransaction) => Promise<T>): Promise<T>;
  /** Whether the device's session record still names this user (another tab may have logged out). */
  ownerIs(userId: string, tx?: LocalTransaction): Promise<boolean>;
  changed(): void;
  /** A pass is sending (or not); `seq`: the item on its way now, none between items. */
  setSending(sending: boolean, seq?: number): void;
  setSourceStatus(name: string, status: SourceStatus): void;
  reverted(tables: string[]): void;
  /** Whether the network may be used (one probe per window while offline or unanswered), told how requests went. */
  connectivity: Connectivity;
  /** A pass stopped with items waiting for the network (`whenItemsWait`). */
  itemsWait(): void;
  /** Inside an acknowledgement's transaction: its rows settle from here (sync.ts). */
  settling(
    tx: LocalTransaction,
    change: Pick<SettlingRecord, 'userId' | 'collection' | 'version' | 'touches'>,
  ): Promise<void>;
}

export interface EngineOptions {
  /** Where the mark that outlives IndexedDB is kept (storage.ts); localStorage by default. */
  marks?: Marks;
  /** Whether the network may be used; one of its own by default, whose probe window outlives the page in `marks`. */
  connectivity?: Connectivity;
}

/**
 * The status before the engine has done anything: also what a page rendered at build time was rendered with,
 * so the browser hydrates it with this one (hooks.ts), whatever the engine has done meanwhile.
 */
export const initialStatus: EngineStatus = {
  sources: {},
  sending: false,
  paused: false,
  user: null,
  storage: { state: 'ok' },
  connection: 'online',
};

export function createEngine(
  db: LocalDb,
  {
    marks = browserMarks(),
    connectivity = createConnectivity({ store: marks ?? null, storeKey: `${db.name}:probe` }),
  }: EngineOptions = {},
) {
  let userId: string | null = null;
  let generation = 0;
  let controller = new AbortController();
  let stopped = true;
  let status: EngineStatus = { ...initialStatus, connection: connectivity.state() };
  const listeners = new Set<() => void>();
  const waitListeners = new Set<() => void>();

  const update = (patch: Partial<EngineStatus>) => {
    status = { ...status, ...patch };
    for (const listener of listeners) listener();
  };

  const ctx: EngineContext = {
    db,
    user: () => userId,
    generation: () => generation,
    signal: () => controller.signal,
    stopped: () => stopped,
    write: (work) => db.transaction('rw', db.tables, work),
    ownerIs: async (id, tx) => {
      const record = await (tx ?? db).session.get('me');
      return record?.me.id === id && !record.endedAt;
    },
    changed: () => {
      if (status.paused !== outbox.isPaused()) update({ paused: outbox.isPaused() });
      storage.mirror();
    },
    setSending: (sending, sendingSeq) => {
      if (status.sending !== sending || status.sendingSeq !== sendingSeq) update({ sending, sendingSeq });
    },
    setSourceStatus: (name, source) =>
      update({ sources: { ...status.sources, [name]: { ...status.sources[name], ...source } } }),
    reverted: (tables) => void sync.refreshTables(tables),
    connectivity,
    itemsWait: () => {
      for (const listener of waitListeners) listener();
    },
    settling: (tx, change) => sync.recordSettling(tx, change),
  };
  const outbox = createOutbox(ctx);
  const sync = createSync(ctx, outbox);
  const storage = createStorageWatch(
    {
      db,
      user: () => userId,
      stopped: () => stopped,
      report: (storageStatus) => update({ storage: storageStatus }),
      status: () => status.storage,
      resync: (options) => void sync.refreshAll(options),
    },
    marks,
  );

  /** Whether sources refresh by themselves (start, focus, reconnecting, live notices): off to save data. */
  let backgroundRefresh = true;

  /**
   * Data saver: with `false`, no source refreshes by itself, and a page opening reads only a source this device
   * never read for the user; sending is unchanged. Back to `true`, every source catches up at once.
   */
  function setBackgroundRefresh(enabled: boolean): void {
    if (enabled === backgroundRefresh) return;
    backgroundRefresh = enabled;
    if (enabled && !stopped) catchUp();
  }

  /** `sync.refreshSource`, unless refreshes wait to be asked for and a page opens on a source read here before. */
  async function refreshSource(source: Source | string, options?: RefreshOptions): Promise<SyncResult> {
    const name = typeof source === 'string' ? source : source.name;
    if (!backgroundRefresh && options?.ifStale && (await sync.everSynced([name]))) return 'ok';
    return sync.refreshSource(source, options);
  }

  /** Work under way for the previous user (or a stopped engine) is dropped when it lands. */
  function newGeneration() {
    generation += 1;
    controller.abort();
    controller = new AbortController();
  }

  /**
   * Storage checked, every source refreshed, the queue sent. `ifStale`: a source fresh for this user will do (a
   * new page, the same user named again), rather than one more read (focus, reconnecting: the last may predate
   * what changed, or have failed offline).
   */
  const catchUp = (options: RefreshOptions = {}) => {
    void storage.retry();
    if (backgroundRefresh) void sync.refreshAll(options);
    void outbox.flush();
  };
  const onFocus = () => catchUp({ shownOnly: true });
  const resetBackoff = () =>
    outbox.resetBackoff().catch((error: unknown) => console.warn('Could not reset the outbox backoff', error));
  /** The browser says the connection is back: one probe at once, and what waited out a backoff goes with it. */
  const onOnline = async () => {
    connectivity.browserOnline();
    await resetBackoff();
    catchUp();
  };
  const onOffline = () => connectivity.browserOffline();
  /** The server answered again (the live stream is back): everything goes, and every source catches up. */
  const reconnected = async () => {
    connectivity.succeeded();
    await resetBackoff();
    catchUp();
  };
  /** "Try now": the user asks; the next requests go whatever the probe window says. */
  const tryNow = async () => {
    connectivity.tryNow();
    await resetBackoff();
    catchUp();
  };
  connectivity.watch((connection) => update({ connection }));
  /** Any answer the page gets (the user's own requests too) says the server is there. */
  let stopHearingAnswers = () => {};

  /**
   * Starts the engine for whom the identity names (`userId`: a test's stand-in for it). A new page: items that
   * waited out a backoff in the last one go now, and each source reads unless it is fresh for this user.
   */
  function start({ userId: named }: { userId?: string | null } = {}): void {
    if (named !== undefined) setUser(named);
    if (!stopped) return;
    stopped = false;
    stopHearingAnswers = onServerAnswered(() => connectivity.succeeded());
    if (typeof window !== 'undefined') {
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      window.addEventListener('focus', onFocus);
    }
    void resetBackoff().then(() => catchUp({ ifStale: true, shownOnly: true }));
    void storage.started();
  }

  /**
   * The service worker's part (app/outbox-worker.ts), with no page open: sends what the device's signed-in user
   * queued, in one pass, and refreshes nothing. Resolves with how many items still wait to be sent (the browser
   * then tries again later). Pages and the worker take turns by the outbox's Web Lock, and send by the same ids.
   */
  async function sendQueued(): Promise<number> {
    const record = await db.session.get('me');
    if (!record || record.endedAt) return 0;
    setUser(record.me.id);
    stopped = false;
    // The browser says there is a connection again: what waited out a backoff goes now. A page may be open,
    // showing an item stuck for minutes on a server that fails: its stall is left as it is.
    connectivity.browserOnline();
    await outbox
      .resetBackoff({ keepStall: true })
      .catch((error: unknown) => console.warn('Could not reset the outbox backoff', error));
    await outbox.flush();
    return db.outbox
      .where('userId')
      .equals(record.me.id)
      .filter((row) => row.state === 'waiting')
      .count();
  }

  /** `listener` runs when a pass leaves items waiting for the network: the app asks the browser to send them later. */
  function whenItemsWait(listener: () => void): () => void {
    waitListeners.add(listener);
    return () => void waitListeners.delete(listener);
  }

  function stop(): void {
    stopped = true;
    newGeneration();
    outbox.stop();
    stopHearingAnswers();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('focus', onFocus);
    }
  }

  /**
   * Whose data the engine reads and sends (identity.ts, the one caller in the app). Another user: a new
   * generation, so work begun for the last one is dropped. The same user again lifts a 401 pause.
   */
  function setUser(id: string | null): void {
    if (id !== userId) {
      userId = id;
      newGeneration();
      update({ sources: {}, user: id });
    }
    outbox.resume(id);
    ctx.changed();
    if (!stopped && id) catchUp({ ifStale: true });
  }

  /** localStorage keys that hold something of the signed-in user's: they go with the user's data. */
  const userKeys = new Set<string>();

  /** Removes the signed-in user's data (their tables, unsent items with their optimistic changes, their sync states, every kept ETag, their localStorage keys); public tables stay. */
  async function clearUserData(): Promise<void> {
    newGeneration();
    await ctx.write(async (tx) => {
      await outbox.dropAll(tx);
      for (const name of userTableNames(db)) await tx.table(name).clear();
      await tx.syncState.filter((state) => state.userId !== null).delete();
      // A public source's answer may also fill the user's tables, just emptied: a 304 to its ETag would leave them so.
      await tx.syncState.toCollection().modify((state) => void delete state.etag);
    });
    storage.forget();
    for (const key of userKeys) marks?.removeItem(key);
    ctx.changed();
  }

  const identity = createIdentity({
    db,
    marks,
    setUser,
    clearUserData,
    noticeSignedIn: storage.noticeSignedIn,
  });

  return {
    db,
    defineSource: sync.defineSource,
    defineMutation: outbox.defineMutation,
    start,
    stop,
    setUser,
    user: () => userId,
    reconnected,
    tryNow,
    sendQueued,
    whenItemsWait,
    /** Whether the network may be used: the live stream opens only while it says `online`. */
    connectivity,
    refreshSource,
    /** A live notice: the sources that listen to `table` refresh (none while background refreshes are off). */
    refreshSources: (table: string, notice?: { ids?: readonly string[]; version?: number }) =>
      backgroundRefresh ? sync.refreshSources(table, notice) : Promise.resolve([]),
    setBackgroundRefresh,
    everSynced: sync.everSynced,
    mergeRows: sync.mergeRows,
    /** The generation to pass to `mergeRows` for rows fetched now: a later change of user drops them. */
    generation: () => generation,
    flush: outbox.flush,
    retryItem: outbox.retryItem,
    discardItem: outbox.discardItem,
    countUnsent: outbox.countUnsent,
    outboxItems: (target?: { table: string; id: string }) => outbox.items(userId, target),
    /** Where the change to `target` is (outbox.ts `ChangeState`); `useChange` follows it live. */
    changeState: (target: { table: string; id: string }) => outbox.changeState(userId, target, status.sendingSeq),
    clearUserData,
    /** Whose data this device holds (identity.ts): the one place that changes it. */
    identity,
    /** A localStorage key a feature keeps for the signed-in user (a choice made on a page): log-out removes it. */
    forgetAtLogOut: (key: string) => void userKeys.add(key),
    noticeSignedIn: storage.noticeSignedIn,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getStatus: () => status,
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The app's engine, over the app's database. */
export const engine = createEngine(localDb);

export const {
  defineSource,
  defineMutation,
  refreshSource,
  refreshSources,
  mergeRows,
  retryItem,
  discardItem,
  countUnsent,
  reconnected,
  tryNow,
  start: startEngine,
  stop: stopEngine,
} = engine;

export type {
  Change,
  ChangeState,
  Enqueue,
  EnqueueOptions,
  ItemDescription,
  MutationSpec,
  OutboxItem,
  QueuedChange,
} from './outbox.ts';
export { LocalWriteError } from '../lib/local-write-error.ts';
export type { StorageStatus } from './storage.ts';
export type { PullArgs, PullResult, RefreshOptions, Source, SourceSpec, SyncResult } from './sync.ts';
