import { expect, test } from 'vitest';
import { datesAround } from './bookings.clash.ts';

test('the dates whose sessions may clash are the day and the days either side, across months and years', () => {
  expect(datesAround('2026-12-03')).toEqual(['2026-12-02', '2026-12-03', '2026-12-04']);
  expect(datesAround('2027-01-01')).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
  expect(datesAround('2028-03-01')).toEqual(['2028-02-29', '2028-03-01', '2028-03-02']);
});
