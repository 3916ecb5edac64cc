import { describe, expect, test } from 'vitest';
import { addressGroup, forwardedClient } from './client-address.ts';

// Issue 33: who a visitor is to the limits, and which X-Forwarded-For entry names them (docs/limits.md).

describe('the client entry of X-Forwarded-For', () => {
  test('is the entry as many places from the right as there are proxies: nothing a client adds on the left counts', () => {
    // Cloud Run alone appends the address it received the request from.
    expect(forwardedClient('198.51.100.7', 1)).toBe('198.51.100.7');
    expect(forwardedClient('203.0.113.1, 10.0.0.1, 198.51.100.7', 1)).toBe('198.51.100.7');
    // Firebase Hosting, then Cloud Run: the last is Hosting's, the one before it the client's.
    expect(forwardedClient('198.51.100.7, 35.191.0.1', 2)).toBe('198.51.100.7');
    expect(forwardedClient('203.0.113.1,203.0.113.2 , 198.51.100.7,35.191.0.1', 2)).toBe('198.51.100.7');
    expect(forwardedClient('2001:db8::7, 35.191.0.1', 2)).toBe('2001:db8::7');
  });

  test('a shorter header gives its first entry, which a proxy wrote; no header or not an address gives none', () => {
    expect(forwardedClient('198.51.100.7', 2)).toBe('198.51.100.7');
    expect(forwardedClient(undefined, 1)).toBeUndefined();
    expect(forwardedClient('', 1)).toBeUndefined();
    expect(forwardedClient('198.51.100.7, unknown', 1)).toBeUndefined();
    expect(forwardedClient('198.51.100.7,', 1)).toBeUndefined();
  });
});

describe('the address group a visitor is counted by', () => {
  test('IPv4 as it is, and an IPv4 address mapped into IPv6 as that IPv4 address', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('127.0.0.2')).toBe('127.0.0.2');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(addressGroup('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  test('every address of one IPv6 /64 is one visitor, whatever its spelling; another /64 is another', () => {
    const group = addressGroup('2001:db8:1:2::1');
    expect(group).toBe('2001:db8:1:2::/64');
    for (const address of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:abcd',
      '2001:db8:1:2:a::b',
      '2001:db8:1:2::192.0.2.1',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(addressGroup(address), address).toBe(group);
    }
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::')).toBe('0:0:0:0::/64');
  });

  test('what is not an address stays as it is', () => {
    expect(addressGroup('unknown')).toBe('unknown');
  });
});
