/**
 * What the app knows about this device's data without loading Dexie (lib/engine-wanted.ts, lib/session.tsx):
 * the database's name, the localStorage key of the mark the storage watch keeps while the database holds a
 * session record (storage.ts), the key of a log-out still to be sent to the server, and the tab's log-in flag
 * (identity.ts writes and reads them).
 */
export const appDatabase = 'tutorbook';

export const storedUserKey = (database: string) => `${database}:stored-user`;

/** A log-out made offline: the server session is ended when the connection returns (lib/session.tsx). */
export const pendingSignOutKey = 'tutorbook:sign-out-pending';

/**
 * Set (sessionStorage) before logging in, until the server names the user: finding nothing stored for them is
 * then expected, not a sign that the browser cleared the device's data. Per tab, and it survives the trip to
 * Google and back.
 */
export const loggingInKey = 'tutorbook:logging-in';
