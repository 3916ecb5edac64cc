import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

/**
 * A firebase-admin Firestore client on the emulator at `host`, for a project of its own (a fresh id per test
 * keeps data apart with no clean-up: FIREBASE.md), on its `(default)` database or a named one. `close` ends
 * the app and its connections.
 */
export function emulatorFirestore(
  host: string,
  projectId: string,
  databaseId = '(default)',
): { db: Firestore; close(): Promise<void> } {
  const app = initializeApp({ projectId }, `${projectId}-${crypto.randomUUID()}`);
  const db = getFirestore(app, databaseId);
  // No credentials on the emulator; naming the universe keeps the client from probing for Google's metadata
  // server first (firestore-source.ts does the same).
  db.settings({ host, ssl: false, universeDomain: 'googleapis.com' });
  return { db, close: () => deleteApp(app) };
}
