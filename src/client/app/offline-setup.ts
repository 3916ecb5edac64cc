// Every feature's tables, sources and mutations, registered before anything opens IndexedDB: a table declared
// later would be missing from the database's schema. Whatever reads the database is loaded through here
// (the session, DataSync, the pages that read it: router.tsx), after the first paint.
import '../features/bookings/bookings.sync.ts';
import '../features/catalogue/catalogue.sync.ts';
import '../features/profile/profile.sync.ts';
import '../features/qa/qa.sync.ts';
import { servedUser } from '../lib/served-user.ts';
import { storedUser, type SessionStore } from '../lib/session.tsx';
import { completeSchema, localDb } from '../offline/db.ts';
import { clearUserData, engineUser, noticeSignedIn, setEngineUser } from '../offline/engine.ts';

// Every table is declared now: the database's schema is complete.
completeSchema(localDb);

export const sessionStore: SessionStore = { localDb, clearUserData, noticeSignedIn, setEngineUser, engineUser };

/**
 * The engine learns whom it reads for as soon as it loads, before the session's effects tell it: the user the
 * server rendered the page for, or else the one this device knew, as the session starts from (lib/session.tsx).
 * A page's first refresh is then seldom begun for nobody, dropped when the session names the user, and begun again.
 */
void (async () => {
  const me = servedUser() ?? (typeof document === 'undefined' ? undefined : await storedUser(sessionStore));
  if (me) setEngineUser(me.id);
})().catch((error: unknown) => console.warn('Could not read who is signed in on this device', error));
