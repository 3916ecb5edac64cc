import Dexie, { type EntityTable } from 'dexie';
import type { Module } from '../../common/catalogue.ts';
import type { Enrolment } from '../../common/profile.ts';
import type { Me } from '../../common/session.ts';

export interface SessionRecord {
  key: 'me';
  me: Me;
  savedAt: string;
  /**
   * Set when the server said the session has ended: the record no longer signs anyone in (not after a reload,
   * not offline), but tells whether the next login is the same person, whose local data then stays.
   */
  endedAt?: string;
}

/** When a table last matched the server: an empty table with no record here has simply never been loaded. */
export interface SyncStateRecord {
  key: 'modules' | 'enrolments';
  syncedAt: string;
}

/**
 * The app's IndexedDB. Each schema change is a new `version(n)` below the others; Dexie upgrades
 * browsers that have an older one.
 */
export const localDb = new Dexie('tutorbook') as Dexie & {
  session: EntityTable<SessionRecord, 'key'>;
  modules: EntityTable<Module, 'id'>;
  enrolments: EntityTable<Enrolment, 'id'>;
  syncState: EntityTable<SyncStateRecord, 'key'>;
};

localDb.version(1).stores({
  session: 'key',
});

// The catalogue and the signed-in user's enrolments, so they can be read offline (DESIGN "Offline model").
localDb.version(2).stores({
  modules: 'id, slug, category',
  enrolments: 'id',
  syncState: 'key',
});

/**
 * Removes everything stored for the signed-in user (log-out on a shared device), but keeps the catalogue:
 * it is public (`GET /api/modules` answers anyone) and says nothing about who used the device, and keeping it
 * lets the next person who signs in here browse it offline at once.
 */
export async function clearUserData(): Promise<void> {
  const publicTables = new Set(['modules', 'syncState']);
  await localDb.transaction('rw', localDb.tables, async () => {
    await Promise.all(localDb.tables.filter((t) => !publicTables.has(t.name)).map((t) => t.clear()));
    await localDb.syncState.delete('enrolments');
  });
}
