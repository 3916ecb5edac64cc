import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingMessages, bookingSchema, type Booking } from '../../../common/bookings.ts';
import { formatSastDate, formatSastSlot, sastDate, sastTime } from '../../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/**
 * Moving a session (issue 36): the student proposes three new times up to the cut-off before it starts; staff
 * confirm one of them or keep the old time; staff move a confirmed session themselves. The booking keeps its
 * reference, its history shows each move, and the invitation after a move is the same event (UID) at a higher
 * SEQUENCE. A server of its own, booking two hours ahead, so a session inside the 24-hour cut-off can exist.
 */
let smtp: TestSmtpServer;
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, env: { BOOKING_MIN_LEAD_HOURS: '2' } });
  [admin, musa] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const hourMs = 3_600_000;
const day = 24 * hourMs;
/** A date of its own for each test, three days from any other's. */
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (6 + 3 * dates++) * day));
const dayAfter = (date: string) => sastDate(new Date(Date.parse(`${date}T12:00:00Z`) + day));

interface Student {
  client: TestClient;
  email: string;
}

async function student(): Promise<Student> {
  const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
  return { client: await logIn(server, account), email: account.email };
}

async function book(who: Student, date: string, slots = ['09:00', '10:00', '11:00']): Promise<Booking> {
  const response = await who.client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 1,
    concepts: 'Hypothesis testing',
    date,
    slots,
  });
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

async function confirmed(who: Student, date: string, slot = '10:00'): Promise<Booking> {
  const booking = await book(who, date);
  const response = await musa.client.post(`/api/bookings/${booking.id}/confirm`, { slot, version: booking.version });
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

const reschedule = (who: TestClient, b: Pick<Booking, 'id' | 'version'>, date: string, slots: string[]) =>
  who.post(`/api/bookings/${b.id}/reschedule`, { date, slots, version: b.version });
const move = (who: TestClient, b: Pick<Booking, 'id' | 'version'>, date: string, slot: string) =>
  who.post(`/api/bookings/${b.id}/move`, { date, slot, version: b.version });
const keep = (who: TestClient, b: Pick<Booking, 'id' | 'version'>) =>
  who.post(`/api/bookings/${b.id}/keep-time`, { version: b.version });

/** The invitation's UID and SEQUENCE, lines unfolded. */
function eventOf(email: { attachments: { content: string }[] }) {
  const ics = email.attachments[0]!.content.replace(/\r\n[ \t]/g, '');
  return { uid: /^UID:(.+)$/m.exec(ics)![1]!.trim(), sequence: Number(/^SEQUENCE:(\d+)$/m.exec(ics)![1]), ics };
}

describe('the student moves a session', () => {
  test('a confirmed one to three new times: pending there, staff told; a tutor confirms one, the same event moves', async () => {
    const thandi = await student();
    const date = freshDate();
    const before = await confirmed(thandi, date);
    const first = eventOf(await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' }));
    const later = dayAfter(date);

    const response = await reschedule(thandi.client, before, later, ['14:00', '15:00', '16:00']);
    expect(response.status, response.text).toBe(200);
    const moved = bookingSchema.parse(response.body);
    expect(moved).toMatchObject({
      status: 'Pending',
      date: later,
      slots: ['14:00', '15:00', '16:00'],
      confirmedSlot: null,
      paymentReference: before.paymentReference,
      tutor: { id: musa.id, name: 'Musa Stats' },
    });
    expect(moved.history.at(-1)).toMatchObject({
      from: 'Confirmed',
      to: 'Pending',
      move: {
        from: { date, slot: '10:00', slots: ['09:00', '10:00', '11:00'] },
        to: { date: later, slot: null, slots: ['14:00', '15:00', '16:00'] },
      },
    });
    const told = await smtp.waitForEmail({ to: musa.email, subject: 'Session move requested' });
    expect(told.text).toContain(`asked to move their session, confirmed for ${formatSastSlot(date, '10:00')}`);
    expect(told.text).toContain('or keep the old time');
    // Sent again (its answer lost): nothing more happens.
    const again = await reschedule(thandi.client, before, later, ['14:00', '15:00', '16:00']);
    expect(again.status, again.text).toBe(200);
    expect(bookingSchema.parse(again.body).version).toBe(moved.version);

    const confirm = await musa.client.post(`/api/bookings/${moved.id}/confirm`, {
      slot: '15:00',
      version: moved.version,
    });
    expect(confirm.status, confirm.text).toBe(200);
    const second = eventOf(
      await smtp.waitForEmail({
        to: thandi.email,
        subject: `Session confirmed: Introduction to Statistics, ${formatSastSlot(later, '15:00')}`,
      }),
    );
    expect(second.uid).toBe(first.uid);
    expect(second.sequence).toBeGreaterThan(first.sequence);
    // The old time is free: another student's session is confirmed at it.
    const other = await confirmed(await student(), date, '10:00');
    expect(other.confirmedSlot).toBe('10:00');
  });

  test('a pending one: its times are replaced; staff hear of it, with no old time to keep', async () => {
    const thandi = await student();
    const date = freshDate();
    const booking = await book(thandi, date);
    const response = await reschedule(thandi.client, booking, date, ['12:00', '13:00', '14:00']);
    expect(response.status, response.text).toBe(200);
    const moved = bookingSchema.parse(response.body);
    expect(moved).toMatchObject({ status: 'Pending', date, slots: ['12:00', '13:00', '14:00'] });
    expect(moved.history.map((h) => [h.from, h.to])).toEqual([
      [null, 'Pending'],
      ['Pending', 'Pending'],
    ]);
    const told = await smtp.waitForEmail({ to: musa.email, subject: 'Session move requested' });
    expect(told.text).not.toContain('keep the old time');
    expectApiError(await keep(musa.client, moved), 409, 'bookings.nothing_to_keep');
  });

  test('within the cut-off it is refused, saying when it starts and that cancelling is open', async () => {
    const thandi = await student();
    // The hour 5 hours from now, on its SAST date (the lead time here is 2 hours), and two later times of that
    // date; an hour of 23 takes 22:30, still hours away, as its third.
    const soon = new Date(Date.now() + 5 * hourMs);
    const date = sastDate(soon);
    const first = `${sastTime(soon).slice(0, 2)}:30`;
    const slots = [...new Set([first, '23:00', '23:30', '22:30'])].slice(0, 3);
    const booking = await book(thandi, date, slots);
    const error = expectApiError(
      await reschedule(thandi.client, booking, freshDate(), ['14:00', '15:00', '16:00']),
      409,
      'bookings.too_late_to_move',
    );
    expect(error.message).toBe(bookingMessages.tooLateToMove(24, formatSastSlot(date, [...booking.slots].sort()[0]!)));
  });

  test('refusals: a visitor, staff, a stale version, a cancelled session, times too soon, another’s booking', async () => {
    const thandi = await student();
    const booking = await book(thandi, freshDate());
    const date = freshDate();
    const slots = ['14:00', '15:00', '16:00'];
    expectApiError(
      await createClient(server.url).post(`/api/bookings/${booking.id}/reschedule`, { date, slots, version: 1 }),
      401,
      'auth.unauthenticated',
    );
    expectApiError(await reschedule(musa.client, booking, date, slots), 403, 'auth.forbidden');
    expectApiError(await reschedule((await student()).client, booking, date, slots), 404, 'bookings.not_found');
    expectApiError(
      await reschedule(thandi.client, { ...booking, version: booking.version - 1 }, date, slots),
      409,
      'bookings.changed',
    );
    const tooSoon = expectApiError(
      await reschedule(thandi.client, booking, sastDate(new Date()), ['00:00', '00:30', '01:00']),
      400,
      'bookings.too_soon',
    );
    expect(tooSoon.fields).toBeDefined();
    const invalid = expectApiError(
      await reschedule(thandi.client, booking, date, ['14:00', '14:00', '16:00']),
      400,
      'request.invalid',
    );
    expect(invalid.fields?.slots).toBe(bookingMessages.slotsDistinct);
    const cancelled = bookingSchema.parse((await thandi.client.post(`/api/bookings/${booking.id}/cancel`)).body);
    expectApiError(await reschedule(thandi.client, cancelled, date, slots), 409, 'bookings.cannot_move');
  });
});

describe('staff keep the old time, or move a confirmed session', () => {
  test('keep: confirmed again at its old date and time, with its old requested times; the student is told', async () => {
    const thandi = await student();
    const date = freshDate();
    const before = await confirmed(thandi, date, '11:00');
    const first = eventOf(await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' }));
    const moved = bookingSchema.parse(
      (await reschedule(thandi.client, before, dayAfter(date), ['14:00', '15:00', '16:00'])).body,
    );
    expectApiError(await keep(thandi.client, moved), 403, 'auth.forbidden');
    expectApiError(await keep(musa.client, { ...moved, version: moved.version - 1 }), 409, 'bookings.changed');
    const response = await keep(musa.client, moved);
    expect(response.status, response.text).toBe(200);
    const kept = bookingSchema.parse(response.body);
    expect(kept).toMatchObject({
      status: 'Confirmed',
      date,
      confirmedSlot: '11:00',
      slots: ['09:00', '10:00', '11:00'],
    });
    expect(kept.history.at(-1)).toMatchObject({
      from: 'Pending',
      to: 'Confirmed',
      slot: '11:00',
      by: { name: 'Musa Stats' },
    });
    const email = await smtp.waitForEmail({
      to: thandi.email,
      subject: `Session confirmed: Introduction to Statistics, ${formatSastSlot(date, '11:00')}`,
    });
    expect(eventOf(email).uid).toBe(first.uid);
    expect(eventOf(email).sequence).toBeGreaterThan(first.sequence);
    // Kept once: nothing left to keep.
    expectApiError(await keep(musa.client, kept), 409, 'bookings.nothing_to_keep');
  });

  test('keep is refused when another session took the old time meanwhile, naming it', async () => {
    const thandi = await student();
    const date = freshDate();
    const before = await confirmed(thandi, date, '10:00');
    const moved = bookingSchema.parse(
      (await reschedule(thandi.client, before, dayAfter(date), ['14:00', '15:00', '16:00'])).body,
    );
    await confirmed(await student(), date, '10:00');
    const error = expectApiError(await keep(musa.client, moved), 409, 'bookings.clash');
    expect(error.message).toBe(`10:00 on ${formatSastDate(date)} overlaps your 10:00 session.`);
  });

  test('move: a confirmed session to another day; the student hears from what to what, with the same event', async () => {
    const thandi = await student();
    const date = freshDate();
    const before = await confirmed(thandi, date, '09:00');
    const first = eventOf(await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' }));
    const later = dayAfter(date);
    expectApiError(await move(thandi.client, before, later, '12:00'), 403, 'auth.forbidden');
    const response = await move(admin.client, before, later, '12:00');
    expect(response.status, response.text).toBe(200);
    const moved = bookingSchema.parse(response.body);
    expect(moved).toMatchObject({
      status: 'Confirmed',
      date: later,
      confirmedSlot: '12:00',
      paymentReference: before.paymentReference,
    });
    expect(moved.history.at(-1)).toMatchObject({
      from: 'Confirmed',
      to: 'Confirmed',
      by: { name: 'Lerato Admin' },
      move: { from: { date, slot: '09:00' }, to: { date: later, slot: '12:00' } },
    });
    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Session time changed' });
    expect(email.text).toContain(
      `Your session has moved from ${formatSastSlot(date, '09:00')} to ${formatSastSlot(later, '12:00')}`,
    );
    const event = eventOf(email);
    expect(event.uid).toBe(first.uid);
    expect(event.sequence).toBeGreaterThan(first.sequence);
  });

  test('move refusals: a pending session, a time past, a clash with the tutor’s session', async () => {
    const thandi = await student();
    const date = freshDate();
    const pending = await book(thandi, date);
    const error = expectApiError(await move(musa.client, pending, date, '12:00'), 409, 'bookings.cannot_move');
    expect(error.message).toBe(bookingMessages.staffMoveConfirmedOnly);
    const session = await confirmed(thandi, date, '09:00');
    expectApiError(
      await move(musa.client, session, sastDate(new Date(Date.now() - day)), '12:00'),
      400,
      'bookings.move_in_past',
    );
    await confirmed(await student(), date, '11:00');
    const clash = expectApiError(await move(musa.client, session, date, '11:30'), 409, 'bookings.clash');
    expect(clash.message).toBe(`11:30 on ${formatSastDate(date)} overlaps your 11:00 session.`);
  });
});
