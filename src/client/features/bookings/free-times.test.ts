import { describe, expect, test } from 'vitest';
import { noAvailability, type Availability } from '../../../common/availability.ts';
import { anyHoursSet, categoryFreeDates, sessionHours, toggleSlot } from './free-times.ts';
import type { CategoryTimesRow } from './free-times.sync.ts';

const weekdays: Availability = {
  ...noAvailability,
  weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => (day < 5 ? [{ start: '09:00', end: '12:00' }] : [])),
};

// Tuesday 01 Dec 2026, 08:00 SAST.
const now = new Date('2026-12-01T06:00:00Z');

function row(overrides: Partial<CategoryTimesRow> = {}): CategoryTimesRow {
  return {
    category: 'Statistics',
    tutors: [
      { tutorId: 'a', name: 'Musa', availability: weekdays },
      { tutorId: 'b', name: 'Lindiwe', availability: noAvailability },
    ],
    busy: [],
    from: '2026-11-30',
    to: '2026-12-29',
    ...overrides,
  };
}

describe('the booking page’s free times', () => {
  test('from today for four weeks, each date with the starts a tutor is free at, after the lead time', () => {
    const dates = categoryFreeDates(row(), { hours: 1, now, leadHours: 48 });
    expect(dates[0]).toEqual({ date: '2026-12-01', starts: [] });
    expect(dates.at(-1)!.date).toBe('2026-12-28');
    // 48 hours from Tuesday 08:00: Thursday from 08:00, so 09:00 on; Friday whole.
    expect(dates.find((d) => d.date === '2026-12-03')!.starts).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(dates.find((d) => d.date === '2026-12-05')!.starts).toEqual([]);
  });

  test('a confirmed session of the tutor takes its time; a two-hour session fits fewer starts', () => {
    const busy = [{ tutorId: 'a', date: '2026-12-04', start: '10:00', hours: 1 }];
    const friday = (hours: number) =>
      categoryFreeDates(row({ busy }), { hours, now, leadHours: 48 }).find((d) => d.date === '2026-12-04')!.starts;
    expect(friday(1)).toEqual(['09:00', '11:00']);
    expect(friday(2)).toEqual([]);
    // Another tutor's session is not this one's.
    const others = [{ tutorId: 'b', date: '2026-12-04', start: '10:00', hours: 1 }];
    expect(
      categoryFreeDates(row({ busy: others }), { hours: 1, now, leadHours: 48 }).find((d) => d.date === '2026-12-04')!
        .starts,
    ).toHaveLength(5);
  });

  test('no date past what the busy times cover', () => {
    const dates = categoryFreeDates(row({ to: '2026-12-10' }), { hours: 1, now, leadHours: 48 });
    expect(dates.at(-1)!.date).toBe('2026-12-09');
  });

  test('whether any tutor has set hours', () => {
    expect(anyHoursSet(row())).toBe(true);
    expect(anyHoursSet(row({ tutors: [{ tutorId: 'b', name: 'Lindiwe', availability: noAvailability }] }))).toBe(false);
  });

  test('the hours typed, or the default while they are not a session’s length', () => {
    expect([sessionHours('2'), sessionHours(''), sessionHours('9'), sessionHours('1.5')]).toEqual([2, 1, 1, 1]);
  });

  test('a time pressed goes into the first empty slot; pressed again, it comes out; a fourth changes nothing', () => {
    expect(toggleSlot(['', '', ''], '09:00')).toEqual(['09:00', '', '']);
    expect(toggleSlot(['09:00', '', '11:00'], '10:00')).toEqual(['09:00', '10:00', '11:00']);
    expect(toggleSlot(['09:00', '10:00', '11:00'], '10:00')).toEqual(['09:00', '', '11:00']);
    expect(toggleSlot(['09:00', '10:00', '11:00'], '12:00')).toEqual(['09:00', '10:00', '11:00']);
  });
});
