import { beforeEach, describe, expect, test } from 'vitest';
import { rememberReturnTo, takeReturnTo } from './return-to.ts';

// Node 24 has no sessionStorage without a flag; this is the part of the Storage API the module uses.
beforeEach(() => {
  const items = new Map<string, string>();
  globalThis.sessionStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  } as Storage;
});

describe('going back to the page asked for after logging in', () => {
  test('the page a signed-out visitor asked for is where they land, once', () => {
    rememberReturnTo('/qa?topic=calculus#answers');
    expect(takeReturnTo()).toBe('/qa?topic=calculus#answers');
    expect(takeReturnTo()).toBeUndefined();
  });

  test('nothing remembered means no page to go back to', () => {
    expect(takeReturnTo()).toBeUndefined();
  });

  test('a remembered address off this site is never followed', () => {
    for (const elsewhere of [
      '//evil.example/login',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      sessionStorage.setItem('tutorbook:return-to', elsewhere);
      expect(takeReturnTo(), elsewhere).toBeUndefined();
    }
  });
});
