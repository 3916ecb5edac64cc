import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dateAfter } from '../../../common/availability.ts';
import { bookingMessages, bookingSchema, seriesSessionId, type Booking } from '../../../common/bookings.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import {
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
 * Weekly sessions (issue 36): the same time every week for N weeks; a booking per week, each with its reference,
 * moved or cancelled alone; a tutor confirms the series at once; the e-mails say how many and the total. A server
 * of its own: its tutors' sessions are part of what is tested.
 */
let smtp: TestSmtpServer;
let server: TestServer;
let musa: Awaited<ReturnType<typeof signInAs>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  musa = await signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
/** A first date of its own for each test, a quarter apart: no two tests' series meet. */
let starts = 0;
const freshStart = () => sastDate(new Date(Date.now() + (5 + 100 * starts++) * day));

async function student(): Promise<{ client: TestClient; email: string; id: string }> {
  const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
  return { client: await logIn(server, account), email: account.email, id: account.id };
}

const request = (client: TestClient, fields: { id?: string; date: string; weeks?: number; slots?: string[] }) =>
  client.post('/api/bookings', {
    id: fields.id ?? crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 1,
    concepts: 'Hypothesis testing',
    slots: fields.slots ?? ['09:00', '10:00', '11:00'],
    date: fields.date,
    ...(fields.weeks ? { weeks: fields.weeks } : {}),
  });

async function sessionsOf(client: TestClient, seriesId: string): Promise<Booking[]> {
  const response = await client.get('/api/bookings');
  return (response.body.bookings as Booking[])
    .filter((b) => b.series?.id === seriesId)
    .sort((a, b) => a.series!.index - b.series!.index);
}

describe('a weekly series', () => {
  test('a booking a week, each with its reference; counted as one request; the e-mails say how many and the total', async () => {
    const thandi = await student();
    const id = crypto.randomUUID();
    const first = freshStart();
    const response = await request(thandi.client, { id, date: first, weeks: 4 });
    expect(response.status, response.text).toBe(201);
    expect(bookingSchema.parse(response.body)).toMatchObject({ id, series: { id, index: 0, count: 4 } });

    const sessions = await sessionsOf(thandi.client, id);
    expect(sessions.map((s) => [s.id, s.date, s.status])).toEqual(
      [0, 1, 2, 3].map((i) => [seriesSessionId(id, i), dateAfter(first, 7 * i), 'Pending']),
    );
    expect(new Set(sessions.map((s) => s.paymentReference)).size).toBe(4);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await server.services.deps.repos.bookings.countRequestsSince(thandi.id, since)).toBe(1);

    const line = bookingMessages.series(4, first, dateAfter(first, 21), 4 * sessions[0]!.totalCents);
    const receipt = await smtp.waitForEmail({ to: thandi.email, subject: 'Booking request received' });
    expect(receipt.text.replace(/\s+/g, ' ')).toContain(line);
    const told = await smtp.waitForEmail({
      to: musa.email,
      subject: `New booking request: Introduction to Statistics, ${formatSastDate(first)}`,
    });
    expect(told.text.replace(/\s+/g, ' ')).toContain(line);

    // Sent again, the same; other weeks under the id, refused.
    const again = await request(thandi.client, { id, date: first, weeks: 4 });
    expect(again.status, again.text).toBe(200);
    expectApiError(await request(thandi.client, { id, date: first, weeks: 3 }), 409, 'bookings.id_reused');
  });

  test('the tutor confirms it at once: every session, one e-mail whose invitation holds them all', async () => {
    const thandi = await student();
    const id = crypto.randomUUID();
    const first = freshStart();
    const made = bookingSchema.parse((await request(thandi.client, { id, date: first, weeks: 3 })).body);
    const response = await musa.client.post(`/api/bookings/${id}/confirm`, {
      slot: '10:00',
      version: made.version,
      series: true,
    });
    expect(response.status, response.text).toBe(200);
    const sessions = await sessionsOf(thandi.client, id);
    expect(sessions.map((s) => [s.status, s.confirmedSlot, s.tutor?.name])).toEqual(
      Array.from({ length: 3 }, () => ['Confirmed', '10:00', 'Musa Stats']),
    );
    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' });
    expect(email.text.replace(/\s+/g, ' ')).toContain(
      `Your weekly sessions with Musa Stats are confirmed: 3 sessions at 10:00 SAST, from ${formatSastDate(first)} to ${formatSastDate(dateAfter(first, 14))}`,
    );
    const ics = email.attachments[0]!.content.replace(/\r\n[ \t]/g, '');
    expect(ics.match(/^UID:.*$/gm)).toEqual(sessions.map((s) => `UID:${s.id}@tutorbook`));

    // Each session is its own: the second cancelled alone, the third moved alone.
    const cancelled = bookingSchema.parse((await thandi.client.post(`/api/bookings/${sessions[1]!.id}/cancel`)).body);
    expect(cancelled.status).toBe('Cancelled');
    const moved = await thandi.client.post(`/api/bookings/${sessions[2]!.id}/reschedule`, {
      date: dateAfter(first, 15),
      slots: ['14:00', '15:00', '16:00'],
      version: sessions[2]!.version,
    });
    expect(moved.status, moved.text).toBe(200);
    const after = await sessionsOf(thandi.client, id);
    expect(after.map((s) => s.status)).toEqual(['Confirmed', 'Cancelled', 'Pending']);
  });

  test('a clash with one week refuses the whole series, naming its date; nothing is confirmed', async () => {
    const thandi = await student();
    const id = crypto.randomUUID();
    const first = freshStart();
    const made = bookingSchema.parse((await request(thandi.client, { id, date: first, weeks: 3 })).body);
    // Another student's session with Musa in the series' third week, at 10:30.
    const other = await student();
    const third = dateAfter(first, 14);
    const single = bookingSchema.parse(
      (await request(other.client, { date: third, slots: ['10:30', '12:00', '13:00'] })).body,
    );
    expect(
      (await musa.client.post(`/api/bookings/${single.id}/confirm`, { slot: '10:30', version: single.version })).status,
    ).toBe(200);
    const error = expectApiError(
      await musa.client.post(`/api/bookings/${id}/confirm`, { slot: '10:00', version: made.version, series: true }),
      409,
      'bookings.clash',
    );
    expect(error.message).toBe(`10:00 on ${formatSastDate(third)} overlaps your 10:30 session.`);
    expect((await sessionsOf(thandi.client, id)).map((s) => s.status)).toEqual(['Pending', 'Pending', 'Pending']);
    // Without `series`, the first week alone is confirmed.
    expect(
      (await musa.client.post(`/api/bookings/${id}/confirm`, { slot: '10:00', version: made.version })).status,
    ).toBe(200);
    expect((await sessionsOf(thandi.client, id)).map((s) => s.status)).toEqual(['Confirmed', 'Pending', 'Pending']);
  });

  test.each([
    ['no weeks', 0],
    ['more than a term', 15],
    ['a fraction', 1.5],
  ])('%s is refused with the weeks allowed', async (_what, weeks) => {
    const thandi = await student();
    const error = expectApiError(
      await thandi.client.post('/api/bookings', {
        id: crypto.randomUUID(),
        module: 'Introduction to Statistics',
        hours: 1,
        concepts: 'Hypothesis testing',
        slots: ['09:00', '10:00', '11:00'],
        date: freshStart(),
        weeks,
      }),
      400,
      'request.invalid',
    );
    expect(error.fields?.weeks).toBe(bookingMessages.weeksInvalid);
  });

  test('a last week past a year ahead is refused', async () => {
    const thandi = await student();
    const date = sastDate(new Date(Date.now() + 360 * day));
    expectApiError(await request(thandi.client, { date, weeks: 3 }), 400, 'bookings.too_far');
  });
});
