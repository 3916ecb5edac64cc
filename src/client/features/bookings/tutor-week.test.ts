import { describe, expect, test } from 'vitest';
import type { Booking } from '../../../common/bookings.ts';
import { sessionEnd, tutorWeek } from './tutor-week.ts';

const me = 'tutor-1';
let n = 0;
function booking(overrides: Partial<Booking>): Booking {
  n += 1;
  return {
    id: `b${n}`,
    student: { id: `s${n}`, name: 'Thandi Mokoena', email: 't@example.com' },
    moduleName: 'Introduction to Statistics',
    moduleCategory: 'Statistics',
    date: '2026-12-03',
    slots: ['09:00', '10:00', '11:00'],
    confirmedSlot: null,
    hours: 1,
    concepts: 'Hypothesis tests',
    status: 'Pending',
    priceCentsPerHour: 25000,
    totalCents: 25000,
    paymentReference: `TB-${n}`,
    lateCancellation: false,
    createdAt: '2026-11-30T10:00:00.000Z',
    version: 1,
    history: [],
    ...overrides,
  } as Booking;
}

describe('a tutor’s week at a glance', () => {
  test('seven days from today, each with the tutor’s sessions and the requests waiting, by time', () => {
    const mine = booking({ status: 'Confirmed', confirmedSlot: '13:30', tutor: { id: me, name: 'Musa' } });
    const early = booking({ status: 'Confirmed', confirmedSlot: '08:00', tutor: { id: me, name: 'Musa' } });
    const unrecorded = booking({ status: 'Confirmed', confirmedSlot: '16:00', tutor: null });
    const another = booking({ status: 'Confirmed', confirmedSlot: '10:00', tutor: { id: 'tutor-2', name: 'Lindiwe' } });
    const waiting = booking({ slots: ['15:00', '12:00', '17:00'] });
    const asStudent = booking({ student: { id: me, name: 'Musa', email: 'm@example.com' } });
    const cancelled = booking({ status: 'Cancelled' });
    const later = booking({ date: '2026-12-09' });
    const earlier = booking({ date: '2026-12-01' });
    const week = tutorWeek([mine, early, unrecorded, another, waiting, asStudent, cancelled, later, earlier], {
      tutorId: me,
      today: '2026-12-02',
    });
    expect(week.map((d) => d.date)).toEqual([
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
      '2026-12-07',
      '2026-12-08',
    ]);
    expect(week[1]!.sessions.map((b) => b.id)).toEqual([early.id, mine.id, unrecorded.id]);
    expect(week[1]!.requests.map((b) => b.id)).toEqual([waiting.id]);
    expect(week.flatMap((d) => [...d.sessions, ...d.requests]).map((b) => b.id)).not.toContain(later.id);
  });

  test('a session’s end, past midnight too', () => {
    expect([sessionEnd('13:30', 2), sessionEnd('23:00', 2), sessionEnd('09:00', 1)]).toEqual([
      '15:30',
      '01:00',
      '10:00',
    ]);
  });
});
