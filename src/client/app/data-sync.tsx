import { useEffect, useRef } from 'react';
import './offline-setup.ts';
import { useDataSaver } from '../lib/data-saver.ts';
import { useSession } from '../lib/session.tsx';
import { engine, reconnected, refreshSources, startEngine, stopEngine } from '../offline/engine.ts';
import { startLiveEvents } from '../offline/live-events.ts';
import { sendWhenConnected } from './background-send.ts';

/**
 * Whether this tab fetches what a live notice says changed. Tabs share one IndexedDB, and pages read it, so
 * one fetch serves them all: the tab holding the stream makes it. A visitor's tab refreshes only the public
 * sources its own pages showed (sync.ts), which the leading tab may not have: a visible one fetches for
 * itself too, and hidden ones catch up when focused.
 */
const fetchesHere = (leading: boolean, signedIn: boolean) =>
  leading || (!signedIn && document.visibilityState === 'visible');

/**
 * Runs the local-first engine, for whom the device's identity names (offline/identity.ts gives the engine its
 * user), and the live stream that tells it what changed, unless the device saves data (lib/data-saver.ts: no
 * stream then, and offline-setup.ts has the engine refresh nothing by itself).
 */
export function DataSync() {
  const { session, refresh } = useSession();
  // Read when a notice comes, not a reason to open a new stream: `refresh` changes with the session's state.
  const refreshSession = useRef(refresh);
  useEffect(() => {
    refreshSession.current = refresh;
  }, [refresh]);
  const userId = session.me?.id ?? null;
  useEffect(() => {
    startEngine();
    // Items left waiting for the network: where the browser can, the service worker sends them once there is a
    // connection, even with every tab closed (background-send.ts, decision 0046).
    const stopAsking = engine.whenItemsWait(() => void sendWhenConnected());
    return () => {
      stopAsking();
      stopEngine();
    };
  }, []);

  // Visitors hear public notices too. The stream carries the cookie it was opened with: a log-in, a log-out
  // or logging in again after the session ended opens a new one.
  const streamFor = session.status === 'loading' ? undefined : `${session.status}:${userId}`;
  const signedIn = userId !== null;
  const savingData = useDataSaver().on;
  useEffect(() => {
    if (streamFor === undefined || savingData) return;
    return startLiveEvents({
      connectivity: engine.connectivity,
      onChange: (table, ids, leading, version) => {
        // The account itself changed (a new name, on another device): every tab reads who is signed in again,
        // so the navbar and the dashboard's welcome line show it.
        if (table === 'me') return void refreshSession.current();
        if (fetchesHere(leading, signedIn)) void refreshSources(table, { ids, version });
      },
      onResync: (leading) => {
        // Notices may have been missed: every source asks for what changed since its cursor.
        if (fetchesHere(leading, signedIn)) void reconnected();
      },
    });
  }, [streamFor, signedIn, savingData]);
  return null;
}
