import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import type { Module } from '../../common/catalogue.ts';
import type { Enrolment } from '../../common/profile.ts';
import { refreshCatalogue, refreshEnrolments, type RefreshOptions, type SyncResult } from './catalogue-sync.ts';
import { localDb } from './db.ts';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en-ZA', { sensitivity: 'base' });

export interface LocalTable<T> {
  /** `undefined` until IndexedDB has answered (a few milliseconds). */
  rows: T[] | undefined;
  /** The table has matched the server at least once on this device, so an empty table really is empty. */
  everSynced: boolean;
  /** The refresh this page started when it opened; `pending` until it ends. */
  refresh: SyncResult | 'pending';
  retry(): void;
}

function useLocalTable<T>(read: () => Promise<T[]>, key: 'modules' | 'enrolments', refreshTable: (options: RefreshOptions) => Promise<SyncResult>): LocalTable<T> {
  const local = useLiveQuery(async () => {
    const [rows, state] = await Promise.all([read(), localDb.syncState.get(key)]);
    return { rows, everSynced: state !== undefined };
  });
  const [result, setResult] = useState<SyncResult | 'pending'>('pending');
  // Opening a page shares a refresh already under way (the app's start-up one, say); Try again starts its own.
  const refresh = useCallback((join: boolean) => refreshTable({ join }), [refreshTable]);
  const retry = useCallback(() => {
    setResult('pending');
    void refresh(false).then(setResult);
  }, [refresh]);
  useEffect(() => {
    let mounted = true;
    void refresh(true).then((r) => mounted && setResult(r));
    return () => {
      mounted = false;
    };
  }, [refresh]);
  return { rows: local?.rows, everSynced: local?.everSynced ?? false, refresh: result, retry };
}

/** The catalogue from IndexedDB, sorted by name, refreshed from the server when the page opens. */
export function useCatalogue(): LocalTable<Module> {
  return useLocalTable(async () => (await localDb.modules.toArray()).sort(byName), 'modules', refreshCatalogue);
}

/** The signed-in user's enrolments from IndexedDB, oldest first, refreshed when the page opens. */
export function useEnrolments(): LocalTable<Enrolment> {
  return useLocalTable(async () => (await localDb.enrolments.toArray()).sort((a, b) => a.enrolledAt.localeCompare(b.enrolledAt)), 'enrolments', refreshEnrolments);
}
