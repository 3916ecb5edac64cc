import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { groupListSchema, groupMessages, groupSessionSchema, type GroupSession } from '../../../common/groups.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/**
 * Group sessions (issue 36): staff open one for a module; students take seats, each a confirmed booking of their
 * own; the last seat is taken once however many ask at once; a cancelled seat goes back. A server of its own:
 * its tutors' sessions are part of what is tested.
 */
let smtp: TestSmtpServer;
let server: TestServer;
let musa: Awaited<ReturnType<typeof signInAs>>;
let admin: Awaited<ReturnType<typeof signInAs>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  musa = await signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] });
  admin = await signInAs(server, 'admin', { name: 'Ada Admin' });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
/** A date of its own for each group, a week apart: no two groups of Musa's meet. */
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (3 + 7 * dates++) * day));

const open = (client: TestClient, fields: Partial<Record<string, unknown>> = {}) =>
  client.post('/api/groups', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date: freshDate(),
    start: '14:00',
    hours: 2,
    seats: 3,
    priceCents: 150_00,
    ...fields,
  });

async function openGroup(fields: Partial<Record<string, unknown>> = {}): Promise<GroupSession> {
  const response = await open(musa.client, fields);
  expect(response.status, response.text).toBe(201);
  return groupSessionSchema.parse(response.body);
}

const takeSeat = (client: TestClient, groupId: string, id: string = crypto.randomUUID()) =>
  client.post(`/api/groups/${groupId}/seats`, { id, concepts: 'Regression' });

async function listed(groupId: string): Promise<GroupSession | undefined> {
  const response = await createClient(server.url).get('/api/groups?module=introduction%20to%20statistics');
  expect(response.status, response.text).toBe(200);
  return groupListSchema.parse(response.body).groups.find((g) => g.id === groupId);
}

describe('opening a group session', () => {
  test('a tutor opens one for their category; anyone sees it, without a word of who comes; a repeat opens nothing', async () => {
    const id = crypto.randomUUID();
    const date = freshDate();
    const response = await open(musa.client, { id, date });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id,
      moduleName: 'Introduction to Statistics',
      moduleCategory: 'Statistics',
      date,
      start: '14:00',
      hours: 2,
      seats: 3,
      taken: 0,
      priceCents: 150_00,
      tutorName: 'Musa Stats',
    });
    expect((await open(musa.client, { id, date })).status).toBe(200);
    expect(await listed(id)).toEqual(response.body);
    const other = await createClient(server.url).get('/api/groups?category=Mathematics');
    expect(other.body.groups.some((g: GroupSession) => g.id === id)).toBe(false);
  });

  test('refused: a student, a tutor of another category, a module nobody teaches, bad seats and prices, a past time', async () => {
    const student = await signInAs(server, 'student');
    expectApiError(await open(student.client), 403, 'auth.forbidden');
    expectApiError(await createClient(server.url).post('/api/groups', {}), 401, 'auth.unauthenticated');
    const maths = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const notTheirs = expectApiError(await open(maths.client), 400, 'groups.not_of_category');
    expect(notTheirs.message).toBe(groupMessages.notOfCategory);
    expectApiError(await open(musa.client, { module: 'Underwater basket weaving' }), 400, 'groups.not_of_category');
    for (const seats of [1, 21, 2.5, '3'])
      expect(expectApiError(await open(musa.client, { seats }), 400, 'request.invalid').fields?.seats).toBe(
        groupMessages.seatsInvalid,
      );
    for (const priceCents of [-1, 5_000_01])
      expect(expectApiError(await open(musa.client, { priceCents }), 400, 'request.invalid').fields?.priceCents).toBe(
        groupMessages.priceInvalid,
      );
    expectApiError(
      await open(musa.client, { date: sastDate(new Date(Date.now() - day)) }),
      400,
      'bookings.move_in_past',
    );
  });

  test('the admin names one of the category’s tutors when it has several; the tutor must be free then', async () => {
    await signInAs(server, 'tutor', { name: 'Second Stats', categories: ['Statistics'] });
    expectApiError(await open(admin.client), 400, 'bookings.not_a_tutor');
    const date = freshDate();
    const response = await open(admin.client, { tutorId: musa.id, date });
    expect(response.status, response.text).toBe(201);
    expect(response.body.tutorName).toBe('Musa Stats');
    // Musa now has a seat's session then: another group overlapping it is refused, naming the clash.
    const student = await signInAs(server, 'student');
    expect((await takeSeat(student.client, response.body.id)).status).toBe(201);
    const clash = expectApiError(await open(musa.client, { date, start: '15:00' }), 409, 'bookings.clash');
    expect(clash.message).toContain('14:00');
  });
});

describe('an open group takes its tutor’s time', () => {
  test('before any seat is taken: a confirm over it is refused, naming it, and the free times leave it out', async () => {
    // Within the free times’ four weeks, on a day no fresh date (3, 10, 17… days ahead) falls on.
    const date = sastDate(new Date(Date.now() + 5 * day));
    await openGroup({ date });
    const student = await signInAs(server, 'student');
    const id = crypto.randomUUID();
    const request = await student.client.post('/api/bookings', {
      id,
      module: 'Introduction to Statistics',
      date,
      slots: ['15:00', '17:00', '18:00'],
      hours: 1,
      concepts: 'Sampling',
    });
    expect(request.status, request.text).toBe(201);
    const clash = await musa.client.post(`/api/bookings/${id}/confirm`, {
      slot: '15:00',
      version: request.body.version,
    });
    expect(expectApiError(clash, 409, 'bookings.clash').message).toContain('14:00');
    const times = await student.client.get('/api/availability?category=Statistics');
    expect(times.body.busy).toContainEqual({ tutorId: musa.id, date, start: '14:00', hours: 2 });
  });
});

describe('taking a seat', () => {
  test('a confirmed booking of the student’s own: the group’s time, tutor and price, a reference and an invitation', async () => {
    const group = await openGroup();
    const thandi = await signInAs(server, 'student', { name: 'Thandi Mokoena' });
    const id = crypto.randomUUID();
    const response = await takeSeat(thandi.client, group.id, id);
    expect(response.status, response.text).toBe(201);
    const booking = bookingSchema.parse(response.body);
    expect(booking).toMatchObject({
      id,
      status: 'Confirmed',
      date: group.date,
      confirmedSlot: '14:00',
      hours: 2,
      totalCents: 150_00,
      concepts: 'Regression',
      tutor: { id: musa.id, name: 'Musa Stats' },
      group: { id: group.id },
    });
    expect(booking.paymentReference).toMatch(/^TB-/);
    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' });
    expect(email.text).toContain(booking.paymentReference);
    expect(email.attachments.map((a) => a.contentType)).toContainEqual(expect.stringMatching(/^text\/calendar/));
    // The same request again is answered with the seat; a second seat is refused.
    expect((await takeSeat(thandi.client, group.id, id)).status).toBe(200);
    const again = expectApiError(await takeSeat(thandi.client, group.id), 409, 'groups.already_seated');
    expect(again.message).toBe(groupMessages.alreadySeated);
    expect((await listed(group.id))?.taken).toBe(1);
    // The tutor sees who is coming in their bookings.
    const theirs = (await musa.client.get('/api/bookings?category=Statistics')).body.bookings as Booking[];
    expect(theirs.find((b) => b.id === id)?.student.name).toBe('Thandi Mokoena');
  });

  test('20 students at once for 3 seats: exactly 3 seats taken, the other 17 told it is full', async () => {
    const group = await openGroup({ seats: 3 });
    const students = await Promise.all(Array.from({ length: 20 }, () => signInAs(server, 'student')));
    const answers = await Promise.all(students.map((s) => takeSeat(s.client, group.id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(17);
    for (const answer of refused) expect(expectApiError(answer, 409, 'groups.full').message).toBe(groupMessages.full);
    expect((await listed(group.id))?.taken).toBe(3);
    const seats = (await admin.client.get('/api/bookings?category=Statistics')).body.bookings as Booking[];
    expect(seats.filter((b) => b.group?.id === group.id && b.status === 'Confirmed')).toHaveLength(3);
  });

  test('a cancelled seat goes back; staff setting it back takes it again only if one is free', async () => {
    const group = await openGroup({ seats: 2 });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => signInAs(server, 'student')));
    const seatA = (await takeSeat(a!.client, group.id)).body as Booking;
    expect((await takeSeat(b!.client, group.id)).status).toBe(201);
    expectApiError(await takeSeat(c!.client, group.id), 409, 'groups.full');
    const cancelled = await a!.client.post(`/api/bookings/${seatA.id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await listed(group.id))?.taken).toBe(1);
    expect((await takeSeat(c!.client, group.id)).status).toBe(201);
    // Back to Confirmed: the group is full again, so staff are refused.
    const back = await musa.client.put(`/api/bookings/${seatA.id}/status`, {
      status: 'Confirmed',
      version: cancelled.body.version,
    });
    expectApiError(back, 409, 'groups.full');
  });

  test('refused: a seat moved on its own, a group started or unknown, a visitor, the group’s own tutor', async () => {
    const group = await openGroup();
    const student = await signInAs(server, 'student');
    const seat = (await takeSeat(student.client, group.id)).body as Booking;
    const move = await student.client.post(`/api/bookings/${seat.id}/reschedule`, {
      date: freshDate(),
      slots: ['09:00', '10:00', '11:00'],
      version: seat.version,
    });
    expect(expectApiError(move, 409, 'groups.seat_not_moved').message).toBe(groupMessages.seatNotMoved);
    const staffMove = await musa.client.post(`/api/bookings/${seat.id}/move`, {
      date: freshDate(),
      slot: '09:00',
      version: seat.version,
    });
    expectApiError(staffMove, 409, 'groups.seat_not_moved');
    expectApiError(await takeSeat(musa.client, group.id), 403, 'auth.forbidden');
    expectApiError(await takeSeat(student.client, crypto.randomUUID()), 404, 'groups.not_found');
    expectApiError(await takeSeat(createClient(server.url), group.id), 401, 'auth.unauthenticated');

    // A group whose time has come: stored directly, as none can be opened in the past.
    const started = { ...group, id: crypto.randomUUID(), date: sastDate(new Date(Date.now() - day)) };
    await server.services.deps.repos.groups.insert({
      ...started,
      priceCents: started.priceCents,
      tutor: { id: musa.id, name: 'Musa Stats' },
      taken: [],
      createdAt: new Date().toISOString(),
    });
    expectApiError(await takeSeat(student.client, started.id), 409, 'groups.started');
    expect(await listed(started.id)).toBeUndefined();
  });

  test('an account deleted: the student’s seat goes back; a tutor’s group stays, under “Deleted user”', async () => {
    const leaving = await signInAs(server, 'tutor', { name: 'Leaving Tutor', categories: ['Statistics'] });
    const response = await open(leaving.client, { seats: 2 });
    expect(response.status, response.text).toBe(201);
    const group = groupSessionSchema.parse(response.body);
    const student = await signInAs(server, 'student');
    expect((await takeSeat(student.client, group.id)).status).toBe(201);
    expect((await listed(group.id))?.taken).toBe(1);
    expect((await student.client.delete('/api/me')).status).toBe(200);
    expect((await listed(group.id))?.taken).toBe(0);
    expect((await leaving.client.delete('/api/me')).status).toBe(200);
    expect(await listed(group.id)).toMatchObject({ tutorName: 'Deleted user', taken: 0 });
    expect(await server.services.deps.repos.groups.ofTutor(leaving.id)).toEqual([]);
  });
});
