import { createHash } from 'node:crypto';
import { isRecordId } from '../record-ids.ts';

/**
 * The document id of a key made of text, where Firestore has no unique index: a module's name, a user and a
 * module, a payment reference. Its parts URI-encoded (no `/`, and `:` between them is no part's own) and
 * joined by `:`, as every such key has been stored. Text from outside can make that no document id (a booking
 * for the subject `__proto__` or `..`, a 200-character name in Chinese is 1,800 bytes encoded): then the
 * SHA-256 of it, after `#`, which encodeURIComponent never leaves in a part, so it is no other key's id.
 * Lone surrogates (which JavaScript text may hold and encodeURIComponent refuses) are U+FFFD, as the SQL
 * drivers store them.
 */
export function keyId(...parts: string[]): string {
  const encoded = parts.map((part) => encodeURIComponent(part.toWellFormed())).join(':');
  return isRecordId(encoded) ? encoded : `#${createHash('sha256').update(encoded).digest('hex')}`;
}

/**
 * Whether Firestore can filter on `value` with `==`: it indexes at most 1,500 bytes of a value
 * (https://firebase.google.com/docs/firestore/quotas#indexes) and refuses a filter on a longer one (an error).
 */
export const isIndexable = (value: string) => Buffer.byteLength(value) <= 1500;
