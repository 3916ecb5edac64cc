/**
 * IndexedDB refused a write (no room, connection lost): the message is for the form that tried. A module of its
 * own so that the error texts (lib/error-text.ts), on every form, do not bring the database with them.
 */
export class LocalWriteError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'LocalWriteError';
  }
}
