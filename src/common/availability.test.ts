import { describe, expect, test } from 'vitest';
import {
  clashMessage,
  clashWith,
  freeStarts,
  freeTimes,
  isWithinAvailability,
  noAvailability,
  weekdayNames,
  type Availability,
  type BusySession,
  type TimeRange,
} from './availability.ts';
import { leadTimeProblem } from './bookings.ts';
import { sastInstant } from './sast.ts';

// 2026-11-23 is a Monday; the Sunday before it and the Tuesday after it are used around it.
const monday = '2026-11-23';
const sunday = '2026-11-22';
const tuesday = '2026-11-24';
const longBefore = new Date('2026-11-01T00:00:00Z');

/** Working hours on Mondays only (weekday index 0), or on the weekday given. */
const hoursOn = (ranges: TimeRange[], rest: Partial<Availability> = {}, weekday = 0): Availability => ({
  weekly: weekdayNames.map((_, i) => (i === weekday ? ranges : [])),
  daysOff: [],
  bufferMinutes: 0,
  ...rest,
});

const range = (start: string, end: string): TimeRange => ({ start, end });
const session = (date: string, start: string, hours = 1): BusySession => ({ date, start, hours });

/** Free starts on a date, with nothing busy and no lead time in the way unless given. */
const starts = (availability: Availability, input: { date?: string; hours?: number; busy?: BusySession[] } = {}) =>
  freeStarts({ availability, busy: [], date: monday, hours: 1, now: longBefore, leadHours: 24, ...input });

/** Every half hour from `first` to `last`, both included. */
function grid(first: string, last: string): string[] {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  const times: string[] = [];
  for (let m = minutes(first); m <= minutes(last); m += 30)
    times.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  return times;
}

describe('free starts of a tutor', () => {
  test('starts fall on the half hour, and the whole session fits inside the range', () => {
    expect(starts(hoursOn([range('09:00', '12:00')]))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(starts(hoursOn([range('09:15', '11:45')]))).toEqual(['09:30', '10:00', '10:30']);
    expect(starts(hoursOn([range('09:00', '12:00')]), { hours: 2 })).toEqual(['09:00', '09:30', '10:00']);
  });

  test('an 8-hour session needs 8 working hours in one stretch', () => {
    expect(starts(hoursOn([range('08:00', '16:00')]), { hours: 8 })).toEqual(['08:00']);
    expect(starts(hoursOn([range('08:00', '17:00')]), { hours: 8 })).toEqual(['08:00', '08:30', '09:00']);
    expect(starts(hoursOn([range('08:00', '15:30')]), { hours: 8 })).toEqual([]);
    expect(starts(hoursOn([range('06:00', '12:00'), range('13:00', '19:00')]), { hours: 8 })).toEqual([]);
  });

  test('a range ending at 24:00 takes a session ending at midnight, and none runs past it', () => {
    expect(starts(hoursOn([range('20:00', '24:00')]), { hours: 2 })).toEqual([
      '20:00',
      '20:30',
      '21:00',
      '21:30',
      '22:00',
    ]);
    expect(starts(hoursOn([range('23:00', '24:00')]))).toEqual(['23:00']);
  });

  test('ranges that touch are one stretch; a gap between ranges splits a session', () => {
    expect(starts(hoursOn([range('09:00', '10:00'), range('10:00', '11:00')]), { hours: 2 })).toEqual(['09:00']);
    expect(starts(hoursOn([range('09:00', '10:00'), range('10:30', '11:30')]), { hours: 2 })).toEqual([]);
  });

  test('the starts come in order whatever the order of the ranges', () => {
    expect(starts(hoursOn([range('14:00', '15:00'), range('08:00', '09:00')]))).toEqual(['08:00', '14:00']);
  });

  test("only the date's own weekday counts, Monday first", () => {
    const sundays = hoursOn([range('09:00', '10:00')], {}, 6);
    expect(starts(sundays, { date: sunday })).toEqual(['09:00']);
    expect(starts(sundays, { date: monday })).toEqual([]);
    expect(starts(hoursOn([range('09:00', '10:00')], {}, 1), { date: tuesday })).toEqual(['09:00']);
  });

  test('a day off has no starts; the same weekday a week on still has', () => {
    const off = hoursOn([range('09:00', '12:00')], { daysOff: ['2026-11-16', monday] });
    expect(starts(off)).toEqual([]);
    expect(starts(off, { date: '2026-11-30' })).toEqual(grid('09:00', '11:00'));
  });

  test('a tutor who has set no hours offers no starts', () => {
    expect(starts(noAvailability)).toEqual([]);
    expect(starts(noAvailability, { date: sunday })).toEqual([]);
  });

  test('a busy session blocks the times it covers; one that ends as another starts is free', () => {
    const busy = [session(monday, '11:00')];
    expect(starts(hoursOn([range('09:00', '14:00')]), { busy })).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '12:00',
      '12:30',
      '13:00',
    ]);
  });

  test('the buffer is kept free before and after each busy session', () => {
    const withBuffer = hoursOn([range('08:00', '16:00')], { bufferMinutes: 30 });
    const busy = [session(monday, '11:00')];
    expect(starts(withBuffer, { busy })).toEqual([...grid('08:00', '09:30'), ...grid('12:30', '15:00')]);
    const quarter = hoursOn([range('08:00', '16:00')], { bufferMinutes: 15 });
    // 10:00–11:00 leaves 0 minutes before, 12:00 leaves 0 after: both within 15 minutes; 12:30 leaves 30.
    expect(starts(quarter, { busy })).toEqual([...grid('08:00', '09:30'), ...grid('12:30', '15:00')]);
  });

  test('a session from the evening before, running past midnight, blocks the morning with its buffer', () => {
    const nights = hoursOn([range('00:00', '04:00')], { bufferMinutes: 30 });
    expect(starts(nights, { busy: [session(sunday, '23:00', 2)] })).toEqual(grid('01:30', '03:00'));
    expect(starts(nights, { busy: [session(sunday, '22:00')] })).toEqual(grid('00:00', '03:00'));
    expect(starts(nights, { busy: [session(sunday, '23:00')] })).toEqual(grid('00:30', '03:00'));
  });

  test("the buffer before the next morning's session reaches back into the evening", () => {
    const evenings = hoursOn([range('20:00', '24:00')], { bufferMinutes: 60 });
    expect(starts(evenings)).toEqual(grid('20:00', '23:00'));
    expect(starts(evenings, { busy: [session(tuesday, '00:00')] })).toEqual(grid('20:00', '22:00'));
  });

  test('busy sessions on other days leave the date alone', () => {
    const busy = [session(sunday, '09:00', 8), session(tuesday, '09:00', 8)];
    expect(starts(hoursOn([range('09:00', '12:00')], { bufferMinutes: 120 }), { busy })).toEqual(
      grid('09:00', '11:00'),
    );
  });

  test('the lead time cuts the day: starts from the first half hour at or after now + lead', () => {
    const day = hoursOn([range('08:00', '16:00')]);
    const at = (sast: string, leadHours: number) =>
      freeStarts({ availability: day, busy: [], date: monday, hours: 1, now: sastInstant(monday, sast), leadHours });
    expect(at('10:10', 2)).toEqual(grid('12:30', '15:00'));
    expect(at('10:00', 2)).toEqual(grid('12:00', '15:00'));
    expect(at('05:00', 2)).toEqual(grid('08:00', '15:00'));
    expect(at('14:01', 1)).toEqual([]);
    const justAfter = new Date(sastInstant(monday, '10:00').getTime() + 1000);
    expect(freeStarts({ availability: day, busy: [], date: monday, hours: 1, now: justAfter, leadHours: 2 })).toEqual(
      grid('12:30', '15:00'),
    );
  });

  test('a lead time of a day reaches into the next date', () => {
    const now = sastInstant(sunday, '11:00');
    const availability = hoursOn([range('08:00', '16:00')]);
    expect(freeStarts({ availability, busy: [], date: monday, hours: 1, now, leadHours: 24 })).toEqual(
      grid('11:00', '15:00'),
    );
  });

  test("every start offered passes the booking form's lead-time check, and the half hour before it does not", () => {
    const now = new Date('2026-11-23T08:17:42Z');
    const leadHours = 3;
    const offered = freeStarts({
      availability: hoursOn([range('06:00', '18:00')]),
      busy: [],
      date: monday,
      hours: 1,
      now,
      leadHours,
    });
    expect(offered[0]).toBe('13:30');
    for (const start of offered) expect(leadTimeProblem(monday, [start], { now, leadHours }), start).toBeUndefined();
    expect(leadTimeProblem(monday, ['13:00'], { now, leadHours })).toBeDefined();
  });
});

describe('free times of a category', () => {
  const rules = { hours: 1, now: longBefore, leadHours: 24 };

  test('each date offers the union of its tutors’ starts, in order and each once', () => {
    const ana = { availability: hoursOn([range('09:00', '11:00')]), busy: [] };
    const ben = { availability: hoursOn([range('10:00', '12:00')]), busy: [] };
    const [day] = freeTimes({ tutors: [ana, ben], from: monday, days: 1, ...rules });
    expect(day).toEqual({ date: monday, starts: grid('09:00', '11:00') });
    const [laterFirst] = freeTimes({ tutors: [ben, ana], from: monday, days: 1, ...rules });
    expect(laterFirst).toEqual({ date: monday, starts: grid('09:00', '11:00') });
  });

  test("one tutor's busy session leaves the other tutor's times offered", () => {
    const ana = { availability: hoursOn([range('09:00', '11:00')]), busy: [session(monday, '09:00', 2)] };
    const ben = { availability: hoursOn([range('10:00', '12:00')]), busy: [session(monday, '11:00')] };
    const [day] = freeTimes({ tutors: [ana, ben], from: monday, days: 1, ...rules });
    expect(day!.starts).toEqual(['10:00']);
  });

  test('every date of the window is in the answer, one with no free start with none', () => {
    const ana = { availability: hoursOn([range('09:00', '10:00')]), busy: [] };
    expect(freeTimes({ tutors: [ana], from: sunday, days: 3, ...rules })).toEqual([
      { date: sunday, starts: [] },
      { date: monday, starts: ['09:00'] },
      { date: tuesday, starts: [] },
    ]);
    expect(freeTimes({ tutors: [], from: monday, days: 2, ...rules })).toEqual([
      { date: monday, starts: [] },
      { date: tuesday, starts: [] },
    ]);
  });

  test('the dates run on across the end of a month and a year', () => {
    const dates = freeTimes({ tutors: [], from: '2026-12-30', days: 4, ...rules }).map((day) => day.date);
    expect(dates).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
  });

  test("each date's starts are the tutor's free starts for it, across four weeks", () => {
    const availability: Availability = {
      weekly: [[range('08:00', '12:00'), range('14:00', '24:00')], [], [range('00:00', '06:00')], [], [], [], []],
      daysOff: ['2026-12-02'],
      bufferMinutes: 45,
    };
    const busy = [
      session(monday, '23:00', 3),
      session(tuesday, '23:00', 2),
      session('2026-11-30', '09:30', 2),
      session('2026-12-07', '20:00'),
    ];
    const tutor = { availability, busy };
    const now = sastInstant(sunday, '21:10');
    const window = freeTimes({ tutors: [tutor], from: sunday, days: 28, hours: 2, now, leadHours: 12 });
    expect(window).toHaveLength(28);
    for (const { date, starts: offered } of window)
      expect(offered, date).toEqual(freeStarts({ ...tutor, date, hours: 2, now, leadHours: 12 }));
    const on = (date: string) => window.find((day) => day.date === date)!.starts;
    expect(on(monday)).toEqual([...grid('09:30', '10:00'), ...grid('14:00', '20:00')]);
    expect(on('2026-11-25')).toEqual(grid('02:00', '04:00'));
    expect(on('2026-11-30')).toEqual(grid('14:00', '22:00'));
    expect(on('2026-12-02')).toEqual([]);
    expect(on('2026-12-09')).toEqual(grid('00:00', '04:00'));
  });
});

describe('clashes', () => {
  const candidate = session(monday, '14:00');

  test('a session ending as another starts is no clash without a buffer; with one it is', () => {
    expect(clashWith(candidate, [session(monday, '13:00'), session(monday, '15:00')], 0)).toBeUndefined();
    expect(clashWith(candidate, [session(monday, '15:00')], 15)).toEqual(session(monday, '15:00'));
    expect(clashWith(candidate, [session(monday, '13:00')], 15)).toEqual(session(monday, '13:00'));
    expect(clashWith(candidate, [session(monday, '12:00')], 60)).toBeUndefined();
    expect(clashWith(candidate, [session(monday, '12:00')], 61)).toEqual(session(monday, '12:00'));
  });

  test('the earliest of the sessions it overlaps is the clash, whatever their order', () => {
    const long = session(monday, '14:00', 3);
    const busy = [session(monday, '16:00'), session(monday, '13:30'), session(monday, '15:00')];
    expect(clashWith(long, busy, 0)).toEqual(session(monday, '13:30'));
    expect(clashWith(long, [...busy].reverse(), 0)).toEqual(session(monday, '13:30'));
  });

  test('a clash across midnight is found from either side', () => {
    expect(clashWith(session(tuesday, '00:30'), [session(monday, '23:00', 2)], 0)).toEqual(session(monday, '23:00', 2));
    expect(clashWith(session(monday, '23:00', 2), [session(tuesday, '00:30')], 0)).toEqual(session(tuesday, '00:30'));
    expect(clashWith(session(tuesday, '00:00'), [session(monday, '23:00')], 0)).toBeUndefined();
    expect(clashWith(session(tuesday, '00:00'), [session(monday, '22:00')], 90)).toEqual(session(monday, '22:00'));
  });

  test('the tutor reads which session it overlaps, with its date when it is another day', () => {
    expect(clashMessage(candidate, session(monday, '13:30'))).toBe('14:00 overlaps your 13:30 session');
    expect(clashMessage(session(tuesday, '00:30'), session(monday, '23:00', 2))).toBe(
      '00:30 overlaps your 23:00 session on Mon, 23 Nov 2026',
    );
  });

  test('a clash made by the buffer alone says the time is too close', () => {
    expect(clashMessage(candidate, session(monday, '15:00'))).toBe(
      '14:00 is too close to your 15:00 session, within the buffer kept between sessions',
    );
    expect(clashMessage(session(tuesday, '00:30'), session(monday, '23:00'))).toBe(
      '00:30 is too close to your 23:00 session on Mon, 23 Nov 2026, within the buffer kept between sessions',
    );
  });

  test('the admin reads whose session it is, and a refusal names the date it was for', () => {
    expect(clashMessage(candidate, session(monday, '13:30'), { whose: 'Musa Stats’s', onDate: true })).toBe(
      '14:00 on Mon, 23 Nov 2026 overlaps Musa Stats’s 13:30 session',
    );
  });
});

describe('a typed time against the working hours', () => {
  const split = hoursOn([range('08:00', '12:00'), range('12:00', '13:00'), range('14:00', '24:00')], {
    daysOff: ['2026-11-30'],
  });

  test('inside one stretch of the working hours, on the grid or not', () => {
    expect(isWithinAvailability(split, monday, '08:00', 4)).toBe(true);
    expect(isWithinAvailability(split, monday, '09:15', 1)).toBe(true);
    expect(isWithinAvailability(split, monday, '11:00', 2)).toBe(true);
    expect(isWithinAvailability(split, monday, '22:00', 2)).toBe(true);
  });

  test('outside: before, across a gap, past midnight, another weekday, a day off', () => {
    expect(isWithinAvailability(split, monday, '07:30', 1)).toBe(false);
    expect(isWithinAvailability(split, monday, '12:30', 2)).toBe(false);
    expect(isWithinAvailability(split, monday, '23:00', 2)).toBe(false);
    expect(isWithinAvailability(split, tuesday, '09:00', 1)).toBe(false);
    expect(isWithinAvailability(split, '2026-11-30', '09:00', 1)).toBe(false);
    expect(isWithinAvailability(noAvailability, monday, '09:00', 1)).toBe(false);
  });
});
