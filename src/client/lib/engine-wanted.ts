/**
 * Whether this page runs the offline engine (app/data-sync.tsx: Dexie, every feature's sync code, the live
 * stream). A visitor reading Home on a phone needs none of it: it starts once someone signs in, once a page
 * that reads the device's database opens (app/router.tsx `page`), or at once on a device that may hold
 * someone's data. That is a device with the storage watch's mark (written while the database holds a session
 * record, removed by a log-out: offline/storage.ts) or a log-out still to send; a browser that refuses
 * localStorage cannot tell, so it runs the engine as before.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { appDatabase, pendingSignOutKey, storedUserKey } from './device-mark.ts';

export function deviceMayHoldData(): boolean {
  if (typeof window === 'undefined') return false;
  try {
    return (
      localStorage.getItem(storedUserKey(appDatabase)) !== null || localStorage.getItem(pendingSignOutKey) !== null
    );
  } catch {
    return true;
  }
}

let wanted = deviceMayHoldData();
const listeners = new Set<() => void>();

/** From now on this page runs the engine (it never stops for want of a reason: a log-out keeps it). */
export function wantEngine(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** Whether the engine runs (or is to run) in this page, whoever is signed in. */
export const isEngineWanted = (): boolean => wanted;

/** Whether the engine runs in this page; `signedIn`: the session names a user (signed in, or ended here). */
export function useEngineWanted(signedIn: boolean): boolean {
  const flag = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
  useEffect(() => {
    if (signedIn) wantEngine();
  }, [signedIn]);
  return flag || signedIn;
}

/** This page arrived as the empty shell (the service worker's, for one) and is rendered here, not hydrated. */
let shellStart = false;

/** Called by main.tsx before it renders into the empty shell. */
export function markShellStart(): void {
  shellStart = true;
}

/**
 * Whether a page, while the session is still read from the device, should hold the place of what a signed-in
 * user sees: it began as the empty shell on a device that may hold someone's data, most likely theirs. Never
 * while hydrating: that HTML was rendered for a visitor while the session was being read, as here.
 */
export const awaitsStoredUser = (): boolean => shellStart && deviceMayHoldData();
