import { useEffect } from 'react';
import { useSession } from '../lib/session.tsx';
import { refreshUserData } from '../offline/catalogue-sync.ts';

/**
 * Keeps the signed-in user's local tables (catalogue, enrolments) fresh: on start, on reconnect and when the
 * window regains focus. Visitors get nothing fetched: every page that shows these is for signed-in users, and
 * many of them arrive on phones with little data.
 */
export function DataSync() {
  const { session } = useSession();
  const userId = session.me?.id;
  useEffect(() => {
    if (!userId) return;
    refreshUserData();
    window.addEventListener('online', refreshUserData);
    window.addEventListener('focus', refreshUserData);
    return () => {
      window.removeEventListener('online', refreshUserData);
      window.removeEventListener('focus', refreshUserData);
    };
  }, [userId]);
  return null;
}
