import { describe, expect, test } from 'vitest';
import { formatSastDate, formatSastSlot, isCalendarDate, isTimeOfDay, sastDate, sastInstant } from './sast.ts';

describe('SAST times', () => {
  test('a date and a time of day name one instant, two hours ahead of UTC', () => {
    expect(sastInstant('2026-11-24', '14:00').toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(sastInstant('2027-01-01', '00:30').toISOString()).toBe('2026-12-31T22:30:00.000Z');
  });

  test("today's date is the date in Johannesburg, not the machine's or UTC's", () => {
    expect(sastDate(new Date('2026-11-21T21:59:00Z'))).toBe('2026-11-21');
    expect(sastDate(new Date('2026-11-21T22:00:00Z'))).toBe('2026-11-22');
  });

  test('only dates that exist on the calendar pass', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const bad of ['2027-02-29', '2026-13-01', '2026-11-31', '26-11-21', '2026-11-21T10:00', '', 'tomorrow'])
      expect(isCalendarDate(bad), bad).toBe(false);
  });

  test('times are HH:MM on the 24-hour clock', () => {
    for (const good of ['00:00', '09:30', '23:59']) expect(isTimeOfDay(good), good).toBe(true);
    for (const bad of ['24:00', '9:30', '12:60', '12:00:00', '2pm', '']) expect(isTimeOfDay(bad), bad).toBe(false);
  });

  test('pages and e-mails say the day and SAST', () => {
    expect(formatSastDate('2026-11-24')).toBe('Tue, 24 Nov 2026');
    expect(formatSastSlot('2026-11-24', '14:00')).toBe('Tue, 24 Nov 2026, 14:00 SAST');
  });
});
