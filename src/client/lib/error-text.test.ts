import { describe, expect, test } from 'vitest';
import { authMessages } from '../../common/auth.messages.ts';
import { LocalWriteError } from './local-write-error.ts';
import { ApiError, NetworkError, TimeoutError } from './api.ts';
import { errorText } from './error-text.ts';

const offline = 'You appear to be offline. Check your connection and try again.';
const tooSlow = 'The server took too long to answer. Please try again.';

describe('errorText', () => {
  test('no connection says so, in the words the caller chooses if it chooses', () => {
    expect(errorText(new NetworkError())).toBe(offline);
    expect(errorText(new NetworkError(), 'Failed.', { offline: 'Connect to change the catalogue.' })).toBe(
      'Connect to change the catalogue.',
    );
  });

  test('a server that took too long is not called offline', () => {
    expect(errorText(new TimeoutError())).toBe(tooSlow);
    expect(errorText(new TimeoutError(), 'Failed.', { offline: 'Connect to change the catalogue.' })).toBe(tooSlow);
  });

  test('a refusal says the server’s message, unless the caller names its code', () => {
    const notFound = new ApiError(404, 'qa.not_found', 'This question no longer exists.');
    expect(errorText(notFound, 'Failed.')).toBe('This question no longer exists.');
    expect(errorText(notFound, 'Failed.', { codes: { 'qa.not_found': 'It was deleted meanwhile.' } })).toBe(
      'It was deleted meanwhile.',
    );
    expect(errorText(notFound, 'Failed.', { codes: { 'qa.other': 'Not this one.' } })).toBe(
      'This question no longer exists.',
    );
  });

  test('a write the device refused to store says why in its own words, not the fallback', () => {
    const full = new LocalWriteError(
      'Your device has no room to save this. Free some space (or delete old files) and try again.',
      new Error('QuotaExceededError'),
    );
    expect(errorText(full, 'Failed to vote.')).toBe(full.message);
  });

  test('a server fault, a foreign answer or an unexpected error says the fallback', () => {
    expect(errorText(new ApiError(500, 'internal', 'Something went wrong on our side.'), 'Failed to post.')).toBe(
      'Failed to post.',
    );
    expect(
      errorText(new ApiError(400, 'unknown', 'Something went wrong. Please try again later.'), 'Failed to post.'),
    ).toBe('Failed to post.');
    expect(errorText(new TypeError('x is undefined'), 'Failed to post.')).toBe('Failed to post.');
    expect(errorText('thrown string')).toBe(authMessages.somethingWentWrong);
  });
});
