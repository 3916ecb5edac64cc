// Every feature's tables, sources and mutations, registered before anything opens IndexedDB: a table declared
// later would be missing from the database's schema. The page (offline-setup.ts) and the service worker
// (outbox-worker.ts) both import this, so they open the same database and know the same mutations.
import '../features/bookings/bookings.sync.ts';
import '../features/bookings/free-times.sync.ts';
import '../features/catalogue/catalogue.sync.ts';
import '../features/notices/notices.sync.ts';
import '../features/profile/profile.sync.ts';
import '../features/public/testimonials.sync.ts';
import '../features/qa/qa.sync.ts';
import { completeSchema, localDb } from '../offline/db.ts';

// Every table is declared now: the database's schema is complete.
completeSchema(localDb);
