import type { Module } from '../../common/catalogue.ts';
import type { Enrolment } from '../../common/profile.ts';
import { api, NetworkError } from '../lib/api.ts';
import { localDb } from './db.ts';

/** How a refresh went: `offline` when the server could not be reached, `failed` when it answered with an error. */
export type SyncResult = 'ok' | 'offline' | 'failed';

export interface RefreshOptions {
  /** A page that only reads may share a fetch already under way (its answer is fresh enough). */
  join?: boolean;
}

/**
 * Runs `task` at most once at a time. A call made while it runs gets one more run after it (shared by all
 * such calls), so a refresh asked for after a write never reuses a fetch that started before the write;
 * a reader's call (`join`) shares the run under way instead.
 */
function oneAtATime(task: () => Promise<void>): (options?: RefreshOptions) => Promise<SyncResult> {
  let running: Promise<SyncResult> | null = null;
  let next: Promise<SyncResult> | null = null;
  const start = (): Promise<SyncResult> => {
    running = task()
      .then((): SyncResult => 'ok')
      .catch((error: unknown): SyncResult => {
        if (error instanceof NetworkError) return 'offline';
        console.warn('Refresh failed', error);
        return 'failed';
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return (options = {}) => {
    if (!running) return start();
    if (options.join) return next ?? running;
    next ??= running.then(() => {
      next = null;
      return start();
    });
    return next;
  };
}

/** Replaces the local catalogue with the server's, in one transaction (pages never see a half-written table). */
export const refreshCatalogue = oneAtATime(async () => {
  const { modules } = await api.get<{ modules: Module[] }>('/api/modules');
  await localDb.transaction('rw', localDb.modules, localDb.syncState, async () => {
    await localDb.modules.clear();
    await localDb.modules.bulkPut(modules);
    await localDb.syncState.put({ key: 'modules', syncedAt: new Date().toISOString() });
  });
});

/** Replaces the local enrolments with the signed-in user's; does nothing when nobody is signed in. */
export const refreshEnrolments = oneAtATime(async () => {
  const userId = (await localDb.session.get('me'))?.me.id;
  if (!userId) return;
  const { enrolments } = await api.get<{ enrolments: Enrolment[] }>('/api/me/enrolments');
  await localDb.transaction('rw', localDb.enrolments, localDb.session, localDb.syncState, async () => {
    // Logged out (or someone else logged in) while the answer was on its way: it is not theirs to keep.
    if ((await localDb.session.get('me'))?.me.id !== userId) return;
    await localDb.enrolments.clear();
    await localDb.enrolments.bulkPut(enrolments);
    await localDb.syncState.put({ key: 'enrolments', syncedAt: new Date().toISOString() });
  });
});

/** Background refresh: failures are silent, pages show what IndexedDB has. */
export function refreshUserData(): void {
  void refreshCatalogue();
  void refreshEnrolments();
}
