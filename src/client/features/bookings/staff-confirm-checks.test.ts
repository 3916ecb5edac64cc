import { describe, expect, it } from 'vitest';
import { noAvailability, weekdayNames, type Availability } from '../../../common/availability.ts';
import type { Booking } from '../../../common/bookings.ts';
import {
  busyFor,
  defaultTutorId,
  outsideHours,
  outsideHoursText,
  slotClash,
  slotOption,
  tutorSessions,
  type SessionTutor,
} from './staff-confirm-checks.ts';

// Thursday 3 December 2026.
const date = '2026-12-03';

const booking = (overrides: Partial<Booking> = {}): Booking => ({
  id: 'b1',
  student: { id: 's1', name: 'Sipho Dlamini', email: 'sipho@example.com' },
  moduleName: 'Linear Algebra',
  moduleCategory: 'Mathematics',
  date,
  slots: ['10:00', '14:00', '18:00'],
  confirmedSlot: null,
  hours: 1,
  concepts: 'Eigenvalues.',
  status: 'Pending',
  priceCentsPerHour: 9000,
  totalCents: 9000,
  paymentReference: 'TB-1',
  lateCancellation: false,
  createdAt: '2026-12-01T08:00:00.000Z',
  version: 1,
  history: [],
  tutor: null,
  ...overrides,
});

const confirmed = (id: string, start: string, tutorId = 't1', at = date, hours = 1) =>
  booking({ id, date: at, hours, status: 'Confirmed', confirmedSlot: start, tutor: { id: tutorId, name: 'Musa' } });

const me: SessionTutor = { id: 't1', whose: 'your', bufferMinutes: 0 };

/** Hours every day of the week. */
const hours = (start: string, end: string, daysOff: string[] = []): Availability => ({
  ...noAvailability,
  weekly: weekdayNames.map(() => [{ start, end }]),
  daysOff,
});

describe('tutorSessions', () => {
  it('keeps the bookings that have a tutor and a confirmed time, saying which are still confirmed', () => {
    const sessions = tutorSessions([
      confirmed('a', '13:30'),
      booking({ id: 'pending' }),
      booking({ id: 'no tutor', status: 'Confirmed', confirmedSlot: '09:00', tutor: null }),
      booking({ id: 'deleted tutor', status: 'Confirmed', confirmedSlot: '09:00', tutor: { id: null, name: 'X' } }),
      booking({ id: 'old copy', status: 'Confirmed', confirmedSlot: '09:00', tutor: undefined }),
      { ...confirmed('cancelled', '15:00'), status: 'Cancelled' },
    ]);
    expect(sessions).toEqual([
      { tutorId: 't1', bookingId: 'a', date, start: '13:30', hours: 1, confirmed: true },
      { tutorId: 't1', bookingId: 'cancelled', date, start: '15:00', hours: 1, confirmed: false },
    ]);
  });
});

describe('busyFor', () => {
  const held = tutorSessions([
    confirmed('a', '13:30'),
    { ...confirmed('cancelled', '15:00'), status: 'Cancelled' },
    confirmed('b1', '10:00'),
    confirmed('other tutor', '10:00', 't2'),
  ]);
  const session = (start: string, tutorId = 't1') => ({ tutorId, date, start, hours: 1 });

  it('is the tutor’s confirmed sessions the device holds, this booking’s own left out', () => {
    expect(busyFor('t1', booking({ id: 'new' }), held, [])).toEqual([held[0], held[2]]);
    expect(busyFor('t1', booking({ id: 'b1' }), held, [])).toEqual([held[0]]);
  });

  it('adds the listed sessions no held booking accounts for, and reads the others from the bookings', () => {
    const listed = [session('13:30'), session('15:00'), session('10:00'), session('17:00'), session('08:00', 't2')];
    // 13:30 is held; 15:00 was cancelled since; 10:00 is this booking's own; 17:00 is one the device lacks.
    expect(busyFor('t1', booking({ id: 'b1' }), held, listed)).toEqual([held[0], session('17:00')]);
  });
});

describe('slotClash', () => {
  const busy = busyFor('t1', booking(), tutorSessions([confirmed('a', '13:30'), confirmed('x', '10:00', 't2')]), []);

  it('names the session a time overlaps, to the tutor as theirs', () => {
    expect(slotClash(booking(), '14:00', me, busy)).toEqual({
      message: '14:00 overlaps your 13:30 session.',
      note: 'overlaps 13:30',
    });
  });

  it('says nothing of a clear time', () => {
    expect(slotClash(booking(), '10:00', me, busy)).toBeUndefined();
    expect(slotClash(booking(), '14:30', me, busy)).toBeUndefined();
  });

  it('keeps the buffer: a time next to a session is too close', () => {
    const message = '14:40 is too close to your 13:30 session, within the buffer kept between sessions.';
    expect(slotClash(booking(), '14:40', { ...me, bufferMinutes: 15 }, busy)).toEqual({
      message,
      note: 'too close to 13:30',
    });
    expect(slotClash(booking(), '14:40', me, busy)).toBeUndefined();
  });

  it('names the date of a session on another day, and the tutor to the admin', () => {
    const late = [{ date: '2026-12-02', start: '23:00', hours: 2 }];
    expect(slotClash(booking({ slots: ['00:30'] }), '00:30', { ...me, whose: 'Musa Stats’s' }, late)).toEqual({
      message: '00:30 overlaps Musa Stats’s 23:00 session on Wed, 02 Dec 2026.',
      note: 'overlaps 23:00 on Wed, 02 Dec 2026',
    });
  });
});

describe('outsideHours', () => {
  it('marks the times outside the hours, the whole session inside them or not', () => {
    expect(outsideHours(booking(), [hours('09:00', '17:00')])).toEqual(['18:00']);
    expect(outsideHours(booking({ hours: 4 }), [hours('09:00', '17:00')])).toEqual(['14:00', '18:00']);
  });

  it('marks every time on a day off', () => {
    expect(outsideHours(booking(), [hours('09:00', '17:00', [date])])).toEqual(['10:00', '14:00', '18:00']);
  });

  it('takes a time inside any of the tutors’ hours, and ignores a tutor who set none', () => {
    expect(outsideHours(booking(), [hours('09:00', '12:00'), hours('17:00', '20:00'), noAvailability])).toEqual([
      '14:00',
    ]);
  });

  it('marks nothing when no tutor has set hours', () => {
    expect(outsideHours(booking(), [])).toEqual([]);
    expect(outsideHours(booking(), [noAvailability, { ...noAvailability, daysOff: [date] }])).toEqual([]);
  });
});

describe('the words', () => {
  it('lists the times outside the hours', () => {
    expect(outsideHoursText(['18:00'], 'your')).toBe('18:00 is outside your working hours.');
    expect(outsideHoursText(['07:00', '18:00', '19:00'], 'the tutors’')).toBe(
      '07:00, 18:00 and 19:00 are outside the tutors’ working hours.',
    );
  });

  it('says in each option what is in the way, or that it is free once a tutor is known', () => {
    const clash = { message: '', note: 'overlaps 13:30' };
    expect(slotOption('14:00', clash, false, true)).toBe('14:00 SAST (overlaps 13:30)');
    expect(slotOption('14:00', clash, true, true)).toBe('14:00 SAST (overlaps 13:30, outside hours)');
    expect(slotOption('18:00', undefined, true, false)).toBe('18:00 SAST (outside hours)');
    expect(slotOption('10:00', undefined, false, true)).toBe('10:00 SAST (free)');
    expect(slotOption('10:00', undefined, false, false)).toBe('10:00 SAST');
  });
});

describe('defaultTutorId', () => {
  const one = [{ tutorId: 't1' }];
  const two = [{ tutorId: 't1' }, { tutorId: 't2' }];
  it('is the booking’s tutor, else the only tutor, else none', () => {
    expect(defaultTutorId(booking({ tutor: { id: 't2', name: 'Musa' } }), one)).toBe('t2');
    expect(defaultTutorId(booking(), one)).toBe('t1');
    expect(defaultTutorId(booking(), two)).toBe('');
    expect(defaultTutorId(booking({ tutor: { id: null, name: 'Deleted user' } }), [])).toBe('');
  });
});
