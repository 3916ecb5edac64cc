import { describe, expect, it } from 'vitest';
import { normalizeTime } from './time-input.tsx';

describe('a time typed on the 24-hour clock', () => {
  it('is written as HH:MM however it was typed', () => {
    expect(normalizeTime('9')).toBe('09:00');
    expect(normalizeTime('14')).toBe('14:00');
    expect(normalizeTime('930')).toBe('09:30');
    expect(normalizeTime('1430')).toBe('14:30');
    expect(normalizeTime('9:30')).toBe('09:30');
    expect(normalizeTime(' 9.30 ')).toBe('09:30');
    expect(normalizeTime('17h45')).toBe('17:45');
    expect(normalizeTime('00:00')).toBe('00:00');
  });

  it('what is not a time stays as typed, for the form to name it', () => {
    for (const typed of ['24:00', '9:75', '9am', '12345', '', 'noon']) expect(normalizeTime(typed)).toBe(typed);
  });
});
