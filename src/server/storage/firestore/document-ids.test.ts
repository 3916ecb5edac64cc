import { describe, expect, test } from 'vitest';
import { isRecordId } from '../record-ids.ts';
import { isIndexable, keyId } from './document-ids.ts';

describe('which ids name a record', () => {
  test("UUIDs and the old site's Firestore ids do; a path, a dot, a reserved name or too long an id does not", () => {
    for (const id of [crypto.randomUUID(), 'X3hY0kLmQ9zP2aBcD4eF', 'a.b', '_proto_', '__x', 'é'.repeat(750)])
      expect(isRecordId(id), id).toBe(true);
    for (const id of ['', '.', '..', 'a/b', '/', '__proto__', '__name__', '____', 'é'.repeat(751), '\uD800'])
      expect(isRecordId(id), id).toBe(false);
  });

  test('Firestore filters on a value of up to 1,500 bytes', () => {
    expect(isIndexable('x'.repeat(1500))).toBe(true);
    expect(isIndexable('x'.repeat(1501))).toBe(false);
    expect(isIndexable('😀'.repeat(376))).toBe(false);
  });
});

describe('the document id of a key made of text', () => {
  test('is its parts URI-encoded and joined by ":", as every key stored so far was', () => {
    expect(keyId('introduction to statistics')).toBe('introduction%20to%20statistics');
    expect(keyId('user-1', 'module/2')).toBe('user-1:module%2F2');
    expect(keyId('TB-7QX2')).toBe('TB-7QX2');
  });

  test('is a hash, distinct for each key, where that would name no document', () => {
    const keys = ['..', '.', '__proto__', '__name__', '中'.repeat(200), ''];
    const ids = keys.map((key) => keyId(key));
    for (const id of ids) {
      expect(id).toMatch(/^#[0-9a-f]{64}$/);
      expect(isRecordId(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(keys.length);
    // No encoded key starts with "#" (encodeURIComponent escapes it), so a hash is no other key's id.
    expect(keyId('#abc')).toBe('%23abc');
  });

  test('reads a lone surrogate as U+FFFD, as the SQL drivers store it, instead of failing', () => {
    expect(keyId('p-values \uD800')).toBe(keyId('p-values \uFFFD'));
  });
});
