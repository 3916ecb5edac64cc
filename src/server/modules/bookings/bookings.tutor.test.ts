import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingMessages, bookingPageSchema, bookingSchema, type Booking } from '../../../common/bookings.ts';
import { dateAfter } from '../../../common/availability.ts';
import { categoryAvailabilitySchema, freeTimesDays } from '../../../common/availability-api.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import {
  createVerifiedUser,
  expectApiError,
  logIn,
  onFirestore,
  signInAs,
  startSmtpServer,
  startTestServer,
  withCookiesOf,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { startProcessBeside } from '../../test/main-process.ts';

/**
 * A booking's tutor and "never booked twice" (issue 36): the tutor who confirms, or whom the admin names, is the
 * session's, shown to the student; a confirmation that overlaps another confirmed session of that tutor is
 * refused with the clash named, even when two staff confirm at once, in one process or in two. A server of its
 * own: which tutors each category has is part of what is tested (Statistics two, Computer Science one).
 */
let smtp: TestSmtpServer;
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;
let lindiwe: Person;
let sipho: Person;
let ayanda: Person;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  [admin, musa, lindiwe, sipho, ayanda] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    signInAs(server, 'tutor', { name: 'Lindiwe Stats', categories: ['Statistics'] }),
    signInAs(server, 'tutor', { name: 'Sipho Code', categories: ['Computer Science'] }),
    signInAs(server, 'tutor', { name: 'Ayanda Maths', categories: ['Mathematics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
/** A date of its own for each test, three days from any other's: no session of another test is near it. */
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (10 + 3 * dates++) * day));
const dayAfter = (date: string) => sastDate(new Date(Date.parse(`${date}T12:00:00Z`) + day));

/** A student of their own for each booking: no test's requests count against another's hourly limit. */
async function book(fields: { date: string; slots: string[]; hours?: number; module?: string }): Promise<Booking> {
  const student = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
  const client = await logIn(server, student);
  const response = await client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 1,
    concepts: 'Hypothesis testing',
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

const confirm = (client: TestClient, b: Pick<Booking, 'id' | 'version'>, slot: string, tutorId?: string) =>
  client.post(`/api/bookings/${b.id}/confirm`, { slot, version: b.version, ...(tutorId ? { tutorId } : {}) });

/** The bookings of `date` as the admin reads them now. */
async function onDate(date: string): Promise<Booking[]> {
  const response = await admin.client.get(`/api/bookings?from=${date}&to=${date}`);
  expect(response.status, response.text).toBe(200);
  return bookingPageSchema.parse(response.body).bookings;
}

/** The refusal's words: "15:00 on Thu, 03 Dec 2026 overlaps your 13:30 session." (the day of another date's). */
const clash = (slot: string, date: string, other: { start: string; date?: string }, whose = 'your') =>
  `${slot} on ${formatSastDate(date)} overlaps ${whose} ${other.start} session${
    other.date && other.date !== date ? ` on ${formatSastDate(other.date)}` : ''
  }.`;

describe("a booking's tutor", () => {
  test('the tutor who confirms is its tutor: on the student’s booking, in the confirmation and in the invitation', async () => {
    const booking = await book({ date: freshDate(), slots: ['14:00', '09:00', '17:30'], hours: 2 });
    expect(booking.tutor).toBeNull();
    const response = await confirm(musa.client, booking, '14:00');
    expect(response.status, response.text).toBe(200);
    expect(bookingSchema.parse(response.body).tutor).toEqual({ id: musa.id, name: 'Musa Stats' });

    const email = await smtp.waitForEmail({ to: booking.student.email, subject: 'Session confirmed' });
    expect(email.text).toContain('Your session with Musa Stats is confirmed for');
    expect(email.text).toContain('Tutor: Musa Stats');
    // Lines of an .ics longer than 75 octets are folded: a line break and a space.
    const ics = email.attachments[0]!.content.replace(/\r\n[ \t]/g, '');
    expect(ics).toMatch(/^DESCRIPTION:2 hours of tutoring with Musa Stats\./m);
  });

  test('the admin names a tutor of the category, else is refused; without one, the category’s only tutor, or none of two', async () => {
    const date = freshDate();
    const slots = ['09:00', '11:00', '13:00'];
    const stats = await book({ date, slots });
    expectApiError(await confirm(admin.client, stats, '09:00', ayanda.id), 400, 'bookings.not_a_tutor');
    expectApiError(await confirm(admin.client, stats, '09:00', 'nobody'), 400, 'bookings.not_a_tutor');
    // A tutor confirms as themself, and names nobody else.
    expectApiError(await confirm(musa.client, stats, '09:00', lindiwe.id), 403, 'auth.forbidden');
    const named = await confirm(admin.client, stats, '09:00', lindiwe.id);
    expect(named.status, named.text).toBe(200);
    expect(named.body.tutor).toEqual({ id: lindiwe.id, name: 'Lindiwe Stats' });

    // Statistics has two tutors: the admin's confirmation without a name leaves it to neither.
    const twoTutors = await confirm(admin.client, await book({ date, slots }), '11:00');
    expect(twoTutors.body.tutor).toBeNull();
    // Computer Science has one.
    const oneTutor = await confirm(admin.client, await book({ date, slots, module: 'Java OOP and GUI' }), '13:00');
    expect(oneTutor.body.tutor).toEqual({ id: sipho.id, name: 'Sipho Code' });
    // A custom subject has no category, and so no tutor to name.
    const custom = await book({ date, slots, module: 'Knitting for beginners' });
    expectApiError(await confirm(admin.client, custom, '09:00', musa.id), 400, 'bookings.not_a_tutor');
    expect((await confirm(admin.client, custom, '09:00')).body.tutor).toBeNull();
  });

  test('a tutor’s rename reaches the bookings they tutor; their account’s deletion leaves "Deleted user"', async () => {
    const date = freshDate();
    const tutor = await signInAs(server, 'tutor', { name: 'Bongani Stats', categories: ['Statistics'] });
    const own = await confirm(tutor.client, await book({ date, slots: ['09:00', '10:00', '11:00'] }), '09:00');
    // Named by the admin: the tutor never changed this one themself.
    const named = await confirm(
      admin.client,
      await book({ date, slots: ['12:00', '13:00', '14:00'] }),
      '12:00',
      tutor.id,
    );
    expect([own.status, named.status]).toEqual([200, 200]);
    expect((await tutor.client.put('/api/me/name', { name: 'Dr Bongani Stats' })).status).toBe(200);
    const renamed = (await onDate(date)).filter((b) => b.tutor?.id === tutor.id);
    expect(renamed.map((b) => b.tutor!.name)).toEqual(['Dr Bongani Stats', 'Dr Bongani Stats']);

    expect((await tutor.client.delete('/api/me')).status).toBe(200);
    const after = (await onDate(date)).filter((b) => b.id === own.body.id || b.id === named.body.id);
    expect(after.map((b) => b.tutor)).toEqual([
      { id: null, name: bookingMessages.deletedUser },
      { id: null, name: bookingMessages.deletedUser },
    ]);
  });
});

describe('when the tutors are taken, for the booking page’s free times', () => {
  test('a student reads the category’s confirmed times of the next four weeks: tutor, date, start, length, nothing else', async () => {
    // Days `freshDate` never gives (10, 13, 16, …): another test counting a date's sessions finds none of these.
    const soon = sastDate(new Date(Date.now() + 5 * day));
    const afterTheWeeks = sastDate(new Date(Date.now() + (freeTimesDays + 2) * day));
    const [confirmed, pending, later] = await Promise.all([
      book({ date: soon, slots: ['09:00', '10:00', '11:00'], hours: 2 }),
      book({ date: soon, slots: ['15:00', '16:00', '17:00'] }),
      book({ date: afterTheWeeks, slots: ['09:00', '10:00', '11:00'] }),
    ]);
    expect((await confirm(musa.client, confirmed, '10:00')).status).toBe(200);
    expect((await confirm(musa.client, later, '09:00')).status).toBe(200);
    const codeBooking = await book({
      date: soon,
      slots: ['09:00', '10:00', '11:00'],
      module: 'Data Structures and Algorithms',
    });
    expect((await confirm(sipho.client, codeBooking, '09:00')).status).toBe(200);

    const student = await signInAs(server, 'student');
    const response = await student.client.get('/api/availability?category=Statistics');
    expect(response.status, response.text).toBe(200);
    const answer = categoryAvailabilitySchema.parse(response.body);
    const today = sastDate(new Date());
    expect([answer.from, answer.to]).toEqual([dateAfter(today, -1), dateAfter(today, freeTimesDays)]);
    // Musa's confirmed session; not the pending request, not the one after the four weeks, not Sipho's.
    const mine = answer.busy.filter((b) => b.date === soon || b.date === later.date);
    expect(mine).toEqual([{ tutorId: musa.id, date: soon, start: '10:00', hours: 2 }]);
    for (const entry of response.body.busy)
      expect(Object.keys(entry).sort()).toEqual(['date', 'hours', 'start', 'tutorId']);
    expect(response.text).not.toContain('Thandi');
    expect(response.text).not.toContain(pending.id);
  });
});

describe('a tutor is never booked twice', () => {
  test('a time that overlaps the tutor’s confirmed session is refused, the clash named; other times and tutors are free', async () => {
    const date = freshDate();
    const first = await book({ date, slots: ['13:30', '09:00', '17:30'], hours: 2 });
    expect((await confirm(musa.client, first, '13:30')).status).toBe(200);

    const second = await book({ date, slots: ['15:00', '15:30', '08:00'] });
    const refused = expectApiError(await confirm(musa.client, second, '15:00'), 409, 'bookings.clash');
    expect(refused.message).toBe(clash('15:00', date, { start: '13:30' }));
    expect(refused.message).toBe(`15:00 on ${formatSastDate(date)} overlaps your 13:30 session.`);
    // The admin reads whose session it is.
    const forAdmin = expectApiError(await confirm(admin.client, second, '15:00', musa.id), 409, 'bookings.clash');
    expect(forAdmin.message).toBe(`15:00 on ${formatSastDate(date)} overlaps Musa Stats’s 13:30 session.`);
    // 15:30 starts as the first session ends.
    const after = await confirm(musa.client, second, '15:30');
    expect(after.status, after.text).toBe(200);

    // Another tutor's sessions never clash with Musa's.
    const third = await book({ date, slots: ['14:00', '10:00', '11:00'] });
    expect((await confirm(lindiwe.client, third, '14:00')).status).toBe(200);
    expect(
      (await onDate(date))
        .map((b) => [b.confirmedSlot, b.tutor?.name, b.status])
        .sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    ).toEqual([
      ['13:30', 'Musa Stats', 'Confirmed'],
      ['14:00', 'Lindiwe Stats', 'Confirmed'],
      ['15:30', 'Musa Stats', 'Confirmed'],
    ]);
  });

  test('the buffer the tutor keeps (their availability) is free of sessions too; the refusal says it is too close', async () => {
    const weekly = Array.from({ length: 7 }, () => [{ start: '08:00', end: '20:00' }]);
    const saved = await ayanda.client.put(`/api/availability/${ayanda.id}`, { weekly, daysOff: [], bufferMinutes: 30 });
    expect(saved.status, saved.text).toBe(200);
    const date = freshDate();
    const module = 'Introduction To Calculus';
    const first = await book({ date, slots: ['13:30', '09:00', '17:30'], hours: 2, module });
    expect((await confirm(ayanda.client, first, '13:30')).status).toBe(200);

    const second = await book({ date, slots: ['15:45', '16:00', '08:00'], module });
    const refused = expectApiError(await confirm(ayanda.client, second, '15:45'), 409, 'bookings.clash');
    expect(refused.message).toBe(
      `15:45 on ${formatSastDate(date)} is too close to your 13:30 session, within the buffer kept between sessions.`,
    );
    // Half an hour after the first ends is free.
    const after = await confirm(ayanda.client, second, '16:00');
    expect(after.status, after.text).toBe(200);
  });

  test('a session late in the evening runs into the next day: its morning time that overlaps is refused', async () => {
    const date = freshDate();
    const next = dayAfter(date);
    const evening = await book({ date, slots: ['22:00', '20:00', '21:00'], hours: 4 });
    expect((await confirm(musa.client, evening, '22:00')).status).toBe(200);
    const morning = await book({ date: next, slots: ['01:00', '02:00', '03:00'] });
    const refused = expectApiError(await confirm(musa.client, morning, '01:00'), 409, 'bookings.clash');
    expect(refused.message).toBe(clash('01:00', next, { start: '22:00', date }));
    expect(refused.message).toContain(`overlaps your 22:00 session on ${formatSastDate(date)}`);
    expect((await confirm(musa.client, morning, '02:00')).status).toBe(200);
  });

  test('a cancelled session frees the time; set back to Confirmed, it is checked again', async () => {
    const date = freshDate();
    const student = await createVerifiedUser(server, { name: 'Lwazi Ndlovu' });
    const client = await logIn(server, student);
    const made = await client.post('/api/bookings', {
      id: crypto.randomUUID(),
      module: 'Introduction to Statistics',
      date,
      slots: ['14:00', '09:00', '11:00'],
      hours: 2,
      concepts: 'ANOVA',
    });
    const first = bookingSchema.parse((await confirm(musa.client, bookingSchema.parse(made.body), '14:00')).body);
    const second = await book({ date, slots: ['15:00', '08:00', '18:00'] });
    expectApiError(await confirm(musa.client, second, '15:00'), 409, 'bookings.clash');

    const cancelled = bookingSchema.parse((await client.post(`/api/bookings/${first.id}/cancel`)).body);
    expect(cancelled.status).toBe('Cancelled');
    expect((await confirm(musa.client, second, '15:00')).status).toBe(200);

    const back = await admin.client.put(`/api/bookings/${first.id}/status`, {
      status: 'Confirmed',
      version: cancelled.version,
    });
    const refused = expectApiError(back, 409, 'bookings.clash');
    expect(refused.message).toBe(clash('14:00', date, { start: '15:00' }, 'Musa Stats’s'));
    expect((await onDate(date)).find((b) => b.id === first.id)!.status).toBe('Cancelled');
  });

  /** Two staff confirm two overlapping requests of `tutor` at once, `where` each: one is confirmed, one refused. */
  async function confirmAtOnce(clients: [tutor: TestClient, admin: TestClient], tutorId: string) {
    // One round on Firestore, whose emulator resolves each such race in seconds.
    for (let round = 0; round < (onFirestore ? 1 : 3); round++) {
      const date = freshDate();
      const [a, b] = await Promise.all([
        book({ date, slots: ['14:00', '09:00', '17:00'], hours: 2 }),
        book({ date, slots: ['14:30', '10:00', '18:00'], hours: 2 }),
      ]);
      const answers = await Promise.all([confirm(clients[0], a, '14:00'), confirm(clients[1], b, '14:30', tutorId)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = expectApiError(
        answers.find((r) => r.status === 409)!,
        409,
        'bookings.clash',
      );
      expect(refused.message).toMatch(/^14:(00|30) on .* overlaps (your|Musa Stats’s) 14:(00|30) session\.$/);
      expect((await onDate(date)).filter((x) => x.status === 'Confirmed')).toHaveLength(1);
    }
  }

  test('two staff confirming overlapping requests of one tutor at once: one is confirmed, the other told the clash', async () => {
    await confirmAtOnce([musa.client, admin.client], musa.id);
  });

  // Two processes on one SQL database; Firestore's: firestore-server.test.ts starts them, the case above covers
  // its transactions.
  describe.runIf(!onFirestore)('in two server processes', () => {
    let second: Awaited<ReturnType<typeof startProcessBeside>> | undefined;
    beforeAll(async () => {
      second = await startProcessBeside(server);
    });
    afterAll(async () => second?.stop());

    test('two staff confirming overlapping requests of one tutor, one in each process: one is confirmed', async () => {
      await confirmAtOnce([musa.client, withCookiesOf(admin.client, second!.url)], musa.id);
    });
  });
});
