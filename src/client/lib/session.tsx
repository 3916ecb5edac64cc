import { useLiveQuery } from 'dexie-react-hooks';
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Me } from '../../common/session.ts';
import { clearUserData, localDb } from '../offline/db.ts';
import { api } from './api.ts';

export type SessionState =
  | { status: 'loading'; me: undefined }
  | { status: 'signed-out'; me: undefined }
  | { status: 'signed-in'; me: Me };

interface SessionContextValue {
  session: SessionState;
  /** Asks the server who is signed in and stores the answer locally. */
  refresh(): Promise<Me | undefined>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/**
 * Who is signed in. IndexedDB holds the answer so the app knows it offline; the server's answer
 * replaces it whenever the server can be reached.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const record = useLiveQuery(() => localDb.session.get('me').then((r) => r ?? null), [], 'loading' as const);

  // With nothing stored, "signed out" is only known once the server has answered (or cannot).
  const [checked, setChecked] = useState(false);

  const refresh = useCallback(async () => {
    let me: Me | null;
    try {
      ({ user: me } = await api.get<{ user: Me | null }>('/api/session'));
    } catch {
      // Offline or the server is down: keep what we knew.
      return (await localDb.session.get('me'))?.me;
    }
    if (!me) await clearUserData();
    else {
      // Someone else signed in on this device (the last session ended without a log-out): drop their data.
      if ((await localDb.session.get('me'))?.me.id !== me.id) await clearUserData();
      await localDb.session.put({ key: 'me', me, savedAt: new Date().toISOString() });
    }
    return me ?? undefined;
  }, []);

  const signOut = useCallback(async () => {
    await api.post('/api/auth/sign-out');
    await clearUserData();
  }, []);

  useEffect(() => {
    void refresh().finally(() => setChecked(true));
    const onOnline = () => void refresh();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [refresh]);

  const session: SessionState = useMemo(() => {
    if (record === 'loading' || (record === null && !checked)) return { status: 'loading', me: undefined };
    if (record === null) return { status: 'signed-out', me: undefined };
    return { status: 'signed-in', me: record.me };
  }, [record, checked]);

  const value = useMemo(() => ({ session, refresh, signOut }), [session, refresh, signOut]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
