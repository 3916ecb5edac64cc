// Every feature's tables, sources and mutations, registered before anything opens IndexedDB: a table declared
// later would be missing from the database's schema. Whatever reads the database is loaded through here
// (the session, DataSync, the pages that read it: router.tsx), after the first paint.
import '../features/bookings/bookings.sync.ts';
import '../features/catalogue/catalogue.sync.ts';
import '../features/profile/profile.sync.ts';
import '../features/public/testimonials.sync.ts';
import '../features/qa/qa.sync.ts';
import { servedUser } from '../lib/served-user.ts';
import type { SessionStore } from '../lib/session.tsx';
import { completeSchema, localDb } from '../offline/db.ts';
import { engine } from '../offline/engine.ts';

// Every table is declared now: the database's schema is complete.
completeSchema(localDb);

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

export const sessionStore: Promise<SessionStore> = restored.then(() => ({ identity: engine.identity }));
