import { describe, expect, test } from 'vitest';
import { availabilityMessages, noAvailability } from '../../../common/availability.ts';
import { checkDraft, copyMondayToWeekdays, draftOf, newRange, rangeId, withDayOff } from './availability-draft.ts';

const week = () => draftOf(noAvailability);

describe('the working-hours draft', () => {
  test('a good draft is the availability the server takes, ranges in order', () => {
    const draft = week();
    draft.weekly[0] = [newRange('14:00', '17:00'), newRange(' 09:00', '12:00 ')];
    draft.daysOff = ['2026-12-24'];
    draft.buffer = '15';
    expect(checkDraft(draft)).toEqual({
      data: {
        weekly: [
          [
            { start: '09:00', end: '12:00' },
            { start: '14:00', end: '17:00' },
          ],
          [],
          [],
          [],
          [],
          [],
          [],
        ],
        daysOff: ['2026-12-24'],
        bufferMinutes: 15,
      },
    });
  });

  test("each problem is placed where the form shows it: a range's under the range, an overlap under the day", () => {
    const draft = week();
    draft.weekly[1] = [newRange('09:00', '12:00'), newRange('13:00', '11:00')];
    draft.weekly[2] = [newRange('09:00', '12:00'), newRange('11:00', '14:00')];
    draft.buffer = '';
    const checked = checkDraft(draft);
    expect('errors' in checked && checked.errors).toEqual({
      days: { 2: availabilityMessages.rangesOverlap },
      ranges: { [rangeId(1, 1)]: availabilityMessages.rangeOrder },
      buffer: availabilityMessages.bufferInvalid,
    });
  });

  test('a half-typed time and a buffer over the limit are named', () => {
    const draft = week();
    draft.weekly[6] = [newRange('9', '')];
    draft.buffer = '121';
    const checked = checkDraft(draft);
    expect('errors' in checked && checked.errors).toMatchObject({
      ranges: { [rangeId(6, 0)]: availabilityMessages.rangeInvalid },
      buffer: availabilityMessages.bufferInvalid,
    });
  });

  test("Monday's ranges are copied to Tuesday to Friday, not to the weekend", () => {
    const draft = week();
    draft.weekly[0] = [newRange('08:00', '12:00')];
    draft.weekly[5] = [newRange('10:00', '11:00')];
    const copied = copyMondayToWeekdays(draft);
    expect(copied.weekly.map((day) => day.map(({ start, end }) => `${start}-${end}`))).toEqual([
      ['08:00-12:00'],
      ['08:00-12:00'],
      ['08:00-12:00'],
      ['08:00-12:00'],
      ['08:00-12:00'],
      ['10:00-11:00'],
      [],
    ]);
    // Rows of their own: React keys differ, so editing Tuesday leaves Monday alone.
    expect(copied.weekly[1]![0]!.key).not.toBe(copied.weekly[0]![0]!.key);
  });

  test('a date off added is kept in order, once', () => {
    expect(withDayOff(['2026-12-31', '2026-12-24'], '2026-12-25')).toEqual(['2026-12-24', '2026-12-25', '2026-12-31']);
    expect(withDayOff(['2026-12-24'], '2026-12-24')).toEqual(['2026-12-24']);
  });
});
