import { accessChanged } from '../../events/events.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bookingChangesSchema,
  bookingLimits,
  bookingMessages,
  bookingPageSchema,
  bookingSchema,
  type Booking,
  type BookingCategory,
} from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import type { Category } from '../../../common/roles.ts';
import { formatSastDate, sastDate, sastInstant } from '../../../common/sast.ts';
import { textMessages } from '../../../common/validation.ts';
import { changeOf, openEventStream } from '../../test/event-stream.ts';
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
  waitFor,
  sqlVersion,
  onFirestore,
} from '../../test/harness.ts';
import { storedBookings, storedEmails } from '../../test/stored.ts';
import { confirmedEmail } from './bookings.emails.ts';
import { sendDueReminders, uniquePaymentReference } from './bookings.usecases.ts';

const eftDetails = 'Bank: FNB; Account name: TutorBook (Pty) Ltd; Account number: 62 1234 5678; Branch code: 250655';

let smtp: TestSmtpServer;
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let statsTutor: Person;
let mathsTutor: Person;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, env: { PAYMENT_EFT_DETAILS: eftDetails } });
  [admin, statsTutor, mathsTutor] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    signInAs(server, 'tutor', { name: 'Ayanda Maths', categories: ['Mathematics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const hour = 3_600_000;
const day = 24 * hour;

/** A student of their own, so one test's bookings never count against another's rate limit. */
async function newStudent(name = 'Thandi Mokoena') {
  const account = await createVerifiedUser(server, { name });
  return { ...account, client: await logIn(server, account) };
}

async function newTutor(categories: Category[], name = 'Sizwe Tutor') {
  return signInAs(server, 'tutor', { name, categories });
}

/** A date `days` from now, SAST. */
const inDays = (days: number) => sastDate(new Date(Date.now() + days * day));

/**
 * Each request on a day of its own (10 days ahead and on): the tests' tutors confirm many of them, and a tutor's
 * sessions at one time would clash (issue 36); the tests of clashes choose their dates.
 */
let requestDays = 0;
const nextDay = () => inDays(10 + (requestDays++ % 300));

const request = (fields: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  module: 'Introduction to Statistics',
  date: nextDay(),
  slots: ['09:00', '14:00', '17:30'],
  hours: 2,
  concepts: 'Hypothesis testing and p-values',
  ...fields,
});

async function book(client: TestClient, fields: Record<string, unknown> = {}): Promise<Booking> {
  const response = await client.post('/api/bookings', request(fields));
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

const put = (client: TestClient, path: string, body: unknown) =>
  client.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const confirm = (client: TestClient, b: Pick<Booking, 'id' | 'version'>, slot: string) =>
  client.post(`/api/bookings/${b.id}/confirm`, { slot, version: b.version });
const setStatus = (
  client: TestClient,
  b: Pick<Booking, 'id' | 'version'>,
  status: string,
  extra: { beforeStart?: boolean } = {},
) => put(client, `/api/bookings/${b.id}/status`, { status, version: b.version, ...extra });
/** Completed ahead of the session, as staff do once warned. */
const early = { beforeStart: true };
const cancel = (client: TestClient, id: string) => client.post(`/api/bookings/${id}/cancel`);

/** The booking as stored now, read through the API as the admin sees it (its version only grows). */
async function read(known: Pick<Booking, 'id' | 'version'>): Promise<Booking | undefined> {
  // Firestore's shards have no order across them: from the start there.
  for (let version: number | string = onFirestore ? 0 : known.version - 1; ;) {
    const page = bookingChangesSchema.parse((await admin.client.get(`/api/bookings?since=${version}`)).body);
    const found = page.bookings.find((b) => b.id === known.id);
    if (found || !page.more) return found;
    // On SQL the answer's version is the one counter; on Firestore a position with a version per shard.
    version = onFirestore ? String(page.version) : sqlVersion(page.version);
  }
}

/** The e-mails queued about a booking (by its payment reference): who to, and what kind. */
async function queuedAbout(b: Booking) {
  const emails = (await storedEmails(server.services)).filter((e) => e.text.includes(b.paymentReference));
  return emails.map((e) => `${e.kind} ${e.to}`).sort();
}

/** Runs `work` with the server's clock at `time` (the booking rules read `deps.clock`). */
async function at<T>(time: Date | number, work: () => Promise<T>): Promise<T> {
  const clock = server.services.deps.clock;
  const real = clock.now;
  clock.now = () => new Date(time);
  try {
    return await work();
  } finally {
    clock.now = real;
  }
}

/** The e-mail to `to` about this booking (its payment reference) with this subject, as the SMTP server got it. */
const emailAbout = (to: string, b: Booking, subject: string) =>
  waitFor(
    async () =>
      smtp.messages.find(
        (m) => m.to.includes(to.toLowerCase()) && m.subject.startsWith(subject) && m.text.includes(b.paymentReference),
      ),
    `${subject} to ${to}`,
  );

const countStored = async (id: string) => ((await server.services.deps.repos.bookings.findById(id)) ? 1 : 0);

describe('booking a session', () => {
  test('a booking is Pending and keeps the module, category and rate as booked, with a payment reference and the request in its history', async () => {
    const student = await newStudent('Sipho Dlamini');
    const input = request({
      module: '  introduction to STATISTICS ',
      concepts: '  Hypothesis testing\nand p-values  ',
    });
    const response = await student.client.post('/api/bookings', input);
    expect(response.status, response.text).toBe(201);
    const booking = bookingSchema.parse(response.body);
    expect(booking).toMatchObject({
      id: input.id,
      student: { id: student.id, name: 'Sipho Dlamini', email: student.email },
      moduleName: 'Introduction to Statistics',
      moduleCategory: 'Statistics',
      date: input.date,
      slots: ['09:00', '14:00', '17:30'],
      confirmedSlot: null,
      hours: 2,
      concepts: 'Hypothesis testing\nand p-values',
      status: 'Pending',
      priceCentsPerHour: 80_00,
      totalCents: 160_00,
      lateCancellation: false,
    });
    expect(booking.paymentReference).toMatch(/^TB-[A-HJKMNP-Z2-9]{6}$/);
    expect(booking.history).toEqual([
      {
        at: booking.createdAt,
        by: { id: student.id, name: 'Sipho Dlamini', role: 'student' },
        from: null,
        to: 'Pending',
        slot: null,
      },
    ]);
    expect(await read(booking)).toEqual(booking);
  });

  test('a payment reference a booking holds is not handed out again: another is drawn until one is free', async () => {
    const { bookings } = server.services.deps.repos;
    const held = (await book((await newStudent()).client)).paymentReference;
    expect(await bookings.isPaymentReferenceTaken(held)).toBe(true);
    // References are drawn at random: here the first two draws are answered as taken, as `held` would be.
    const drawn: string[] = [];
    const reference = await uniquePaymentReference({
      isPaymentReferenceTaken: (candidate) => Promise.resolve(drawn.push(candidate) <= 2),
    });
    expect(drawn).toHaveLength(3);
    expect(reference).toBe(drawn[2]);
    expect(await bookings.isPaymentReferenceTaken(reference)).toBe(false);
  });

  test('the tutors of the category and the admin get the request, and the student a receipt, each with every field', async () => {
    const student = await newStudent('Naledi Khumalo');
    const otherStatsTutor = await newTutor(['Statistics', 'Computer Science'], 'Second Stats Tutor');
    const booking = await book(student.client, { hours: 3 });
    expect(await queuedAbout(booking)).toEqual(
      [
        `booking-receipt ${student.email}`,
        `booking-request ${admin.email}`,
        `booking-request ${statsTutor.email}`,
        `booking-request ${otherStatsTutor.email}`,
      ].sort(),
    );
    const everyField = [
      'Introduction to Statistics',
      'Category: Statistics',
      formatSastDate(booking.date),
      '09:00, 14:00 and 17:30 (SAST)',
      'Hours: 3',
      'Rate: R80 per hour',
      'Total: R240',
      'Hypothesis testing and p-values',
      'Naledi Khumalo',
      student.email,
      booking.paymentReference,
    ];
    const toTutor = await emailAbout(statsTutor.email, booking, 'New booking request: Introduction to Statistics');
    const toAdmin = await emailAbout(admin.email, booking, 'New booking request: Introduction to Statistics');
    const receipt = await emailAbout(student.email, booking, 'Booking request received');
    for (const email of [toTutor, toAdmin, receipt])
      for (const field of everyField) expect(email.text).toContain(field);
    expect(toTutor.text).toContain(`${server.url}/tutor-dashboard`);
    expect(toAdmin.text).toContain(`${server.url}/admin-dashboard`);
    expect(receipt.html).toContain('Naledi Khumalo');
    // The maths tutor hears nothing of a statistics booking.
    expect(
      smtp.messages.filter((m) => m.to.includes(mathsTutor.email) && m.text.includes(booking.paymentReference)),
    ).toEqual([]);
  });

  test('a module the catalogue does not know is a custom subject: Uncategorized, at the R100 session fee, and only the admin hears of it', async () => {
    const student = await newStudent();
    const booking = await book(student.client, { module: 'Quantum Basket Weaving', hours: 1 });
    expect(booking).toMatchObject({
      moduleName: 'Quantum Basket Weaving',
      moduleCategory: 'Uncategorized',
      priceCentsPerHour: bookingLimits.customRateCents,
      totalCents: 100_00,
    });
    expect(await queuedAbout(booking)).toEqual([`booking-receipt ${student.email}`, `booking-request ${admin.email}`]);
  });

  test('a later price change does not alter a booking already made', async () => {
    const student = await newStudent();
    const before = await book(student.client, { module: 'FET Physical Science', hours: 2 });
    expect(before).toMatchObject({ moduleCategory: 'Mathematics', priceCentsPerHour: 100_00, totalCents: 200_00 });
    const modules = (await createClient(server.url).get('/api/modules')).body.modules as {
      id: string;
      name: string;
      priceCents: number;
    }[];
    const module = modules.find((m) => m.name === 'FET Physical Science')!;
    const raised = await admin.client.post(`/api/modules/${module.id}/raise-price`);
    expect(raised.status, raised.text).toBe(200);
    try {
      expect(await read(before)).toMatchObject({ priceCentsPerHour: 100_00, totalCents: 200_00 });
      expect(await book(student.client, { module: 'FET Physical Science', hours: 2 })).toMatchObject({
        priceCentsPerHour: 110_00,
        totalCents: 220_00,
      });
    } finally {
      await admin.client.patch(`/api/modules/${module.id}`, { priceCents: module.priceCents });
    }
  });

  test.each([
    ['a past date', { date: inDays(-3) }, / has passed; the earliest is \d\d:\d\d on .* SAST\.$/],
    ['a date inside the lead time', { date: inDays(1) }, /is less than 48 hours away; the earliest is \d\d:\d\d/],
    ['a date more than a year ahead', { date: inDays(bookingLimits.maxDaysAhead + 1) }, /at most a year ahead/],
    ['the year 9999', { date: '9999-01-01' }, /at most a year ahead/],
    ['a date that is not on the calendar', { date: '2031-02-30' }, bookingMessages.dateInvalid],
    ['a date in another format', { date: '24/11/2031' }, bookingMessages.dateInvalid],
    ['no date', { date: undefined }, bookingMessages.dateInvalid],
    ['a repeated slot', { slots: ['09:00', '09:00', '14:00'] }, bookingMessages.slotsDistinct],
    ['two slots', { slots: ['09:00', '14:00'] }, bookingMessages.slotsRequired],
    ['four slots', { slots: ['09:00', '10:00', '11:00', '12:00'] }, bookingMessages.slotsRequired],
    ['a slot past midnight', { slots: ['09:00', '14:00', '24:00'] }, bookingMessages.slotInvalid],
    ['a slot in words', { slots: ['9am', '14:00', '17:30'] }, bookingMessages.slotInvalid],
    ['an empty slot', { slots: ['', '14:00', '17:30'] }, bookingMessages.slotInvalid],
    ['0 hours', { hours: 0 }, bookingMessages.hoursInvalid],
    ['9 hours', { hours: 9 }, bookingMessages.hoursInvalid],
    ['1.5 hours', { hours: 1.5 }, bookingMessages.hoursInvalid],
    ['hours as text', { hours: '2' }, bookingMessages.hoursInvalid],
    ['empty concepts', { concepts: '' }, bookingMessages.conceptsRequired],
    ['blank concepts', { concepts: ' \n ' }, bookingMessages.conceptsRequired],
    [
      'concepts over 2,000 characters',
      { concepts: 'x'.repeat(bookingLimits.conceptsMax + 1) },
      bookingMessages.conceptsTooLong,
    ],
    ['no module', { module: '  ' }, bookingMessages.moduleRequired],
    ['an id that is not a UUID', { id: 'booking-1' }, undefined],
    ['an unknown field', { price: 1 }, 'Unknown field: price.'],
  ])('%s is refused with a clear message and nothing is stored', async (_, fields, message) => {
    const { client } = await newStudent();
    const input = request(fields);
    const response = await client.post('/api/bookings', input);
    expect(response.status, response.text).toBe(400);
    const code =
      message instanceof RegExp
        ? String(message).includes('year')
          ? 'bookings.too_far'
          : 'bookings.too_soon'
        : 'request.invalid';
    const error = expectApiError(response, 400, code);
    if (message instanceof RegExp) expect(error.message).toMatch(message);
    else if (message) expect(error.message).toBe(message);
    if (typeof input.id === 'string' && input.id.length === 36) expect(await countStored(input.id)).toBe(0);
    expect((await client.get('/api/bookings')).body.bookings).toEqual([]);
  });

  test('concepts of exactly 2,000 characters are taken', async () => {
    const { client } = await newStudent();
    expect((await book(client, { concepts: 'y'.repeat(bookingLimits.conceptsMax) })).concepts).toHaveLength(
      bookingLimits.conceptsMax,
    );
  });

  test('every slot must start at least the lead time after now, to the minute; the refusal names the times and the earliest', async () => {
    const { client } = await newStudent();
    const now = sastInstant('2031-03-10', '09:00');
    const input = request({ date: '2031-03-12', slots: ['09:00', '12:00', '15:00'] });
    await at(now.getTime() + 60_000, async () => {
      const error = expectApiError(await client.post('/api/bookings', input), 400, 'bookings.too_soon');
      const message = '09:00 on Wed, 12 Mar 2031 is less than 48 hours away; the earliest is 09:01 SAST.';
      expect(error.message).toBe(message);
      expect(error.fields).toEqual({ slots: message });
    });
    // Seconds past the minute: the earliest time accepted is the next whole minute.
    await at(now.getTime() + 3 * 3_600_000 + 20_000, async () => {
      expect(expectApiError(await client.post('/api/bookings', input), 400, 'bookings.too_soon').message).toBe(
        '09:00 and 12:00 on Wed, 12 Mar 2031 are less than 48 hours away; the earliest is 12:01 SAST.',
      );
    });
    // No time on the date would do: the message is about the date, and names the earliest day.
    await at(now, async () => {
      const error = expectApiError(
        await client.post('/api/bookings', { ...input, date: '2031-03-11' }),
        400,
        'bookings.too_soon',
      );
      expect(error.fields).toEqual({
        date: 'Tue, 11 Mar 2031 is less than 48 hours away; the earliest is 09:00 on Wed, 12 Mar 2031 SAST.',
      });
    });
    await at(now, async () => expect((await client.post('/api/bookings', input)).status).toBe(201));
    expect((await client.get('/api/bookings')).body.bookings).toHaveLength(1);
  });

  test('a date up to a year ahead is taken, a day later is refused next to the date', async () => {
    const { client } = await newStudent();
    const now = sastInstant('2030-03-10', '09:00');
    await at(now, async () => {
      const error = expectApiError(
        await client.post('/api/bookings', request({ date: '2031-03-11' })),
        400,
        'bookings.too_far',
      );
      expect(error.fields).toEqual({ date: bookingMessages.tooFar('2031-03-10') });
      expect((await client.post('/api/bookings', request({ date: '2031-03-10' }))).status).toBe(201);
    });
    expect((await client.get('/api/bookings')).body.bookings.map((b: Booking) => b.date)).toEqual(['2031-03-10']);
  });

  test('a visitor is asked to log in for every booking call', async () => {
    const visitor = createClient(server.url);
    const id = crypto.randomUUID();
    expectApiError(await visitor.post('/api/bookings', request({ id })), 401, 'auth.unauthenticated');
    expectApiError(await visitor.get('/api/bookings'), 401, 'auth.unauthenticated');
    expectApiError(await confirm(visitor, { id, version: 1 }, '09:00'), 401, 'auth.unauthenticated');
    expectApiError(await setStatus(visitor, { id, version: 1 }, 'Completed'), 401, 'auth.unauthenticated');
    expectApiError(await cancel(visitor, id), 401, 'auth.unauthenticated');
    expect(await countStored(id)).toBe(0);
  });

  test('staff may book for themselves', async () => {
    const tutor = await newTutor(['Mathematics']);
    const booking = await book(tutor.client, { module: 'Java OOP and GUI' });
    expect(booking).toMatchObject({ student: { id: tutor.id }, moduleCategory: 'Computer Science' });
    // Their own booking is in their list, though not in their category.
    expect(bookingPageSchema.parse((await tutor.client.get('/api/bookings')).body).bookings.map((b) => b.id)).toContain(
      booking.id,
    );
  });
});

describe("what a booking's text may hold", () => {
  const forged = 'Statistics\nPayment reference: TB-FORGED';
  test.each([
    ['a line break in the module', { module: forged }, textMessages.oneLine],
    ['a NUL in the module', { module: 'Statistics\u0000' }, textMessages.oneLine],
    ['a right-to-left override in the module', { module: 'Statistics \u202Efdp.exe' }, textMessages.oneLine],
    ['a line separator in the module', { module: 'Statistics\u2028Total: R0' }, textMessages.oneLine],
    ['a NUL in the concepts', { concepts: 'p-values\u0000' }, textMessages.multiLine],
    ['an escape sequence in the concepts', { concepts: 'p-values \u001b[2J' }, textMessages.multiLine],
    ['a right-to-left isolate in the concepts', { concepts: 'p-values \u2067gnitset\u2069' }, textMessages.multiLine],
    [
      'a next-line control (C1) in the concepts',
      { concepts: 'p-values\u0085Payment reference: TB-X' },
      textMessages.multiLine,
    ],
  ])('%s is refused with a clear message; nothing is stored or e-mailed', async (_, fields, message) => {
    const student = await newStudent();
    const input = request(fields);
    const error = expectApiError(await student.client.post('/api/bookings', input), 400, 'request.invalid');
    expect(error.message).toBe(message);
    expect(await countStored(input.id)).toBe(0);
    const queued = (await storedEmails(server.services)).filter(
      (e) => (e.text.includes('TB-FORGED') || e.to === student.email) && e.kind.startsWith('booking-'),
    );
    expect(queued).toEqual([]);
  });

  test('concepts keep their lines and tabs, quoted in the e-mails so none passes for a field of ours', async () => {
    const student = await newStudent();
    // Windows' and old Macs' line breaks arrive as the one a textarea gives.
    const concepts = 'Hypothesis testing\r\n\tp-values\rPayment reference: TB-FORGED';
    const booking = await book(student.client, { concepts });
    expect(booking.concepts).toBe('Hypothesis testing\n\tp-values\nPayment reference: TB-FORGED');
    const toTutor = await emailAbout(statsTutor.email, booking, 'New booking request');
    expect(toTutor.text).toContain('Concepts:\n> Hypothesis testing\n> \tp-values\n> Payment reference: TB-FORGED\n');
    expect(toTutor.text.match(/^Payment reference: .*$/gm)).toEqual([`Payment reference: ${booking.paymentReference}`]);
  });
});

describe('a request sent more than once', () => {
  test('the same request again (its answer was lost) books nothing new, even once the date is too close, and gets the stored booking', async () => {
    const student = await newStudent();
    const input = request();
    const first = await student.client.post('/api/bookings', input);
    expect(first.status).toBe(201);
    const queued = await queuedAbout(first.body as Booking);
    const again = await student.client.post('/api/bookings', { ...input, module: 'INTRODUCTION TO STATISTICS' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const late = await at(sastInstant(input.date, '08:00'), () => student.client.post('/api/bookings', input));
    expect(late.status, late.text).toBe(200);
    expect(await countStored(input.id)).toBe(1);
    expect(await queuedAbout(first.body as Booking)).toEqual(queued);
  });

  test('the same id with other details, or from another user, is a conflict and changes nothing', async () => {
    const student = await newStudent();
    const other = await newStudent();
    const input = request();
    const stored = await book(student.client, input);
    for (const changed of [
      { hours: 3 },
      { slots: ['09:00', '14:00', '18:00'] },
      { concepts: 'Something else' },
      { date: inDays(11) },
      { module: 'FET Mathematics' },
    ]) {
      const response = await student.client.post('/api/bookings', { ...input, ...changed });
      expect(expectApiError(response, 409, 'bookings.id_reused').message).toBe(bookingMessages.idReused);
    }
    expectApiError(await other.client.post('/api/bookings', input), 409, 'bookings.id_reused');
    expect(await read(stored)).toEqual(stored);
  });

  test('the same request sent five times at once is stored once, and every request succeeds', async () => {
    const { client } = await newStudent();
    const input = request();
    const responses = await Promise.all(Array.from({ length: 5 }, () => client.post('/api/bookings', input)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(await countStored(input.id)).toBe(1);
  });

  test(`a user may send ${bookingLimits.requestsPerHour} requests in an hour; a repeat of one still gets its answer`, async () => {
    const { client } = await newStudent();
    const inputs = Array.from({ length: bookingLimits.requestsPerHour }, () => request());
    for (const input of inputs) expect((await client.post('/api/bookings', input)).status).toBe(201);
    const oneTooMany = request();
    expect(expectApiError(await client.post('/api/bookings', oneTooMany), 429, 'bookings.rate_limited').message).toBe(
      bookingMessages.rateLimited,
    );
    expect(await countStored(oneTooMany.id)).toBe(0);
    expect((await client.post('/api/bookings', inputs[0])).status).toBe(200);
    await at(Date.now() + hour + 60_000, async () =>
      expect((await client.post('/api/bookings', oneTooMany)).status).toBe(201),
    );
  });
});

describe('who sees which bookings', () => {
  test("a student sees their own, a tutor their categories' (and their own), the admin all, uncategorised ones included", async () => {
    const [a, b] = [await newStudent(), await newStudent()];
    const stats = await book(a.client, { module: 'Introduction to Statistics' });
    const maths = await book(a.client, { module: 'FET Mathematics' });
    const custom = await book(b.client, { module: 'Astronomy for Beginners' });
    const ids = async (client: TestClient) =>
      bookingPageSchema.parse((await client.get('/api/bookings')).body).bookings.map((x) => x.id);

    expect((await ids(a.client)).sort()).toEqual([stats.id, maths.id].sort());
    expect(await ids(b.client)).toEqual([custom.id]);
    expect(await ids(statsTutor.client)).toContain(stats.id);
    expect(await ids(statsTutor.client)).not.toContain(maths.id);
    expect(await ids(statsTutor.client)).not.toContain(custom.id);
    expect(await ids(mathsTutor.client)).toContain(maths.id);
    expect(await ids(mathsTutor.client)).not.toContain(stats.id);
    const all = bookingPageSchema
      .parse((await admin.client.get(`/api/bookings?category=Uncategorized`)).body)
      .bookings.map((x) => x.id);
    expect(all).toContain(custom.id);

    // The same holds for changes since a version.
    const since = async (client: TestClient) =>
      bookingChangesSchema.parse((await client.get('/api/bookings?since=0')).body);
    expect((await since(b.client)).bookings.map((x) => x.id)).toEqual([custom.id]);
    const statsChanges = [];
    for (
      let page = await since(statsTutor.client);
      ;
      page = bookingChangesSchema.parse((await statsTutor.client.get(`/api/bookings?since=${page.version}`)).body)
    ) {
      statsChanges.push(...page.bookings);
      if (!page.more) break;
    }
    expect(statsChanges.map((x) => x.id)).toContain(stats.id);
    expect(statsChanges.every((x) => x.moduleCategory === 'Statistics' || x.student.id === statsTutor.id)).toBe(true);
  });

  test('a tutor with no category gets an empty list, and the session says they have no category', async () => {
    const student = await newStudent();
    await book(student.client);
    // `staff add` refuses a tutor without a category: this one loses theirs afterwards.
    const tutor = await newTutor(['Statistics']);
    await server.services.deps.repos.accounts.setRole(tutor.id, 'tutor', [], new Date());
    // As every change of a role does (staff.usecases.ts): the servers drop what they kept of the session.
    server.services.deps.events.publish(accessChanged([tutor.id]));
    expect((await tutor.client.get('/api/session')).body.user).toMatchObject({ role: 'tutor', categories: [] });
    expect((await tutor.client.get('/api/bookings')).body).toEqual({ bookings: [], nextCursor: null });
    expect(bookingChangesSchema.parse((await tutor.client.get('/api/bookings?since=0')).body).bookings).toEqual([]);
  });

  test('a list read again while nothing changed is the page read before; a change, another category or another reader reads anew', async () => {
    const repository = server.services.deps.repos.bookings;
    const list = repository.list;
    let reads = 0;
    repository.list = (filter) => {
      reads++;
      return list(filter);
    };
    try {
      const [student, other] = [await newStudent(), await newStudent()];
      const tutor = await newTutor(['Statistics']);
      const page = async (client: TestClient) => bookingPageSchema.parse((await client.get('/api/bookings')).body);
      const ids = async (client: TestClient) => (await page(client)).bookings.map((b) => b.id);

      expect(await page(student.client)).toEqual({ bookings: [], nextCursor: null });
      let readsBefore = reads;
      expect(await page(student.client)).toEqual({ bookings: [], nextCursor: null });
      expect(reads, 'the second read is the kept page').toBe(readsBefore);

      const booked = await book(student.client, { module: 'Introduction to Statistics' });
      expect(await ids(student.client)).toEqual([booked.id]);
      expect(await ids(other.client)).toEqual([]);
      expect(await ids(tutor.client)).toContain(booked.id);
      readsBefore = reads;
      expect(await ids(tutor.client)).toContain(booked.id);
      expect(reads).toBe(readsBefore);

      // No booking changes, but the tutor's categories do: their list is read again.
      await server.services.deps.repos.accounts.setRole(tutor.id, 'tutor', ['Mathematics'], new Date());
      server.services.deps.events.publish(accessChanged([tutor.id]));
      expect(await ids(tutor.client)).not.toContain(booked.id);

      // Another's change to the booking reaches the student's list, which they read just before.
      expect((await confirm(statsTutor.client, booked, '14:00')).status).toBe(200);
      const [confirmed] = (await page(student.client)).bookings;
      expect(confirmed).toMatchObject({ id: booked.id, status: 'Confirmed', confirmedSlot: '14:00' });
      // A filter is a question of its own.
      expect(bookingPageSchema.parse((await student.client.get('/api/bookings?status=Pending')).body).bookings).toEqual(
        [],
      );
    } finally {
      repository.list = list;
    }
  });

  test("pages of 50, newest session first, across a tutor's categories, with filters by status, category and date", async () => {
    // Written through the repository (the API's rate limit would take hours): 60 statistics and 50 maths
    // sessions in 2032, several on one date.
    const student = await newStudent();
    const rows = Array.from({ length: 110 }, (_, n) => {
      const category: BookingCategory = n < 60 ? 'Statistics' : 'Mathematics';
      const date = `2032-0${1 + (n % 6)}-${String(1 + (n % 7)).padStart(2, '0')}`;
      return {
        id: crypto.randomUUID(),
        student: { id: student.id, name: student.name, email: student.email },
        moduleName: category === 'Statistics' ? 'Introduction to Statistics' : 'FET Mathematics',
        moduleCategory: category,
        priceCentsPerHour: 80_00,
        totalCents: 80_00,
        date,
        slots: ['09:00', '10:00', '11:00'],
        confirmedSlot: null,
        startsAt: sastInstant(date, '09:00').toISOString(),
        hours: 1,
        concepts: `Concept ${n}`,
        status: n % 5 === 0 ? ('Completed' as const) : ('Pending' as const),
        lateCancellation: false,
        paymentReference: `TB-T${String(n).padStart(5, '0')}`,
        reminderSentAt: null,
        createdAt: new Date(Date.UTC(2031, 0, 1) + (n % 3) * 1000).toISOString(),
        updatedAt: new Date().toISOString(),
        tutor: null,
      };
    });
    for (const row of rows) await server.services.deps.repos.bookings.insert(row, { shard: 0, version: 0 });
    const newestFirst = [...rows].sort((x, y) =>
      x.date !== y.date
        ? x.date < y.date
          ? 1
          : -1
        : x.createdAt !== y.createdAt
          ? x.createdAt < y.createdAt
            ? 1
            : -1
          : x.id < y.id
            ? 1
            : -1,
    );
    const both = await newTutor(['Mathematics', 'Statistics'], 'Two Categories');

    async function walk(client: TestClient, filters: string) {
      const pages: string[][] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const response = await client.get(
          `/api/bookings?${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(response.status, response.text).toBe(200);
        const page = bookingPageSchema.parse(response.body);
        pages.push(page.bookings.map((b) => b.id));
        cursor = page.nextCursor;
      }
      return pages;
    }
    const year = 'from=2032-01-01&to=2032-12-31';
    expect(await walk(admin.client, year)).toEqual(
      [newestFirst.slice(0, 50), newestFirst.slice(50, 100), newestFirst.slice(100)].map((p) => p.map((r) => r.id)),
    );
    expect((await walk(both.client, year)).flat()).toEqual(newestFirst.map((r) => r.id));
    expect((await walk(statsTutor.client, year)).flat()).toEqual(
      newestFirst.filter((r) => r.moduleCategory === 'Statistics').map((r) => r.id),
    );
    expect((await walk(student.client, year)).map((p) => p.length)).toEqual([50, 50, 10]);
    expect((await walk(both.client, `${year}&category=Mathematics&status=Completed`)).flat()).toEqual(
      newestFirst.filter((r) => r.moduleCategory === 'Mathematics' && r.status === 'Completed').map((r) => r.id),
    );
    expect((await walk(admin.client, 'from=2032-03-01&to=2032-03-31')).flat()).toEqual(
      newestFirst.filter((r) => r.date.startsWith('2032-03')).map((r) => r.id),
    );
    // A category that is not theirs shows a tutor nothing.
    expect((await walk(mathsTutor.client, `${year}&category=Statistics`)).flat()).toEqual([]);
  });

  test.each([
    ['status=Done', 'status'],
    ['category=Astrology', 'category'],
    ['from=2032-02-30', 'from'],
    ['to=tomorrow', 'to'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['since=abc', 'since'],
    ['since=-1', 'since'],
    ['since=1&status=Pending', '_form'],
    ['colour=blue', '_form'],
    ['status=Pending&status=Completed', 'status'],
    ['from=2032-03-31&to=2032-03-01', 'to'],
  ])('a list asked for with %s is refused', async (query, field) => {
    const error = expectApiError(await admin.client.get(`/api/bookings?${query}`), 400, 'request.invalid');
    expect(error.fields).toHaveProperty(field);
    if (field === 'status') expect(error.message).toBe(bookingMessages.statusInvalid);
    if (query.startsWith('from=2032-03-31')) expect(error.message).toBe(bookingMessages.dateRangeReversed);
  });
});

/**
 * Ids from a URL and cursors from a query string that no booking can have: on Firestore each would name a
 * document path (`a/b`, `..`, a reserved `__…__` name, over 1,500 bytes), which Firestore refuses with an
 * error. Every engine answers them as it answers any unknown id or cursor.
 */
describe('ids and pages no booking can have', () => {
  const hostileIds = [
    ['a%2Fb', 'a%2Fb'],
    ['..%2f', '..%2f'],
    ['__proto__', '__proto__'],
    ['__name__', '__name__'],
    ['1,600 bytes long', 'x'.repeat(1600)],
  ];
  const cursorOf = (id: string) =>
    Buffer.from(JSON.stringify(['2032-01-10', '2026-01-01T00:00:00.000Z', id])).toString('base64url');

  test.each(hostileIds)('%s is no booking to confirm, set or cancel, for staff and students alike', async (_, id) => {
    const student = await newStudent();
    const booking = { id, version: 1 };
    expectApiError(await confirm(admin.client, booking, '09:00'), 404, 'bookings.not_found');
    expectApiError(await setStatus(admin.client, booking, 'Cancelled'), 404, 'bookings.not_found');
    expectApiError(await setStatus(statsTutor.client, booking, 'Completed', early), 404, 'bookings.not_found');
    expectApiError(await cancel(student.client, id), 404, 'bookings.not_found');
  });

  test.each(['..', 'a/b', '__proto__', '', '__name__'])(
    'a cursor naming the booking "%s" was never given out: refused with the words of any other',
    async (id) => {
      const student = await newStudent();
      for (const client of [admin.client, statsTutor.client, student.client]) {
        const error = expectApiError(await client.get(`/api/bookings?cursor=${cursorOf(id)}`), 400, 'request.invalid');
        expect(error.fields).toEqual({ cursor: 'This page of bookings cannot be found. Please reload the list.' });
      }
    },
  );

  test.each(['__proto__', '..', '.', '__Proto__'])(
    'a custom subject named "%s" is booked like any other, and found again as the same subject',
    async (module) => {
      const student = await newStudent();
      const booking = await book(student.client, { module, hours: 1 });
      expect(booking).toMatchObject({ moduleName: module, moduleCategory: 'Uncategorized' });
      const again = await book(student.client, { module, date: inDays(11), hours: 1 });
      expect(again).toMatchObject({ moduleName: module, moduleCategory: 'Uncategorized' });
    },
  );
});

describe('confirming a time', () => {
  test('the tutor confirms one of the three slots: Confirmed with that time, a new version, and the change in the history', async () => {
    const student = await newStudent('Bongani Zulu');
    const booking = await book(student.client, { hours: 2 });
    const response = await confirm(statsTutor.client, booking, '14:00');
    expect(response.status, response.text).toBe(200);
    const confirmed = bookingSchema.parse(response.body);
    expect(confirmed).toMatchObject({ status: 'Confirmed', confirmedSlot: '14:00', slots: booking.slots });
    expect(confirmed.version).toBeGreaterThan(booking.version);
    expect(confirmed.history.at(-1)).toEqual({
      at: expect.any(String),
      by: { id: statsTutor.id, name: 'Musa Stats', role: 'tutor' },
      from: 'Pending',
      to: 'Confirmed',
      slot: '14:00',
    });
    expect(await read(booking)).toEqual(confirmed);
  });

  test('the student gets the time in SAST, a calendar invitation for 14:00 SAST, the amount, the EFT details and the reference', async () => {
    const student = await newStudent('Bongani Zulu');
    const booking = await book(student.client, { hours: 2, module: 'Java OOP and GUI' });
    expect((await confirm(admin.client, booking, '14:00')).status).toBe(200);
    const email = await smtp.waitForEmail({ to: student.email, subject: 'Session confirmed' });
    expect(email.subject).toBe(`Session confirmed: Java OOP and GUI, ${formatSastDate(booking.date)}, 14:00 SAST`);
    for (const line of ['Amount due: R180.', booking.paymentReference, ...eftDetails.split('; ')])
      expect(email.text).toContain(line);

    expect(email.attachments).toHaveLength(1);
    const ics = email.attachments[0]!;
    expect(ics.filename).toMatch(/\.ics$/);
    expect(ics.contentType).toBe('text/calendar');
    const event = /BEGIN:VEVENT[\s\S]*?END:VEVENT/.exec(ics.content)![0];
    const field = (name: string) => new RegExp(`^${name}(;[^:]*)?:(.*?)\r?$`, 'm').exec(event);
    const start = field('DTSTART')!;
    expect(start[1]).toBe(';TZID=Africa/Johannesburg');
    expect(start[2]).toBe(`${booking.date.replaceAll('-', '')}T140000`);
    expect(field('DTEND')![2]).toBe(`${booking.date.replaceAll('-', '')}T160000`);
    // The zone the invitation names is UTC+2 all year, so the session starts at 14:00 SAST, 12:00 UTC.
    const zone = /BEGIN:VTIMEZONE[\s\S]*?END:VTIMEZONE/.exec(ics.content)![0];
    expect(zone).toContain('TZID:Africa/Johannesburg');
    expect(zone).toMatch(/TZOFFSETTO:\+0200/);
    expect(zone).not.toMatch(/TZOFFSETTO:(?!\+0200)/);
    expect(sastInstant(booking.date, '14:00').toISOString()).toBe(`${booking.date}T12:00:00.000Z`);
    expect(field('DTSTAMP')![2]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(field('SUMMARY')![2]).toContain('Java OOP and GUI');
  });

  test("the invitation says 14:00 in Johannesburg, and stamps UTC, whatever the machine's own time zone", async () => {
    const student = await newStudent();
    const booking = await at(new Date('2031-11-20T10:00:00Z'), () => book(student.client, { date: '2031-11-24' }));
    const invitationIn = (zone: string) => {
      // eslint-disable-next-line no-restricted-properties -- the machine's zone is what this test varies
      const machine = process.env;
      const before = machine.TZ;
      machine.TZ = zone;
      try {
        const email = confirmedEmail(booking, '14:00', {
          publicUrl: server.url,
          eftDetails: undefined,
          now: new Date('2031-11-20T10:00:00Z'),
          withInvitation: true,
        });
        return email.attachments![0]!.content;
      } finally {
        if (before === undefined) delete machine.TZ;
        else machine.TZ = before;
      }
    };
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Africa/Johannesburg']) {
      const ics = invitationIn(zone);
      expect(ics, zone).toContain('DTSTART;TZID=Africa/Johannesburg:20311124T140000');
      expect(ics, zone).toContain('DTEND;TZID=Africa/Johannesburg:20311124T160000');
      expect(ics, zone).toContain('DTSTAMP:20311120T100000Z');
    }
  });

  test.each([
    [
      'a slot that was not requested',
      { slot: '15:00' },
      400,
      'bookings.slot_not_requested',
      bookingMessages.slotNotRequested,
    ],
    ['no slot', { slot: '' }, 400, 'request.invalid', bookingMessages.selectSlot],
    ['a stale version', { version: -1 }, 409, 'bookings.changed', bookingMessages.changedMeanwhile],
    ['no version', { version: undefined }, 400, 'request.invalid', undefined],
  ])('%s is refused and changes nothing', async (_, fields, status, code, message) => {
    const student = await newStudent();
    const booking = await book(student.client);
    const response = await statsTutor.client.post(`/api/bookings/${booking.id}/confirm`, {
      slot: '09:00',
      version: booking.version,
      ...fields,
    });
    const error = expectApiError(response, status, code);
    if (message) expect(error.message).toBe(message);
    expect(await read(booking)).toEqual(booking);
  });

  test('a student cannot confirm, not even their own booking; a tutor of another category finds no such booking', async () => {
    const student = await newStudent();
    const booking = await book(student.client);
    expectApiError(await confirm(student.client, booking, '09:00'), 403, 'auth.forbidden');
    expectApiError(await confirm(mathsTutor.client, booking, '09:00'), 404, 'bookings.not_found');
    expectApiError(
      await confirm(statsTutor.client, { id: crypto.randomUUID(), version: 1 }, '09:00'),
      404,
      'bookings.not_found',
    );
    // A tutor's own booking in another category is theirs to see, not to confirm.
    const own = await book(mathsTutor.client);
    expectApiError(await confirm(mathsTutor.client, own, '09:00'), 403, 'auth.forbidden');
    expect(await read(booking)).toEqual(booking);
    expect(await read(own)).toEqual(own);
  });

  test('a cancelled or completed booking cannot be confirmed: refused, and it stays as it was', async () => {
    const student = await newStudent();
    for (const status of ['Cancelled', 'Completed'] as const) {
      const booking = await book(student.client);
      const set = bookingSchema.parse((await setStatus(statsTutor.client, booking, status, early)).body);
      for (const staff of [statsTutor, admin]) {
        const error = expectApiError(await confirm(staff.client, set, '09:00'), 409, 'bookings.cannot_confirm');
        expect(error.message).toBe(bookingMessages.cannotConfirm);
      }
      expect(await read(set)).toEqual(set);
      expect((await queuedAbout(booking)).filter((e) => e.startsWith('booking-confirmed'))).toEqual([]);
    }
  });

  test('a tutor cannot confirm or set the status of a booking they made in their own subject', async () => {
    const tutor = await newTutor(['Statistics'], 'Own Booker');
    const own = await book(tutor.client);
    for (const response of [
      await confirm(tutor.client, own, '09:00'),
      await setStatus(tutor.client, own, 'Completed', early),
      await setStatus(tutor.client, own, 'Confirmed'),
    ]) {
      expect(expectApiError(response, 403, 'bookings.own_booking').message).toBe(bookingMessages.ownBooking);
    }
    expect(await read(own)).toEqual(own);
    // Another tutor of the category (and the admin) still can.
    expect((await confirm(statsTutor.client, own, '09:00')).status).toBe(200);
  });

  test('confirming a confirmed booking at another time tells the student the time changed, from what to what', async () => {
    const student = await newStudent('Moved Student');
    const booking = await book(student.client, { hours: 1 });
    const first = bookingSchema.parse((await confirm(statsTutor.client, booking, '09:00')).body);
    await smtp.waitForEmail({ to: student.email, subject: 'Session confirmed' });
    const moved = await confirm(admin.client, first, '14:00');
    expect(moved.status, moved.text).toBe(200);
    const email = await smtp.waitForEmail({ to: student.email, subject: 'Session time changed' });
    expect(email.subject).toBe(
      `Session time changed: Introduction to Statistics, now ${formatSastDate(booking.date)}, 14:00 SAST`,
    );
    expect(email.text).toContain(`changed from 09:00 to 14:00 SAST`);
    expect(email.text).toContain(booking.paymentReference);
    expect(email.attachments[0]!.content).toContain(
      `DTSTART;TZID=Africa/Johannesburg:${booking.date.replaceAll('-', '')}T140000`,
    );
    const kinds = (await queuedAbout(booking)).filter((e) => e.endsWith(student.email)).map((e) => e.split(' ')[0]);
    expect(kinds.sort()).toEqual(['booking-confirmed', 'booking-receipt', 'booking-time-changed']);
  });

  test('the same confirmation sent again is answered with the booking, changed and e-mailed once', async () => {
    const student = await newStudent();
    const booking = await book(student.client);
    const first = await confirm(statsTutor.client, booking, '17:30');
    const again = await confirm(statsTutor.client, booking, '17:30');
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await queuedAbout(booking)).filter((e) => e.startsWith('booking-confirmed'))).toHaveLength(1);
  });

  test('two staff confirming different slots at once: one wins, the other is told it changed meanwhile', async () => {
    const student = await newStudent();
    for (let round = 0; round < 5; round++) {
      const booking = await book(student.client);
      const [tutorAnswer, adminAnswer] = await Promise.all([
        confirm(statsTutor.client, booking, '09:00'),
        confirm(admin.client, booking, '17:30'),
      ]);
      const answers = [tutorAnswer, adminAnswer];
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = answers.find((r) => r.status === 200)!;
      expectApiError(
        answers.find((r) => r.status === 409)!,
        409,
        'bookings.changed',
      );
      const stored = await read(booking);
      expect(stored).toEqual(winner.body);
      expect(stored!.history.filter((c) => c.to === 'Confirmed')).toHaveLength(1);
      expect((await queuedAbout(booking)).filter((e) => e.startsWith('booking-confirmed'))).toHaveLength(1);
    }
  });
});

describe('setting a status', () => {
  test('staff set any of the four statuses in any order; the student hears of Completed and Cancelled', async () => {
    const student = await newStudent();
    let booking = await book(student.client);
    for (const status of ['Completed', 'Pending', 'Cancelled', 'Confirmed', 'Cancelled'] as const) {
      const response = await setStatus(statsTutor.client, booking, status, early);
      expect(response.status, response.text).toBe(200);
      booking = bookingSchema.parse(response.body);
      expect(booking.status).toBe(status);
    }
    expect(booking.history.map((c) => [c.from, c.to])).toEqual([
      [null, 'Pending'],
      ['Pending', 'Completed'],
      ['Completed', 'Pending'],
      ['Pending', 'Cancelled'],
      ['Cancelled', 'Confirmed'],
      ['Confirmed', 'Cancelled'],
    ]);
    const kinds = (await queuedAbout(booking)).filter((e) => e.endsWith(student.email)).map((e) => e.split(' ')[0]);
    expect(kinds.sort()).toEqual(['booking-cancelled', 'booking-cancelled', 'booking-completed', 'booking-receipt']);
    await smtp.waitForEmail({ to: student.email, subject: 'Session completed' });
    const cancelled = await smtp.waitForEmail({ to: student.email, subject: 'Booking cancelled' });
    expect(cancelled.text).toContain(bookingMessages.cancelled);
  });

  test('the admin sets the status of an uncategorised booking; the status it already has changes nothing', async () => {
    const student = await newStudent();
    const booking = await book(student.client, { module: 'Origami' });
    const same = await setStatus(admin.client, booking, 'Pending');
    expect(same.body).toEqual(booking);
    const done = await setStatus(admin.client, booking, 'Completed', early);
    expect(done.body).toMatchObject({ status: 'Completed' });
    expectApiError(
      await setStatus(statsTutor.client, bookingSchema.parse(done.body), 'Pending'),
      404,
      'bookings.not_found',
    );
  });

  test.each([
    ['an unknown status', { status: 'Done' }, 400, 'request.invalid', bookingMessages.statusInvalid],
    ['a status in lower case', { status: 'completed' }, 400, 'request.invalid', bookingMessages.statusInvalid],
    ['a stale version', { version: 0 }, 409, 'bookings.changed', bookingMessages.changedMeanwhile],
  ])('%s is refused and changes nothing', async (_, fields, status, code, message) => {
    const student = await newStudent();
    const booking = await book(student.client);
    const response = await put(statsTutor.client, `/api/bookings/${booking.id}/status`, {
      status: 'Completed',
      version: booking.version,
      ...fields,
    });
    expect(expectApiError(response, status, code).message).toBe(message);
    expect(await read(booking)).toEqual(booking);
  });

  test('completed before the session starts is refused unless staff say so; then the student is e-mailed', async () => {
    const student = await newStudent('Early Student');
    const booking = await book(student.client);
    const confirmed = bookingSchema.parse((await confirm(statsTutor.client, booking, '14:00')).body);
    const error = expectApiError(
      await setStatus(statsTutor.client, confirmed, 'Completed'),
      409,
      'bookings.not_started',
    );
    expect(error.message).toBe(bookingMessages.notStartedYet(`${formatSastDate(booking.date)}, 14:00 SAST`));
    expect(await read(confirmed)).toEqual(confirmed);
    expect((await queuedAbout(booking)).filter((e) => e.startsWith('booking-completed'))).toEqual([]);
    // Once the session has started, no confirmation is needed.
    const started = await at(sastInstant(booking.date, '14:05'), () => setStatus(admin.client, confirmed, 'Completed'));
    expect(started.status, started.text).toBe(200);
    await smtp.waitForEmail({ to: student.email, subject: 'Session completed' });

    const other = await book(student.client);
    const said = await setStatus(admin.client, other, 'Completed', early);
    expect(said.status, said.text).toBe(200);
    expect((await queuedAbout(other)).filter((e) => e.startsWith('booking-completed'))).toHaveLength(1);
  });

  test('a student cannot set a status; a tutor of another category finds no such booking', async () => {
    const student = await newStudent();
    const booking = await book(student.client);
    expectApiError(await setStatus(student.client, booking, 'Completed'), 403, 'auth.forbidden');
    expectApiError(await setStatus(mathsTutor.client, booking, 'Completed'), 404, 'bookings.not_found');
    expect(await read(booking)).toEqual(booking);
  });
});

describe('a student cancelling', () => {
  test('more than 24 hours ahead it cancels; the tutors are told; cancelling again is harmless', async () => {
    const student = await newStudent();
    const booking = await book(student.client);
    const response = await cancel(student.client, booking.id);
    expect(response.status, response.text).toBe(200);
    const cancelled = bookingSchema.parse(response.body);
    expect(cancelled).toMatchObject({ status: 'Cancelled', lateCancellation: false });
    expect(cancelled.history.at(-1)).toMatchObject({
      by: { id: student.id, role: 'student' },
      from: 'Pending',
      to: 'Cancelled',
    });
    expect((await smtp.waitForEmail({ to: student.email, subject: 'Booking cancelled' })).text).toContain(
      bookingMessages.cancelled,
    );
    expect(await queuedAbout(booking)).toEqual(
      expect.arrayContaining([`booking-cancelled-staff ${statsTutor.email}`, `booking-cancelled-staff ${admin.email}`]),
    );
    const again = await cancel(student.client, booking.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled);
  });

  test('within 24 hours of the confirmed time it cancels and records the late-cancellation fee', async () => {
    const student = await newStudent();
    const booking = await book(student.client, { hours: 2 });
    // 26.5 hours before the confirmed 17:30 but only 18 before the earliest requested 09:00: not late.
    const early = await newStudent();
    const other = await book(early.client, { date: booking.date });
    await confirm(statsTutor.client, other, '17:30');
    const notLate = await at(sastInstant(booking.date, '17:30').getTime() - 26.5 * hour, () =>
      cancel(early.client, other.id),
    );
    expect(notLate.body).toMatchObject({ status: 'Cancelled', lateCancellation: false });
    // Its cancellation freed the tutor's 17:30.
    const confirmed = bookingSchema.parse((await confirm(statsTutor.client, booking, '17:30')).body);

    const late = await at(sastInstant(booking.date, '17:30').getTime() - 20 * hour, () =>
      cancel(student.client, confirmed.id),
    );
    expect(late.status, late.text).toBe(200);
    expect(late.body).toMatchObject({
      status: 'Cancelled',
      lateCancellation: true,
      history: expect.arrayContaining([expect.objectContaining({ from: 'Confirmed', to: 'Cancelled' })]),
    });
    const email = await smtp.waitForEmail({ to: student.email, subject: 'Booking cancelled' });
    // What to pay, in rand, with which reference and into which account.
    expect(email.text).toContain('the late-cancellation fee (50%, R80) applies.');
    expect(email.text).toContain(bookingMessages.cancelledLate(8000));
    expect(email.text).toContain(`Please pay it by EFT, with the payment reference ${booking.paymentReference}-F.`);
    for (const line of eftDetails.split('; ')) expect(email.text).toContain(line);
  });

  test("nobody cancels someone else's booking, staff use the status, and a completed booking cannot be cancelled", async () => {
    const [owner, other] = [await newStudent(), await newStudent()];
    const booking = await book(owner.client);
    expectApiError(await cancel(other.client, booking.id), 404, 'bookings.not_found');
    expectApiError(await cancel(admin.client, booking.id), 403, 'auth.forbidden');
    expectApiError(await cancel(statsTutor.client, booking.id), 403, 'auth.forbidden');
    expectApiError(await cancel(mathsTutor.client, booking.id), 404, 'bookings.not_found');
    expect(await read(booking)).toEqual(booking);
    const completed = bookingSchema.parse((await setStatus(statsTutor.client, booking, 'Completed', early)).body);
    expect(expectApiError(await cancel(owner.client, booking.id), 409, 'bookings.cannot_cancel').message).toBe(
      bookingMessages.cannotCancel,
    );
    expect(await read(booking)).toEqual(completed);
  });
});

describe('the reminder', () => {
  test('a confirmed session gets one reminder 24 hours before it starts, however many processes look', async () => {
    const student = await newStudent();
    // A date of its own: no other test's confirmed session falls in the window looked at.
    const date = inDays(40);
    const pendingOnly = await book((await newStudent()).client, { date });
    const booking = await book(student.client, { date });
    await confirm(statsTutor.client, booking, '14:00');
    const start = sastInstant(booking.date, '14:00').getTime();
    const deps = (now: number) => ({ ...server.services.deps, clock: { now: () => new Date(now) } });
    const reminded = async () => {
      const stored = await Promise.all(
        [booking.id, pendingOnly.id].map((id) => server.services.deps.repos.bookings.findById(id)),
      );
      return stored.map((b) => ({ reminder_sent_at: b!.reminderSentAt }));
    };

    expect(await sendDueReminders(deps(start - 25 * hour))).toBe(0);
    // Two processes at once: one claims it.
    const counts = await Promise.all([
      sendDueReminders(deps(start - 23 * hour)),
      sendDueReminders(deps(start - 23 * hour)),
    ]);
    expect(counts.reduce((a, b) => a + b)).toBe(1);
    expect(await sendDueReminders(deps(start - 22 * hour))).toBe(0);
    expect((await reminded()).filter((r) => r.reminder_sent_at !== null)).toHaveLength(1);

    const email = await smtp.waitForEmail({ to: student.email, subject: 'Reminder' });
    expect(email.subject).toBe(`Reminder: Introduction to Statistics, ${formatSastDate(booking.date)}, 14:00 SAST`);
    expect(email.text).toContain(booking.paymentReference);
    expect(email.text).toContain(`If you have not paid yet: ${formatRand(booking.totalCents)} by EFT`);
    expect((await queuedAbout(booking)).filter((e) => e.startsWith('booking-reminder'))).toHaveLength(1);
  });

  test('the reminder of a session paid says so, and asks for nothing', async () => {
    const student = await newStudent();
    const booking = await book(student.client, { date: inDays(41) });
    const confirmedAnswer = await confirm(statsTutor.client, booking, '14:00');
    expect(confirmedAnswer.status, confirmedAnswer.text).toBe(200);
    const confirmed = bookingSchema.parse(confirmedAnswer.body);
    const paid = await admin.client.post(`/api/bookings/${booking.id}/payments`, {
      id: crypto.randomUUID(),
      kind: 'payment',
      method: 'eft',
      amountCents: confirmed.totalCents,
      paidOn: sastDate(new Date()),
      note: '',
      version: confirmed.version,
    });
    expect(paid.status, paid.text).toBe(200);
    const start = sastInstant(booking.date, '14:00').getTime();
    await sendDueReminders({ ...server.services.deps, clock: { now: () => new Date(start - 23 * hour) } });
    const email = await smtp.waitForEmail({ to: student.email, subject: 'Reminder' });
    expect(email.text).toContain('It is paid: thank you.');
    expect(email.text).not.toContain('If you have not paid yet');
  });

  test('a cancelled session gets none, and one confirmed within 24 hours needs none', async () => {
    const student = await newStudent();
    const booking = await book(student.client, { date: inDays(41) });
    await confirm(statsTutor.client, booking, '09:00');
    await cancel(student.client, booking.id);
    const start = sastInstant(booking.date, '09:00').getTime();
    expect(await sendDueReminders({ ...server.services.deps, clock: { now: () => new Date(start - 2 * hour) } })).toBe(
      0,
    );

    const soon = await book(student.client, { date: inDays(42) });
    await at(sastInstant(soon.date, '09:00').getTime() - 10 * hour, () => confirm(statsTutor.client, soon, '09:00'));
    expect(
      await sendDueReminders({
        ...server.services.deps,
        clock: { now: () => new Date(sastInstant(soon.date, '09:00').getTime() - 5 * hour) },
      }),
    ).toBe(0);
    expect((await queuedAbout(soon)).filter((e) => e.startsWith('booking-reminder'))).toEqual([]);
  });
});

describe('live notices', () => {
  test("a change is heard by the student, the admin and the category's tutors, and by nobody else", async () => {
    const [student, stranger] = [await newStudent(), await newStudent()];
    const names = ['student', 'stranger', 'statsTutor', 'mathsTutor', 'admin'] as const;
    const clients = [student.client, stranger.client, statsTutor.client, mathsTutor.client, admin.client];
    const streams = await Promise.all(clients.map((c) => openEventStream(c)));
    try {
      const booking = await book(student.client);
      // A catalogue change reaches everyone and comes after the booking's notice: what a stream heard of this
      // booking before it, it heard.
      const modules = (await createClient(server.url).get('/api/modules')).body.modules as {
        id: string;
        priceCents: number;
      }[];
      await admin.client.post(`/api/modules/${modules[0]!.id}/raise-price`);
      await admin.client.patch(`/api/modules/${modules[0]!.id}`, { priceCents: modules[0]!.priceCents });
      const heardOfBooking = async (i: number) => {
        for (;;) {
          const change = changeOf(await streams[i]!.next((m) => m.event === 'change'));
          if (change.table === 'modules') return false;
          if (change.table === 'bookings' && change.ids.includes(booking.id)) return true;
        }
      };
      const result = Object.fromEntries(
        await Promise.all(names.map(async (name, i) => [name, await heardOfBooking(i)] as const)),
      );
      expect(result).toEqual({ student: true, stranger: false, statsTutor: true, mathsTutor: false, admin: true });
    } finally {
      for (const s of streams) s.abort();
    }
  });
});

describe('a deleted account', () => {
  test('the export holds the bookings with their history; deletion cancels future ones, scrubs all, and tells the staff', async () => {
    const leaving = await newStudent('Leaving Student');
    const future = await book(leaving.client, { concepts: 'Private worries about exams' });
    const confirmed = await book(leaving.client, { module: 'FET Mathematics' });
    await confirm(mathsTutor.client, confirmed, '14:00');
    const done = await book(leaving.client, { date: inDays(5) });
    await setStatus(statsTutor.client, done, 'Completed', early);

    const exported = (await leaving.client.get('/api/me/export')).body;
    expect(exported.bookings.map((b: Booking) => b.id).sort()).toEqual([future.id, confirmed.id, done.id].sort());
    expect(
      exported.bookings.find((b: Booking) => b.id === confirmed.id).history.map((c: { to: string }) => c.to),
    ).toEqual(['Pending', 'Confirmed']);
    expect(exported.bookings.find((b: Booking) => b.id === future.id).concepts).toBe('Private worries about exams');

    expect((await leaving.client.delete('/api/me')).status).toBe(200);
    const scrubbed = { student: { id: null, name: bookingMessages.deletedUser, email: '' }, concepts: '' };
    const after = await Promise.all([future, confirmed, done].map(read));
    expect(after[0]).toMatchObject({ ...scrubbed, status: 'Cancelled', lateCancellation: false });
    expect(after[1]).toMatchObject({ ...scrubbed, status: 'Cancelled', confirmedSlot: '14:00' });
    expect(after[2]).toMatchObject({ ...scrubbed, status: 'Completed' });
    expect(after[0]!.history.at(-1)).toEqual({
      at: expect.any(String),
      by: { id: null, name: bookingMessages.deletedUser, role: null },
      from: 'Pending',
      to: 'Cancelled',
      slot: null,
    });
    expect(after[0]!.history[0]!.by).toEqual({ id: null, name: bookingMessages.deletedUser, role: 'student' });
    expect(JSON.stringify(after)).not.toContain('Leaving Student');
    expect(JSON.stringify(after)).not.toContain(leaving.email);

    // The delivery log keeps nothing of theirs either: not the e-mails to them, nor the requests to staff.
    const log = await storedEmails(server.services);
    const theirs = log.filter(
      (e) =>
        e.aboutUserId === leaving.id ||
        [e.to, e.subject, e.text, e.html, e.attachments ?? ''].some((text) =>
          ['Leaving Student', leaving.email, 'Private worries'].some((data) => text.includes(data)),
        ),
    );
    expect(theirs).toEqual([]);
    // What the staff are told of the cancellations stays, and holds nothing of theirs.
    const kept = await queuedAbout(after[1]!);
    expect(kept).toEqual(
      expect.arrayContaining([`booking-cancelled-staff ${admin.email}`, `booking-cancelled-staff ${mathsTutor.email}`]),
    );
    expect(kept.every((e) => e.startsWith('booking-cancelled-staff '))).toBe(true);

    const notice = await emailAbout(mathsTutor.email, confirmed, 'Booking cancelled: FET Mathematics');
    expect(notice.text).toContain('the student deleted their account');
    expect(notice.text).not.toContain(leaving.email);
    expect(smtp.unclaimed({ to: leaving.email, subject: 'Booking cancelled' })).toEqual([]);
  });

  test('a tutor who deletes their account leaves the history as "Deleted user"', async () => {
    const student = await newStudent();
    const tutor = await newTutor(['Statistics'], 'Departing Tutor');
    const booking = await book(student.client);
    const confirmed = bookingSchema.parse((await confirm(tutor.client, booking, '09:00')).body);
    expect((await tutor.client.delete('/api/me')).status).toBe(200);
    const after = await read(confirmed);
    expect(after).toMatchObject({ status: 'Confirmed', student: { id: student.id, name: student.name } });
    expect(after!.history.at(-1)!.by).toEqual({ id: null, name: bookingMessages.deletedUser, role: 'tutor' });
    // A new version, so every device that holds the booking refreshes its history.
    expect(after!.version).toBeGreaterThan(confirmed.version);
  });
});

describe('a renamed account', () => {
  /** Every booking row, as stored, for comparing before and after a refusal. */
  const allBookings = () => storedBookings(server.services);

  test('the student’s bookings, older and newer, all show the name they have now, with new versions the staff and the student hear of', async () => {
    const student = await newStudent('Thandi Mokoena');
    const older = await book(student.client);
    const streams = await Promise.all([statsTutor.client, admin.client, student.client].map((c) => openEventStream(c)));
    try {
      expect((await student.client.put('/api/me/name', { name: 'Thandi Mokoena-Dube' })).status).toBe(200);
      const newer = await book(student.client, { date: inDays(12) });
      for (const booking of [await read(older), await read(newer)]) {
        expect(booking!.student.name).toBe('Thandi Mokoena-Dube');
        expect(booking!.history[0]!.by.name).toBe('Thandi Mokoena-Dube');
      }
      const renamed = (await read(older))!;
      // A new version, so every device that holds the booking refreshes it.
      expect(renamed.version).toBeGreaterThan(older.version);
      const heard = async (i: number) => {
        for (;;) {
          const change = changeOf(await streams[i]!.next((m) => m.event === 'change'));
          // The booking's own creation may still be on its way (PostgreSQL delivers it after the commit).
          if (change.table === 'bookings' && change.ids.includes(older.id) && (change.version ?? 0) > older.version) {
            return change.version;
          }
        }
      };
      expect(await Promise.all([0, 1, 2].map(heard))).toEqual([renamed.version, renamed.version, renamed.version]);
      // The student's own devices hear that the account changed (the welcome line follows it).
      const me = changeOf(await streams[2]!.next((m) => m.event === 'change' && changeOf(m).table === 'me'));
      expect(me.ids).toEqual([student.id]);
    } finally {
      for (const s of streams) s.abort();
    }
  });

  test('a tutor’s rename reaches the history of the bookings they confirmed, and nobody else’s name changes', async () => {
    const student = await newStudent('Nomsa Khumalo');
    const tutor = await newTutor(['Statistics'], 'Musa Dlamini');
    const confirmed = bookingSchema.parse((await confirm(tutor.client, await book(student.client), '09:00')).body);
    expect((await tutor.client.put('/api/me/name', { name: 'Dr Musa Dlamini' })).status).toBe(200);
    const after = (await read(confirmed))!;
    expect(after.history.map((c) => c.by.name)).toEqual(['Nomsa Khumalo', 'Dr Musa Dlamini']);
    expect(after.student.name).toBe('Nomsa Khumalo');
    expect(after.version).toBeGreaterThan(confirmed.version);
  });

  test('a refused rename (a visitor, another site, a bad name) leaves every booking as it was', async () => {
    const student = await newStudent('Zanele Mthembu');
    await book(student.client);
    const before = await allBookings();
    expectApiError(
      await createClient(server.url).put('/api/me/name', { name: 'Visitor' }),
      401,
      'auth.unauthenticated',
    );
    expectApiError(
      await student.client.put('/api/me/name', { name: 'Elsewhere' }, { headers: { origin: 'https://evil.example' } }),
      403,
      'request.invalid_origin',
    );
    expectApiError(await student.client.put('/api/me/name', { name: '  ' }), 400, 'request.invalid');
    expectApiError(await student.client.post('/api/auth/update-user', { name: 'Sideways' }), 404, 'request.not_found');
    expect(await allBookings()).toEqual(before);
  });
});
