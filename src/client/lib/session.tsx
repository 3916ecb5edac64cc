import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../common/session.ts';
import { appDatabase, loggingInKey, pendingSignOutKey } from './device-mark.ts';
import type { DeviceIdentity, Identity } from './device-identity.ts';
import type { client } from './api-client.ts';
import { apiFetch, apiRequest, isOffline, NetworkError, onSessionEnded, readJson } from './api.ts';
import { deviceMayHoldData } from './engine-wanted.ts';

export type SessionState =
  | { status: 'loading'; me: undefined }
  /** `leaveTo`: where guarded pages go once the user is signed out here (a log-out, a deleted account). */
  | { status: 'signed-out'; me: undefined; leaveTo?: string }
  | { status: 'signed-in'; me: Me }
  /** The server said the session has ended: the page stays as it is (nothing typed is lost) until the user logs in again or leaves. */
  | { status: 'expired'; me: Me };

interface SessionContextValue {
  session: SessionState;
  /** Asks the server who is signed in, and returns it; the device follows (offline/identity.ts). */
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
 * What the session needs of the offline engine (IndexedDB, Dexie): whose data the device holds, which it owns
 * (offline/identity.ts). Not part of the first load: the app loads it once the page wants it, with every
 * feature's tables declared first and the identity restored from the device (app/offline-setup.ts).
 */
export interface SessionStore {
  identity: DeviceIdentity;
}

/**
 * `client.api.session.$get()` without the typed client (Hono's, ~3 KB), which no public page needs before it
 * is interactive otherwise (scripts/check-js-budget.ts): the same request, and the answer typed by the route.
 */
const askSession = () => apiFetch('/api/session') as ReturnType<typeof client.api.session.$get>;

const signOutPending = () => localStorage.getItem(pendingSignOutKey) !== null;

function sessionOf(identity: Identity, leaveTo: string | undefined): SessionState {
  switch (identity.state) {
    case 'unknown':
      return { status: 'loading', me: undefined };
    case 'visitor':
      return leaveTo === undefined
        ? { status: 'signed-out', me: undefined }
        : { status: 'signed-out', me: undefined, leaveTo };
    case 'signed-in':
      return { status: 'signed-in', me: identity.me };
    case 'ended':
      return { status: 'expired', me: identity.me };
  }
}

/**
 * Who is signed in, as the pages see it. The server decides; the device's identity (offline/identity.ts) keeps
 * its answer, and this provider follows it once the engine is loaded. Before that it knows only the user the
 * server rendered the page for (`servedUser`), or nothing (`loading`, and guards wait: a first load with the
 * cookie but no stored record, a new device, is not mistaken for "signed out"), or, for a visitor whose device
 * holds nobody's data, that nobody is signed in: the engine need not load at all (lib/engine-wanted.ts).
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
  const [identity, setIdentity] = useState<Identity>(() =>
    servedUser ? { state: 'signed-in', me: servedUser, confirmed: false } : { state: 'unknown' },
  );
  // Where guarded pages go once signed out here; none: as a visitor arriving (guard-decision.ts).
  const [leaveTo, setLeaveTo] = useState<string>();
  const loaded = useRef<Promise<SessionStore> | null>(null);
  const flushing = useRef<Promise<void> | null>(null);
  /** This page found nobody signed in before the engine loaded. */
  const visitorHere = useRef(false);

  /** The device's identity, followed from the moment it is loaded. */
  const store = useCallback((): Promise<SessionStore> => {
    loaded.current ??= loadStore().then(async (loadedStore) => {
      const { identity: device } = loadedStore;
      device.subscribe((followed) => {
        const current = device.current();
        // Logged out in another tab: guarded pages here go home (spec §2).
        if (followed && current.state === 'visitor') setLeaveTo('/');
        setIdentity(current);
      });
      // The page already heard that nobody is signed in: the device agrees.
      if (device.current().state === 'unknown' && !servedUser && visitorHere.current) await device.settle();
      setIdentity(device.current());
      return loadedStore;
    });
    return loaded.current;
  }, [loadStore, servedUser]);

  /** Ends the server session of a log-out made offline, once it can (any answer means none is left). */
  const flushSignOut = useCallback((): Promise<void> => {
    if (!signOutPending() || isOffline()) return Promise.resolve();
    const sent = () => void store().then(({ identity: device }) => device.signOutSent());
    flushing.current ??= apiRequest('POST', '/api/auth/sign-out', {})
      .then(sent, (error: unknown) => {
        if (!(error instanceof NetworkError)) sent();
      })
      .finally(() => {
        flushing.current = null;
      });
    return flushing.current;
  }, [store]);

  const refresh = useCallback(async (): Promise<Me | undefined> => {
    await flushSignOut();
    // Logged out offline and still offline: signed out, whatever the cookie says.
    if (signOutPending()) {
      await (await store()).identity.nobody();
      return undefined;
    }
    let me: Me | null;
    try {
      // The browser says it is offline: no request bound to fail; the connection's return asks (`online`).
      if (isOffline()) throw new NetworkError();
      ({ user: me } = await readJson(await askSession()));
    } catch {
      // Offline, or the server is down: what the device knew (restored from its record), or nobody.
      if (loaded.current || deviceMayHoldData()) {
        const { identity: device } = await store();
        await device.settle();
        const current = device.current();
        return current.state === 'signed-in' ? current.me : undefined;
      }
      visitorHere.current = true;
      setIdentity((current) => (current.state === 'unknown' ? { state: 'visitor' } : current));
      return undefined;
    }
    if (me) {
      setLeaveTo(undefined);
      await (await store()).identity.named(me);
    } else if (loaded.current || deviceMayHoldData()) await (await store()).identity.nobody();
    else {
      // Nobody's data to clear: the engine need not even load (lib/engine-wanted.ts).
      visitorHere.current = true;
      setIdentity({ state: 'visitor' });
    }
    return me ?? undefined;
  }, [flushSignOut, store]);

  const signOut = useCallback(
    async ({ leaveTo: to = '/', serverDone = false }: { leaveTo?: string; serverDone?: boolean } = {}) => {
      setLeaveTo(to);
      await (await store()).identity.signOut({ serverDone });
      void flushSignOut();
    },
    [flushSignOut, store],
  );

  const beforeLogin = useCallback(() => {
    sessionStorage.setItem(loggingInKey, '1');
    return flushSignOut();
  }, [flushSignOut]);

  useEffect(() => {
    // What this device knew, at once (an offline start), unless the server answers first.
    if (deviceMayHoldData()) void store();
    // refresh sets the session only after awaiting (the pending sign-out, the server): never synchronously.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refresh();
    const onOnline = () => void refresh();
    window.addEventListener('online', onOnline);
    // Another tab logged in or out: once loaded, the device's identity follows it; a tab that has not loaded
    // the engine yet loads it, and follows from the record that tab wrote.
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`${appDatabase}:session`);
    channel?.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
      if (loaded.current) return;
      if (event.data.type === 'signed-out') setLeaveTo('/');
      void store();
    });
    // A 401 from any call: the page stays, and says the session ended. Opened on the device's record alone (a
    // session that ran out while the app was closed), the server's answer decides instead, and signs out:
    // there is nothing typed to keep yet, and the next person on a shared device must not find the last one's
    // data behind a dialog.
    const stopListening = onSessionEnded(() => {
      if (!loaded.current) return void refresh();
      void store().then(({ identity: device }) => {
        const current = device.current();
        if (current.state === 'signed-in' && current.confirmed) void device.ended();
        else void refresh();
      });
    });
    return () => {
      channel?.close();
      window.removeEventListener('online', onOnline);
      stopListening();
    };
  }, [refresh, store]);

  const session = useMemo(() => sessionOf(identity, leaveTo), [identity, leaveTo]);
  const value = useMemo(() => ({ session, refresh, signOut, beforeLogin }), [session, refresh, signOut, beforeLogin]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
