import { describe, expect, it } from 'vitest';
import { bookingMessages } from '../../../common/bookings.ts';
import type { Module } from '../../../common/catalogue.ts';
import {
  byNextSessionFirst,
  canMove,
  cancelIsLate,
  checkBookingForm,
  dateInWords,
  earliestBookableDate,
  moduleInfo,
  quoteCents,
  shownSlots,
  tooSoonSlots,
  type BookingFormValues,
} from './booking-rules.ts';

const calculus: Module = {
  id: 'm1',
  slug: 'introduction-to-calculus',
  name: 'Introduction To Calculus',
  category: 'Mathematics',
  priceCents: 9000,
  description: 'Limits and derivatives.',
  topics: ['Limits', 'Derivatives', 'Integrals'],
  updatedAt: '2026-01-01T00:00:00.000Z',
};

// Monday 2 March 2026, 10:00 SAST.
const now = new Date('2026-03-02T08:00:00Z');
const id = '0b8a3f4e-8c1f-4d56-9a43-1f6f0d6c2a10';
const valid: BookingFormValues = {
  date: '2026-03-05',
  slots: ['09:00', '13:30', '17:00'],
  hours: '2',
  concepts: 'Chain rule',
};
const check = (values: Partial<BookingFormValues>, leadHours = 48) =>
  checkBookingForm({ id, module: calculus.name, values: { ...valid, ...values } }, { now, leadHours });

describe('the module on the booking page', () => {
  it('a catalogue module brings its category, rate, description and topics', () => {
    expect(moduleInfo('Introduction To Calculus', [calculus])).toMatchObject({
      category: 'Mathematics',
      rateCents: 9000,
      topics: ['Limits', 'Derivatives', 'Integrals'],
      custom: false,
    });
  });

  it('a module the catalogue does not know is a custom subject, Uncategorized, at R100 an hour', () => {
    expect(moduleInfo('Data Structures and Algorithms', [calculus])).toMatchObject({
      category: 'Uncategorized',
      rateCents: 10000,
      custom: true,
      topics: [],
    });
  });
});

describe('the booking form', () => {
  it('a complete request far enough ahead passes, with hours as a number and concepts trimmed', () => {
    expect(check({ concepts: '  Chain rule \n' })).toEqual({
      data: {
        id,
        module: calculus.name,
        date: '2026-03-05',
        slots: ['09:00', '13:30', '17:00'],
        hours: 2,
        concepts: 'Chain rule',
      },
    });
  });

  it('a time inside the lead time is named, with the earliest time accepted, and only that time is marked', () => {
    // Wednesday 09:00 is 47 hours away; the earliest is 10:00 on Wednesday.
    const rules = { now, leadHours: 48 };
    expect(check({ date: '2026-03-04' }).errors).toEqual({
      slots: '09:00 on Wed, 04 Mar 2026 is less than 48 hours away; the earliest is 10:00 SAST.',
    });
    expect(tooSoonSlots({ ...valid, date: '2026-03-04' }, rules)).toEqual([0]);
    expect(check({ date: '2026-03-04', slots: ['08:00', '09:59', '17:00'] }).errors).toEqual({
      slots: '08:00 and 09:59 on Wed, 04 Mar 2026 are less than 48 hours away; the earliest is 10:00 SAST.',
    });
    expect(check({ date: '2026-03-04' }, 12).errors).toBeUndefined();
    expect(check({ date: '2026-03-04', slots: ['10:00', '13:30', '17:00'] }).errors).toBeUndefined();
  });

  it('the lead time is said as "1 hour" when it is one hour, and in hours otherwise', () => {
    expect(bookingMessages.leadTime(1)).toBe('Sessions must be booked at least 1 hour in advance.');
    expect(bookingMessages.leadTime(48)).toBe('Sessions must be booked at least 48 hours in advance.');
    // Monday 10:00 SAST: 10:30 is half an hour away.
    expect(check({ date: '2026-03-02', slots: ['10:30', '13:30', '17:00'] }, 1).errors).toEqual({
      slots: '10:30 on Mon, 02 Mar 2026 is less than 1 hour away; the earliest is 11:00 SAST.',
    });
    expect(check({ date: '2026-03-02', slots: ['10:30', '13:30', '17:00'] }, 48).errors).toEqual({
      date: 'Mon, 02 Mar 2026 is less than 48 hours away; the earliest is 10:00 on Wed, 04 Mar 2026 SAST.',
    });
  });

  it('a date with no time far enough ahead is refused next to the date, naming the earliest day and time', () => {
    expect(check({ date: '2026-03-03', slots: ['', '', ''] }).errors).toEqual({
      date: 'Tue, 03 Mar 2026 is less than 48 hours away; the earliest is 10:00 on Wed, 04 Mar 2026 SAST.',
      slots: bookingMessages.slotsRequired,
    });
    expect(tooSoonSlots({ ...valid, date: '2026-03-03' }, { now, leadHours: 48 })).toEqual([]);
  });

  it('a past date is refused even before the times are chosen', () => {
    expect(check({ date: '2026-03-01', slots: ['', '', ''] }).errors).toEqual({
      date: 'Sun, 01 Mar 2026 has passed; the earliest is 10:00 on Wed, 04 Mar 2026 SAST.',
      slots: bookingMessages.slotsRequired,
    });
  });

  it('a date more than a year ahead is refused (a typo such as 9999 is not a booking)', () => {
    expect(check({ date: '9999-03-05' }).errors).toEqual({ date: bookingMessages.tooFar('2027-03-02') });
    expect(check({ date: '2027-03-03' }).errors).toEqual({ date: bookingMessages.tooFar('2027-03-02') });
    expect(check({ date: '2027-03-02' }).errors).toBeUndefined();
  });

  it('a date that is not on the calendar is refused as such', () => {
    expect(check({ date: '2026-02-30' }).errors).toEqual({ date: bookingMessages.dateInvalid });
    expect(check({ date: '' }).errors).toEqual({ date: bookingMessages.dateInvalid });
  });

  it('missing, repeated and malformed times each get their message', () => {
    expect(check({ slots: ['09:00', '', '17:00'] }).errors).toEqual({ slots: bookingMessages.slotsRequired });
    expect(check({ slots: ['09:00', '09:00', '17:00'] }).errors).toEqual({ slots: bookingMessages.slotsDistinct });
    expect(check({ slots: ['9am', '13:30', '17:00'] }).errors).toEqual({ slots: bookingMessages.slotInvalid });
  });

  it('hours must be a whole number from 1 to 8', () => {
    for (const hours of ['0', '9', '1.5', '', 'two'])
      expect(check({ hours }).errors, hours).toEqual({ hours: bookingMessages.hoursInvalid });
    expect(check({ hours: '8' }).errors).toBeUndefined();
  });

  it('concepts are required and at most 2,000 characters', () => {
    expect(check({ concepts: ' \n ' }).errors).toEqual({ concepts: bookingMessages.conceptsRequired });
    expect(check({ concepts: 'x'.repeat(2001) }).errors).toEqual({ concepts: bookingMessages.conceptsTooLong });
    expect(check({ concepts: 'x'.repeat(2000) }).errors).toBeUndefined();
  });

  it('the date picker starts at the first date the lead time allows, in SAST', () => {
    // 23:30 SAST on 2 March is still 2 March in SAST, though already 3 March nowhere near.
    expect(earliestBookableDate(new Date('2026-03-02T21:30:00Z'), 48)).toBe('2026-03-04');
    expect(earliestBookableDate(new Date('2026-03-02T22:30:00Z'), 48)).toBe('2026-03-05');
  });

  it('the chosen date is said in words as the app writes dates, once its year is whole', () => {
    expect(dateInWords('2026-12-03')).toBe('Thu, 03 Dec 2026');
    expect(dateInWords('2027-09-14')).toBe('Tue, 14 Sept 2027');
    // A date input passes through these while the year is typed, and is empty until every part is there.
    for (const date of ['0002-12-03', '0020-12-03', '0202-12-03', '', '2026-02-30'])
      expect(dateInWords(date), date).toBeUndefined();
  });

  it('the quote is hours × the rate, once the hours are valid', () => {
    expect(quoteCents('3', 9000)).toBe(27000);
    expect(quoteCents('1.5', 9000)).toBeUndefined();
    expect(quoteCents('', 9000)).toBeUndefined();
  });
});

describe('a booking as the student sees it', () => {
  const booking = {
    date: '2026-03-05',
    slots: ['17:00', '09:00', '13:30'],
    confirmedSlot: null,
    status: 'Pending' as const,
  };

  it('a confirmed booking shows only its confirmed time; otherwise every requested time', () => {
    expect(shownSlots(booking)).toEqual(['17:00', '09:00', '13:30']);
    expect(shownSlots({ ...booking, status: 'Confirmed', confirmedSlot: '13:30' })).toEqual(['13:30']);
    expect(shownSlots({ ...booking, status: 'Completed', confirmedSlot: '13:30' })).toEqual([
      '17:00',
      '09:00',
      '13:30',
    ]);
  });

  it('the next session to come is first, then the others, latest first', () => {
    const b = (id: string, date: string, status: 'Pending' | 'Confirmed' | 'Cancelled' | 'Completed') =>
      ({ ...booking, id, date, status, createdAt: '2026-03-01T00:00:00Z' }) as unknown as Parameters<
        ReturnType<typeof byNextSessionFirst>
      >[0];
    const list = [
      b('past', '2026-02-20', 'Completed'),
      b('later', '2026-04-01', 'Confirmed'),
      b('cancelled', '2026-03-20', 'Cancelled'),
      b('next', '2026-03-05', 'Pending'),
      b('older', '2026-01-10', 'Completed'),
    ];
    expect(list.sort(byNextSessionFirst(now)).map((x) => x.id)).toEqual([
      'next',
      'later',
      'cancelled',
      'past',
      'older',
    ]);
  });

  it('cancelling within 24 hours of the session (the confirmed time, else the earliest asked for) is late', () => {
    expect(cancelIsLate(booking, new Date('2026-03-04T06:59:00Z'))).toBe(false);
    expect(cancelIsLate(booking, new Date('2026-03-04T07:01:00Z'))).toBe(true);
    expect(cancelIsLate({ ...booking, confirmedSlot: '17:00' }, new Date('2026-03-04T07:01:00Z'))).toBe(false);
  });
});

describe('moving a session', () => {
  const now = new Date('2026-12-01T08:00:00Z'); // 10:00 SAST
  const session = {
    status: 'Confirmed' as const,
    date: '2026-12-02',
    confirmedSlot: '10:00',
    slots: ['09:00', '10:00', '11:00'],
  };
  it('open up to the cut-off before it starts (a pending one: its earliest time), pending or confirmed only', () => {
    expect(canMove(session, now, 24)).toBe(true);
    expect(canMove(session, new Date(now.getTime() + 60_000), 24)).toBe(false);
    expect(canMove({ ...session, status: 'Cancelled' }, now, 0)).toBe(false);
    const pending = { ...session, status: 'Pending' as const, confirmedSlot: null };
    expect([canMove(pending, now, 23), canMove(pending, now, 24)]).toEqual([true, false]);
  });
});

describe('weekly sessions on the form', () => {
  const now = new Date('2026-12-01T08:00:00Z');
  const values = {
    date: '2026-12-10',
    slots: ['09:00', '10:00', '11:00'] as [string, string, string],
    hours: '1',
    concepts: 'Tests',
  };
  const check = (weeks: string | undefined) =>
    checkBookingForm(
      { id: crypto.randomUUID(), module: 'Statistics', values: { ...values, weeks } },
      { now, leadHours: 48 },
    );
  it('one week, or none said (a draft from before), is a single session; more are sent as weeks', () => {
    expect(check(undefined).data).not.toHaveProperty('weeks');
    expect(check('1').data).not.toHaveProperty('weeks');
    expect(check('6').data).toMatchObject({ weeks: 6 });
  });
  it('weeks out of range, or a last week past a year ahead, are said next to the weeks', () => {
    expect(check('15').errors).toEqual({ weeks: bookingMessages.weeksInvalid });
    expect(check('').errors).toEqual({ weeks: bookingMessages.weeksInvalid });
    const late = checkBookingForm(
      { id: crypto.randomUUID(), module: 'Statistics', values: { ...values, date: '2027-11-20', weeks: '4' } },
      { now, leadHours: 48 },
    );
    expect(late.errors?.weeks).toMatch(/^Sessions can be booked at most a year ahead/);
  });
});
