/**
 * React hooks over the app's engine: pages read IndexedDB (live queries), never the network.
 *
 *   const notes = useLocalData(() => notesTable.orderBy('createdAt').reverse().toArray(), [], [notesSource]);
 *   // notes.status: 'loading' | 'unavailable' | 'empty' | 'ready' | 'stale'
 *
 * - `loading`: IndexedDB has not answered yet, or nothing was ever synced here and the refresh is running.
 * - `unavailable`: never synced here and the refresh failed (`failure` says offline or failed; `retry`).
 * - `empty`: synced, and there is nothing. `ready`: rows, and the last refresh went well. `stale`: rows, but
 *   the last refresh failed (offline, most often): show them with a notice.
 * Opening a page refreshes its sources unless they are fresh for this user (read, or being read, since the
 * user was last named); `refreshing` stays true until that read has ended (a page can wait for it before
 * calling something "not found"). Live notices, focus and reconnecting keep them fresh after that.
 *
 * `refreshOnScreen()` reads the sources of the mounted pages again (the navbar's Refresh while the device saves
 * data, when nothing refreshes by itself). `useSyncStatus()` is for the navbar's indicator, `useOutboxItems()`
 * for a "needs attention" list, `useChange(row)` follows the change to one row (a form's request: waiting,
 * sending, refused, done), and `useStorageStatus()` tells when the device's storage was found cleared or stopped
 * working.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ConnectivityState } from '../lib/connectivity.ts';
import type { RowRef } from './db.ts';
import {
  engine,
  initialStatus,
  type ChangeState,
  type EngineStatus,
  type OutboxItem,
  type Source,
  type StorageStatus,
  type SyncResult,
} from './engine.ts';
import { stallOf, type Stall } from './outbox-rules.ts';

export type LocalDataStatus = 'loading' | 'unavailable' | 'empty' | 'ready' | 'stale';

export interface LocalData<T> {
  status: LocalDataStatus;
  data: T | undefined;
  /** Why the last refresh did not come through, if it did not. */
  failure?: 'offline' | 'failed';
  /** This page's refresh (or one it joined) has not ended yet. */
  refreshing: boolean;
  retry(): void;
}

/** Same entries, in the same order (`Object.is` each). */
const sameEntries = <T extends object>(a: T, b: T) => {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
};

/**
 * The part of the engine's status that `select` reads. The component re-renders when that part changes, not
 * on every report: a refresh reports each source twice, and a re-render in a store update is never split up
 * (total blocking time on a slow phone). `equal` compares two selections; pass `sameEntries` for a new array
 * or object each time.
 */
function useEngineStatus<T>(select: (status: EngineStatus) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const last = useRef<{ value: T }>(undefined);
  const read = (status: EngineStatus) => {
    const value = select(status);
    if (last.current && equal(last.current.value, value)) return last.current.value;
    last.current = { value };
    return value;
  };
  // The server's snapshot is the status before anything ran, as a page rendered at build time was.
  return useSyncExternalStore(
    engine.subscribe,
    () => read(engine.getStatus()),
    () => read(initialStatus),
  );
}
const selectUser = (status: EngineStatus) => status.user;

const hasRows = (data: unknown) => data !== undefined && data !== null && !(Array.isArray(data) && data.length === 0);

export function useLocalData<T>(query: () => Promise<T>, deps: unknown[], sources: Source[]): LocalData<T> {
  // Sources are module constants, but callers pass a new array each render: the names are the identity.
  const key = sources.map((s) => s.name).join('\n');
  const [user, ...states] = useEngineStatus(
    (status) => [status.user, ...key.split('\n').map((name) => status.sources[name])] as const,
    sameEntries,
  );
  const local = useLiveQuery(
    async () => ({ data: await query(), synced: await engine.everSynced(key.split('\n')) }),
    // The caller's deps stand for `query`, as with useLiveQuery.
    [...deps, key, user],
  );
  // Which sources-and-user this page's first refresh has ended for: a new key starts unsettled, with no
  // state set during the effect.
  const current = `${key}\n${user ?? ''}`;
  const [settledFor, setSettledFor] = useState<string>();
  const settled = settledFor === current;

  useEffect(() => {
    // Rendered with the status a page is prerendered with (hydrating) rather than the engine's: the render with
    // the engine's own follows at once, and refreshes. Refreshing for both would fetch twice.
    if (user !== engine.user()) return;
    let mounted = true;
    void Promise.all(key.split('\n').map((name) => engine.refreshSource(name, { ifStale: true }))).then(
      () => mounted && setSettledFor(current),
    );
    return () => {
      mounted = false;
    };
  }, [key, current, user]);

  const retry = useCallback(() => {
    for (const name of key.split('\n')) void engine.refreshSource(name);
  }, [key]);

  useEffect(() => onScreen(key.split('\n')), [key]);

  const failure = states.some((s) => s?.result === 'failed')
    ? 'failed'
    : states.some((s) => s?.result === 'offline')
      ? 'offline'
      : undefined;
  const running = states.some((s) => s?.running === true);
  const refreshing = running || !settled;

  let result: LocalDataStatus;
  if (local === undefined) result = 'loading';
  else if (hasRows(local.data)) result = failure ? 'stale' : 'ready';
  else if (local.synced) result = 'empty';
  else result = failure && !running ? 'unavailable' : 'loading';

  return { status: result, data: local?.data, failure, refreshing, retry };
}

/** The sources the mounted pages read, with how many readers each: what `refreshOnScreen` reads again. */
const shownNow = new Map<string, number>();

function onScreen(names: string[]): () => void {
  for (const name of names) shownNow.set(name, (shownNow.get(name) ?? 0) + 1);
  return () => {
    for (const name of names) {
      const left = (shownNow.get(name) ?? 1) - 1;
      if (left > 0) shownNow.set(name, left);
      else shownNow.delete(name);
    }
  };
}

/**
 * "Refresh" (the data saver's, app/refresh-button.tsx): every source a page on screen reads is read again now,
 * and nothing else.
 */
export function refreshOnScreen(): Promise<SyncResult[]> {
  return Promise.all([...shownNow.keys()].map((name) => engine.refreshSource(name)));
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export interface SyncStatus {
  /** The browser says it has a connection. */
  online: boolean;
  /** Whether the server can be reached (lib/connectivity.ts): `unreachable` is online without answers. */
  connection: ConnectivityState;
  /** A queued item is on its way now. */
  sending: boolean;
  /** Items not yet sent (including the one on its way). */
  waiting: number;
  attention: number;
  /** Items that have kept failing for over a minute while online, and since when (epoch ms). */
  stall?: Stall;
  /** The time the stall was judged at (epoch ms), for saying how long it has lasted. */
  now: number;
  /** The session ended while sending: the queue waits for the same user to log in again. */
  paused: boolean;
  /** IndexedDB cannot be opened: nothing can be saved on this device until a reload. */
  storageFailing: boolean;
}

/** The time, again every `everyMs` while `ticking`: for what a page says of how long something has waited. */
function useNow(ticking: boolean, everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [ticking, everyMs]);
  return now;
}

export function useSyncStatus(): SyncStatus {
  const status = useEngineStatus(
    ({ sending, paused, storage, connection }) => ({
      sending,
      paused,
      connection,
      storageFailing: storage.state === 'failing',
    }),
    sameEntries,
  );
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  const items = useOutboxItems();
  const waiting = items.filter((i) => i.state === 'waiting');
  const now = useNow(waiting.some((item) => item.failingSince !== undefined));
  // A stall is something wrong with the server or the way to it: offline, the navbar says "Offline" instead.
  const stall = online ? stallOf(waiting, now) : undefined;
  return {
    online,
    connection: online ? status.connection : 'offline',
    sending: status.sending,
    waiting: waiting.length,
    attention: items.length - waiting.length,
    ...(stall ? { stall } : {}),
    now,
    paused: status.paused,
    storageFailing: status.storageFailing,
  };
}

/** A new value each time the engine reports on the device's storage (a loss is reported once per page). */
export function useStorageStatus(): StorageStatus {
  return useEngineStatus((status) => status.storage);
}

/** The signed-in user's queued items, oldest first. */
/** One empty list until the outbox is read: a page can keep what it derives from it across renders. */
const noItems: OutboxItem[] = [];

export function useOutboxItems(): OutboxItem[] {
  const user = useEngineStatus(selectUser);
  return useLiveQuery(() => engine.outboxItems(), [user]) ?? noItems;
}

/**
 * Where the change to one row is, live (`ChangeState`: waiting, sending, attention, done, none), named by the
 * row it is about, so a page follows a change queued before a reload as well as its own. Undefined while
 * IndexedDB is read, and for no row.
 */
export function useChange(target: RowRef | undefined): (ChangeState & { target: RowRef }) | undefined {
  const user = useEngineStatus(selectUser);
  const sendingSeq = useEngineStatus((status) => status.sendingSeq);
  const [table, id] = [target?.table, target?.id];
  return useLiveQuery(
    async () => (table && id ? { ...(await engine.changeState({ table, id })), target: { table, id } } : undefined),
    [table, id, user, sendingSeq],
  );
}
