import { useEffect } from 'react';
// Every feature's tables, sources and mutations, registered before anything opens IndexedDB (the session
// reads it first, in an effect): a table declared later would be missing from the database's schema.
import '../features/catalogue/catalogue.sync.ts';
import '../features/profile/profile.sync.ts';
import '../features/qa/qa.sync.ts';
import { useSession } from '../lib/session.tsx';
import { setEngineUser, startEngine, stopEngine } from '../offline/engine.ts';

/**
 * Runs the local-first engine for whoever is signed in. An ended session keeps its user (the queue pauses
 * on the 401 and what is typed can still be queued); logging in again as the same person, which changes the
 * session's status but not its user, resumes the queue.
 */
export function DataSync() {
  const { session } = useSession();
  const userId = session.me?.id ?? null;
  useEffect(() => {
    startEngine({ userId: null });
    return stopEngine;
  }, []);
  useEffect(() => setEngineUser(userId), [userId, session.status]);
  return null;
}
