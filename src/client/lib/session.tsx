import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../common/session.ts';
import type { localDb } from '../offline/db.ts';
import type { clearUserData, engineUser, noticeSignedIn, setEngineUser } from '../offline/engine.ts';
import type { client } from './api-client.ts';
import { apiFetch, apiRequest, isOffline, NetworkError, onSessionEnded, readJson } from './api.ts';
import { deviceMayHoldData, isEngineWanted, pendingSignOutKey } from './engine-wanted.ts';

export type SessionState =
  | { status: 'loading'; me: undefined }
  /** `leaveTo`: the user logged out (or deleted the account) here; guarded pages go there, not to their usual redirect. */
  | { status: 'signed-out'; me: undefined; leaveTo?: string }
  | { status: 'signed-in'; me: Me }
  /** The server said the session has ended: the page stays as it is (nothing typed is lost) until the user logs in again or leaves. */
  | { status: 'expired'; me: Me };

interface SessionContextValue {
  session: SessionState;
  /** Asks the server who is signed in, stores the answer locally, and returns it. */
  refresh(): Promise<Me | undefined>;
  /**
   * Logs out here at once, online or not; the server is told as soon as it can be reached (`serverDone`: it
   * already knows, e.g. the account was deleted). Guarded pages then go to `leaveTo` (default `/`, spec §2).
   */
  signOut(options?: { leaveTo?: string; serverDone?: boolean }): Promise<void>;
  /** Call before logging in: a log-out still waiting for the server is sent first, with the old cookie. */
  beforeLogin(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/**
 * What the session needs of the offline engine (IndexedDB, Dexie). Not part of the first load: the app loads
 * it once the page is up, with every feature's tables declared first (app/offline-setup.ts).
 */
export interface SessionStore {
  localDb: Pick<typeof localDb, 'session'>;
  clearUserData: typeof clearUserData;
  noticeSignedIn: typeof noticeSignedIn;
  setEngineUser: typeof setEngineUser;
  engineUser: typeof engineUser;
}

/** The user this device may treat as signed in: a stored record, unless it ended or a log-out is pending. */
export async function storedUser({ localDb }: SessionStore): Promise<Me | undefined> {
  if (localStorage.getItem(pendingSignOutKey) !== null) return undefined;
  const record = await localDb.session.get('me');
  return record && !record.endedAt ? record.me : undefined;
}

/**
 * `client.api.session.$get()` without the typed client (Hono's, ~3 KB), which no public page needs before it
 * is interactive otherwise (scripts/check-js-budget.ts): the same request, and the answer typed by the route.
 */
const askSession = () => apiFetch('/api/session') as ReturnType<typeof client.api.session.$get>;

/** Same person, with nothing changed that the app shows (name, role, categories). */
const sameUser = (a: Me, b: Me) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Set before logging in, until the server names the user: finding nothing stored for them is then expected,
 * not a sign that the browser cleared the device's data. Per tab, and it survives the trip to Google and back.
 */
const loggingInKey = 'tutorbook:logging-in';
const channelName = 'tutorbook:session';
type Broadcast = { type: 'signed-in'; me: Me } | { type: 'signed-out' };

/**
 * Who is signed in. The server decides; IndexedDB keeps its last answer so the app knows the user offline.
 * A signed-in page the server rendered for the user comes with its answer (`servedUser`). Until one of these
 * is known the state is `loading`, and guards wait: a first load with the cookie but no stored record (a new
 * device, cleared site data) is not mistaken for "signed out". Other tabs hear of log-ins and log-outs
 * through a BroadcastChannel.
 */
export function SessionProvider({
  children,
  loadStore,
  servedUser,
}: {
  children: ReactNode;
  loadStore: () => Promise<SessionStore>;
  /** Who the server found signed in when it sent this page (common/page-user.ts): known from the start. */
  servedUser?: Me | undefined;
}) {
  const [session, setSession] = useState<SessionState>(() =>
    servedUser ? { status: 'signed-in', me: servedUser } : { status: 'loading', me: undefined },
  );
  const channel = useRef<BroadcastChannel | null>(null);
  // Whether the server has said who is signed in since this page opened (not just this device's record).
  const confirmed = useRef(false);
  const flushing = useRef<Promise<void> | null>(null);

  const announce = (message: Broadcast) => channel.current?.postMessage(message);

  const becomeSignedIn = useCallback(
    async (me: Me) => {
      const loggingIn = sessionStorage.getItem(loggingInKey) !== null;
      sessionStorage.removeItem(loggingInKey);
      const store = await loadStore();
      // Before the record is touched: its absence is what tells a wiped device.
      await store.noticeSignedIn(me.id, { loggingIn });
      const record = await store.localDb.session.get('me');
      // Someone else used this device before (their session ended without a log-out): drop their data. With no
      // record, the device holds no one's (their data goes with it: clearUserData) but what this page has read
      // for the user the engine reads for; if that is this user, it stays, and a new device reads it only once.
      const someoneElses = record ? record.me.id !== me.id : ![null, me.id].includes(store.engineUser());
      if (someoneElses) await store.clearUserData();
      await store.localDb.session.put({ key: 'me', me, savedAt: new Date().toISOString() });
      // The engine keeps only the answers for the user the device records (another tab may have logged out):
      // the reads that came back before this record were dropped, and are made again now.
      if (!record) store.setEngineUser(me.id);
      setSession((current) =>
        current.status === 'signed-in' && sameUser(current.me, me) ? current : { status: 'signed-in', me },
      );
      announce({ type: 'signed-in', me });
    },
    [loadStore],
  );

  /** The session ended while this page used it: the page stays, a dialog offers to log in again. */
  const endSession = useCallback(() => {
    setSession((current) => (current.status === 'signed-in' ? { status: 'expired', me: current.me } : current));
    void loadStore().then(({ localDb }) => localDb.session.update('me', { endedAt: new Date().toISOString() }));
  }, [loadStore]);

  const becomeSignedOut = useCallback(
    async (leaveTo?: string) => {
      confirmed.current = false;
      await (await loadStore()).clearUserData();
      setSession({ status: 'signed-out', me: undefined, leaveTo });
    },
    [loadStore],
  );

  /** Ends the server session of a log-out made offline; true once it is done (or there was none). */
  const flushSignOut = useCallback((): Promise<void> => {
    // Offline it could only fail: the connection's return sends it (`refresh` on `online`).
    if (localStorage.getItem(pendingSignOutKey) === null || isOffline()) return Promise.resolve();
    flushing.current ??= apiRequest('POST', '/api/auth/sign-out', {})
      .then(
        () => localStorage.removeItem(pendingSignOutKey),
        (error: unknown) => {
          // Offline: try again later. Any answer from the server means there is no session left to end.
          if (!(error instanceof NetworkError)) localStorage.removeItem(pendingSignOutKey);
        },
      )
      .finally(() => {
        flushing.current = null;
      });
    return flushing.current;
  }, []);

  /** The user this device may treat as signed in (`storedUser`); a device with nobody's data is not read. */
  const storedHere = useCallback(
    async () => (deviceMayHoldData() ? storedUser(await loadStore()) : undefined),
    [loadStore],
  );

  const refresh = useCallback(async (): Promise<Me | undefined> => {
    await flushSignOut();
    if (localStorage.getItem(pendingSignOutKey) !== null) {
      // Logged out offline and still offline: signed out, whatever the cookie says.
      await becomeSignedOut();
      return undefined;
    }
    let me: Me | null;
    try {
      // The browser says it is offline: no request bound to fail; the connection's return asks (`online`).
      if (isOffline()) throw new NetworkError();
      ({ user: me } = await readJson(await askSession()));
    } catch {
      // Offline or the server is down: what this device knew.
      const stored = await storedHere();
      setSession((current) =>
        current.status !== 'loading'
          ? current
          : stored
            ? { status: 'signed-in', me: stored }
            : { status: 'signed-out', me: undefined },
      );
      return stored;
    }
    if (me) {
      confirmed.current = true;
      await becomeSignedIn(me);
    } else if (confirmed.current) {
      // The session this page was using has ended (a refresh on reconnecting, say): as for a 401.
      endSession();
    } else if (deviceMayHoldData()) await becomeSignedOut();
    // Nobody's data to clear: the engine need not even load (lib/engine-wanted.ts).
    else setSession({ status: 'signed-out', me: undefined });
    return me ?? undefined;
  }, [becomeSignedIn, becomeSignedOut, endSession, flushSignOut, storedHere]);

  const signOut = useCallback(
    async ({ leaveTo = '/', serverDone = false }: { leaveTo?: string; serverDone?: boolean } = {}) => {
      if (!serverDone) localStorage.setItem(pendingSignOutKey, '1');
      await becomeSignedOut(leaveTo);
      announce({ type: 'signed-out' });
      void flushSignOut();
    },
    [becomeSignedOut, flushSignOut],
  );

  const beforeLogin = useCallback(() => {
    sessionStorage.setItem(loggingInKey, '1');
    return flushSignOut();
  }, [flushSignOut]);

  useEffect(() => {
    let live = true;
    // What this device knew, at once (offline start), unless the server answers first.
    void storedHere().then((stored) => {
      if (live && stored)
        setSession((current) => (current.status === 'loading' ? { status: 'signed-in', me: stored } : current));
    });
    // refresh sets the session only after awaiting (the pending sign-out, the server): never synchronously.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refresh();

    channel.current = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName);
    channel.current?.addEventListener('message', (event: MessageEvent<Broadcast>) => {
      const message = event.data;
      if (message.type === 'signed-out') setSession({ status: 'signed-out', me: undefined, leaveTo: '/' });
      else
        setSession((current) =>
          current.status === 'signed-in' && sameUser(current.me, message.me)
            ? current
            : { status: 'signed-in', me: message.me },
        );
    });
    const onOnline = () => void refresh();
    window.addEventListener('online', onOnline);
    // A 401 from any call: keep the page, say the session ended, and forget the stored record so that a
    // reload or another tab does not trust it.
    const stopListening = onSessionEnded(() => {
      // Opened on this device's record alone (a session that ran out while the app was closed): the server's
      // answer decides, and signs out; there is nothing typed to keep yet, and the next person on a shared
      // device must not find the last one's data behind a dialog.
      if (!confirmed.current) void refresh();
      else endSession();
    });
    return () => {
      live = false;
      channel.current?.close();
      window.removeEventListener('online', onOnline);
      stopListening();
    };
  }, [refresh, endSession, storedHere]);

  // The engine learns who is signed in as soon as the session does: a page may queue a change before DataSync
  // (which runs the engine, app/app.tsx) has loaded, and the item needs its owner. While the session is loading
  // the engine keeps whom it was told (app/offline-setup.ts): "nobody" would drop the reads begun for them.
  const userId = session.me?.id ?? null;
  const known = session.status !== 'loading';
  useEffect(() => {
    // A visitor's page that has not loaded the engine has nothing to tell it (lib/engine-wanted.ts).
    if (known && (userId !== null || isEngineWanted())) void loadStore().then((store) => store.setEngineUser(userId));
  }, [userId, known, loadStore]);

  const value = useMemo(() => ({ session, refresh, signOut, beforeLogin }), [session, refresh, signOut, beforeLogin]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
