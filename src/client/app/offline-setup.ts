// Every feature's tables, sources and mutations, registered before anything opens IndexedDB: a table declared
// later would be missing from the database's schema. Whatever reads the database is loaded through here
// (the session, DataSync, the pages that read it: router.tsx), after the first paint.
import '../features/bookings/bookings.sync.ts';
import '../features/catalogue/catalogue.sync.ts';
import '../features/profile/profile.sync.ts';
import '../features/qa/qa.sync.ts';
import type { SessionStore } from '../lib/session.tsx';
import { localDb } from '../offline/db.ts';
import { clearUserData, noticeSignedIn, setEngineUser } from '../offline/engine.ts';

export const sessionStore: SessionStore = { localDb, clearUserData, noticeSignedIn, setEngineUser };
