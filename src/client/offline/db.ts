import Dexie, { type EntityTable } from 'dexie';
import type { Me } from '../../common/session.ts';

export interface SessionRecord {
  key: 'me';
  me: Me;
  savedAt: string;
}

/**
 * The app's IndexedDB. Each schema change is a new `version(n)` below the others; Dexie upgrades
 * browsers that have an older one.
 */
export const localDb = new Dexie('tutorbook') as Dexie & {
  session: EntityTable<SessionRecord, 'key'>;
};

localDb.version(1).stores({
  session: 'key',
});

/** Removes everything stored for the signed-in user (log-out on a shared device). */
export async function clearUserData(): Promise<void> {
  await localDb.transaction('rw', localDb.tables, async () => {
    await Promise.all(localDb.tables.map((t) => t.clear()));
  });
}
