// Every feature's tables, sources and mutations (sync-modules.ts), registered before anything opens IndexedDB.
// Whatever reads the database is loaded through here (the session, DataSync, the pages that read it:
// router.tsx), after the first paint.
import './sync-modules.ts';
import { dataSaver, watchDataSaver } from '../lib/data-saver.ts';
import { servedUser } from '../lib/served-user.ts';
import type { SessionStore } from '../lib/session.tsx';
import { engine } from '../offline/engine.ts';

/**
 * Whose data this is, known as the engine loads, before a page reads: the user the server rendered the page
 * for, or else the one the device's record names (offline/identity.ts). A page's first reads are then made for
 * them, not for nobody and again for them.
 */
const restored =
  // Rendering a page at build time, nobody is signed in and no device is there to ask.
  typeof document === 'undefined'
    ? Promise.resolve()
    : engine.identity
        .restore(servedUser())
        .catch((error: unknown) => console.warn('Could not read who is signed in on this device', error));

// Saving data (lib/data-saver.ts), nothing refreshes by itself: told before any page reads, and on each change.
if (typeof window !== 'undefined') {
  const followDataSaver = () => engine.setBackgroundRefresh(!dataSaver().on);
  followDataSaver();
  watchDataSaver(followDataSaver);
}

export const sessionStore: Promise<SessionStore> = restored.then(() => ({ identity: engine.identity }));
