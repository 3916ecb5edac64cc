/**
 * The app's database name, and the localStorage key of the mark its storage watch keeps while the database
 * holds a session record (storage.ts): known here without loading Dexie, so that the app can tell at once
 * whether this device may hold anyone's data (lib/engine-wanted.ts).
 */
export const appDatabase = 'tutorbook';

export const storedUserKey = (database: string) => `${database}:stored-user`;
