import { describe, expect, test } from 'vitest';
import {
  formatSastDate,
  formatSastDateTime,
  formatSastSession,
  formatSastSlot,
  isCalendarDate,
  isTimeOfDay,
  sastDate,
  sastInstant,
  sastZone,
} from './sast.ts';

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

  test('a session reads as its day, start and end in SAST, on one line', () => {
    expect(formatSastSession('2026-12-08', '14:00', 1)).toBe('Tue, 08 Dec 2026, 14:00–15:00 SAST');
    expect(formatSastSession('2026-12-08', '09:30', 2)).toBe('Tue, 08 Dec 2026, 09:30–11:30 SAST');
    expect(formatSastSession('2026-12-31', '23:00', 2)).toBe('Thu, 31 Dec 2026, 23:00–01:00 SAST');
  });

  test("the texts are Intl's en-ZA ones in Johannesburg's zone, for every hour of years apart", () => {
    const dateTime = new Intl.DateTimeFormat('en-ZA', {
      timeZone: sastZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    const date = new Intl.DateTimeFormat('en-ZA', {
      timeZone: sastZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    const isoDate = new Intl.DateTimeFormat('en-CA', {
      timeZone: sastZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const hour = 60 * 60 * 1000;
    for (const year of [1999, 2026, 2028, 2040]) {
      const from = Date.UTC(year, 0, 1) - 3 * hour;
      for (let time = from; time < Date.UTC(year + 1, 0, 1); time += 7 * hour + 60 * 1000) {
        const instant = new Date(time);
        const iso = instant.toISOString();
        expect(formatSastDateTime(iso), iso).toBe(`${dateTime.format(instant)} SAST`);
        const day = sastDate(instant);
        expect(day, iso).toBe(isoDate.format(instant));
        expect(formatSastDate(day), iso).toBe(date.format(instant));
      }
    }
  });
});
