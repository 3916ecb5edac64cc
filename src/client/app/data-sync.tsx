import { useEffect, useRef } from 'react';
import './offline-setup.ts';
import { useSession } from '../lib/session.tsx';
import { reconnected, refreshSources, setEngineUser, startEngine, stopEngine } from '../offline/engine.ts';
import { startLiveEvents } from '../offline/live-events.ts';

/**
 * Whether this tab fetches what a live notice says changed. Tabs share one IndexedDB, and pages read it, so
 * one fetch serves them all: the tab holding the stream makes it. A visitor's tab refreshes only the public
 * sources its own pages showed (sync.ts), which the leading tab may not have: a visible one fetches for
 * itself too, and hidden ones catch up when focused.
 */
const fetchesHere = (leading: boolean, signedIn: boolean) =>
  leading || (!signedIn && document.visibilityState === 'visible');

/**
 * Runs the local-first engine for whoever is signed in, and the live stream that tells it what changed. An
 * ended session keeps its user (the queue pauses on the 401 and what is typed can still be queued); logging
 * in again as the same person, which changes the session's status but not its user, resumes the queue.
 */
export function DataSync() {
  const { session } = useSession();
  const userId = session.me?.id ?? null;
  const known = session.status !== 'loading';
  // The engine starts for whom the session names, or while it is loading for whom the engine was told
  // (offline-setup.ts): not for nobody and then for them again, which would drop the work it had begun.
  const startingUser = useRef(known ? userId : undefined);
  useEffect(() => {
    startEngine({ userId: startingUser.current });
    return stopEngine;
  }, []);
  useEffect(() => {
    if (known) setEngineUser(userId);
  }, [userId, known, session.status]);

  // Visitors hear public notices too. The stream carries the cookie it was opened with: a log-in, a log-out
  // or logging in again after the session ended opens a new one.
  const streamFor = session.status === 'loading' ? undefined : `${session.status}:${userId}`;
  const signedIn = userId !== null;
  useEffect(() => {
    if (streamFor === undefined) return;
    return startLiveEvents({
      onChange: (table, ids, leading, version) => {
        if (fetchesHere(leading, signedIn)) void refreshSources(table, { ids, version });
      },
      onResync: (leading) => {
        // Notices may have been missed: every source asks for what changed since its cursor.
        if (fetchesHere(leading, signedIn)) void reconnected();
      },
    });
  }, [streamFor, signedIn]);
  return null;
}
