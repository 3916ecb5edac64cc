/**
 * Whether `id` can be a record's id, on any engine. A record's id is a UUID drawn by a client or the server, or
 * a document id of the old Firebase site (the import, docs/decisions/0023), and the Firestore engine names each
 * record's document by it, so every id meets Firestore's rules for a document id
 * (https://firebase.google.com/docs/firestore/quotas#collections_documents_and_fields): well-formed text of 1 to
 * 1,500 bytes in UTF-8, no `/`, not `.` or `..`, not `__…__`.
 *
 * An id from outside that breaks them (`/api/bookings/a%2Fb`, `__proto__`, a forged cursor) names no record: the
 * SQL engines would look and find none, Firestore refuses to look (an error, a 500). Checked before a look, it is
 * "not found" on every engine alike, and a cursor holding one was not made by this server (400).
 */
export function isRecordId(id: string): boolean {
  return (
    id !== '' &&
    id !== '.' &&
    id !== '..' &&
    !id.includes('/') &&
    !/^__.*__$/s.test(id) &&
    id.isWellFormed() &&
    Buffer.byteLength(id) <= 1500
  );
}
