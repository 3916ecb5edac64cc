import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingPageSchema, bookingSchema, type Booking } from '../../../common/bookings.ts';
import { noticeListSchema } from '../../../common/notices.ts';
import { questionSchema } from '../../../common/qa.ts';
import { sastDate } from '../../../common/sast.ts';
import { sessionOfferSchema, sessionOffersSchema } from '../../../common/session-notes.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../../test/harness.ts';

/**
 * From a question to a session (issue 39 §4), through the API on the engine under test: who may offer a session
 * on a question and see the offers; a booking linked to the asker's own question only; notes written after the
 * session by its staff, seen by its student; her consent, hers alone; the summary posted once, only with it.
 */

let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;
let mathsTutor: Person;
let visitor: TestClient;

beforeAll(async () => {
  server = await startTestServer({});
  [admin, musa, mathsTutor] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    signInAs(server, 'tutor', { name: 'Ayanda Maths', categories: ['Mathematics'] }),
  ]);
  visitor = createClient(server.url);
});

afterAll(async () => {
  await server?.close();
});

async function newStudent(name = 'Thandi Mokoena') {
  const account = await createVerifiedUser(server, { name });
  return { ...account, client: await logIn(server, account) };
}

async function ask(client: TestClient, title = 'How do I read a p-value?', module: string | null = null) {
  const id = crypto.randomUUID();
  const response = await client.post('/api/questions', { id, title, text: 'My p-value is 0.03. Now what?', module });
  expect(response.status, response.text).toBe(201);
  return questionSchema.parse(response.body);
}

let days = 0;
const request = (fields: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  module: 'Introduction to Statistics',
  date: sastDate(new Date(Date.now() + (10 + days++) * 86_400_000)),
  slots: ['09:00', '14:00', '17:30'],
  hours: 1,
  concepts: 'Hypothesis testing',
  ...fields,
});

const put = (client: TestClient, path: string, body: unknown) =>
  client.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function book(client: TestClient, fields: Record<string, unknown> = {}): Promise<Booking> {
  const response = await client.post('/api/bookings', request(fields));
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

/** Confirmed by Musa, then Completed by the admin (before it starts: the staff were warned). */
async function completed(b: Booking): Promise<Booking> {
  const confirmed = await musa.client.post(`/api/bookings/${b.id}/confirm`, { slot: '09:00', version: b.version });
  expect(confirmed.status, confirmed.text).toBe(200);
  const done = await put(admin.client, `/api/bookings/${b.id}/status`, {
    status: 'Completed',
    version: bookingSchema.parse(confirmed.body).version,
    beforeStart: true,
  });
  expect(done.status, done.text).toBe(200);
  return bookingSchema.parse(done.body);
}

const notes = { covered: 'Null hypotheses and p-values', practise: 'Exercises 4.1 to 4.6' };

describe('offering a session on a question', () => {
  test('a tutor offers once; the asker hears of it, with the booking page of the question', async () => {
    const student = await newStudent();
    const question = await ask(student.client);
    const first = await musa.client.post(`/api/questions/${question.id}/offers`);
    expect(first.status, first.text).toBe(201);
    const offer = sessionOfferSchema.parse(first.body);
    expect(offer.tutor).toEqual({ id: musa.id, name: 'Musa Stats' });
    // Offered again: the first offer, and no second notice.
    const again = await musa.client.post(`/api/questions/${question.id}/offers`);
    expect(again.status).toBe(200);
    expect(sessionOfferSchema.parse(again.body).createdAt).toBe(offer.createdAt);
    const notices = noticeListSchema.parse((await student.client.get('/api/notices')).body).notices;
    const offered = notices.filter((n) => n.kind === 'session-offered');
    expect(offered).toHaveLength(1);
    expect(offered[0]!.path).toBe(`/booking?question=${question.id}`);
    expect(offered[0]!.body).toContain('Musa Stats');
    // The asker sees every offer; a tutor sees their own only.
    const mine = sessionOffersSchema.parse((await student.client.get(`/api/questions/${question.id}/offers`)).body);
    expect(mine.offers.map((o) => o.tutor.name)).toEqual(['Musa Stats']);
    const adminOffer = await admin.client.post(`/api/questions/${question.id}/offers`);
    expect(adminOffer.status).toBe(201);
    const theirs = sessionOffersSchema.parse((await musa.client.get(`/api/questions/${question.id}/offers`)).body);
    expect(theirs.offers.map((o) => o.tutor.name)).toEqual(['Musa Stats']);
    const all = sessionOffersSchema.parse((await student.client.get(`/api/questions/${question.id}/offers`)).body);
    expect(all.offers.map((o) => o.tutor.name)).toEqual(['Musa Stats', 'Lerato Admin']);
  });

  test('a tutor offers only in their subjects; the offer books the question’s module; the asker sees her booking', async () => {
    const student = await newStudent();
    const question = await ask(student.client, 'Which test for two means?', 'introduction-to-statistics');
    const offersPath = `/api/questions/${question.id}/offers`;
    // A Mathematics tutor may not offer on a Statistics question, and is told so before trying.
    expect(sessionOffersSchema.parse((await mathsTutor.client.get(offersPath)).body)).toEqual({
      offers: [],
      mayOffer: false,
      booked: false,
    });
    expectApiError(await mathsTutor.client.post(offersPath), 403, 'sessions.other_subject');
    expect(sessionOffersSchema.parse((await musa.client.get(offersPath)).body).mayOffer).toBe(true);
    expect(sessionOffersSchema.parse((await admin.client.get(offersPath)).body).mayOffer).toBe(true);
    expect((await musa.client.post(offersPath)).status).toBe(201);
    const notice = noticeListSchema
      .parse((await student.client.get('/api/notices')).body)
      .notices.find((n) => n.kind === 'session-offered' && n.path?.includes(question.id));
    expect(notice?.path).toBe(`/booking?module=Introduction%20to%20Statistics&question=${question.id}`);
    // The asker: every offer, never one to make, and whether she booked from the question.
    const before = sessionOffersSchema.parse((await student.client.get(offersPath)).body);
    expect(before).toMatchObject({ mayOffer: false, booked: false });
    expect(before.offers.map((o) => o.tutor.name)).toEqual(['Musa Stats']);
    await book(student.client, { questionId: question.id });
    expect(sessionOffersSchema.parse((await student.client.get(offersPath)).body).booked).toBe(true);
    // A question about no module ("Other"): any tutor may offer.
    const other = await ask(student.client, 'Where do I start revising?');
    expect(sessionOffersSchema.parse((await mathsTutor.client.get(`/api/questions/${other.id}/offers`)).body)).toEqual({
      offers: [],
      mayOffer: true,
      booked: false,
    });
    expect((await mathsTutor.client.post(`/api/questions/${other.id}/offers`)).status).toBe(201);
  });

  test('a visitor, a student and the asker herself cannot offer; only the asker and staff see offers', async () => {
    const asker = await newStudent();
    const other = await newStudent('Sipho Other');
    const question = await ask(asker.client);
    expectApiError(await visitor.post(`/api/questions/${question.id}/offers`), 401, 'auth.unauthenticated');
    expectApiError(await other.client.post(`/api/questions/${question.id}/offers`), 403, 'sessions.staff_only');
    expectApiError(await asker.client.post(`/api/questions/${question.id}/offers`), 403, 'sessions.staff_only');
    expectApiError(await visitor.get(`/api/questions/${question.id}/offers`), 401, 'auth.unauthenticated');
    expectApiError(await other.client.get(`/api/questions/${question.id}/offers`), 403, 'sessions.staff_only');
    expectApiError(
      await musa.client.post(`/api/questions/${crypto.randomUUID()}/offers`),
      404,
      'sessions.question_not_found',
    );
    const own = await ask(mathsTutor.client, 'A tutor asks too');
    expectApiError(await mathsTutor.client.post(`/api/questions/${own.id}/offers`), 409, 'sessions.own_question');
  });
});

describe('a booking from a question, its notes and its summary', () => {
  test('the asker books with her question linked; nobody else can link it', async () => {
    const asker = await newStudent();
    const other = await newStudent('Sipho Other');
    const question = await ask(asker.client);
    const booking = await book(asker.client, { questionId: question.id });
    expect(booking.question).toEqual({ id: question.id, title: question.title });
    const refused = await other.client.post('/api/bookings', request({ questionId: question.id }));
    expect(expectApiError(refused, 400, 'bookings.question_not_yours').fields).toHaveProperty('questionId');
    const unknown = await asker.client.post('/api/bookings', request({ questionId: crypto.randomUUID() }));
    expectApiError(unknown, 400, 'bookings.question_not_yours');
  });

  test('notes after the session, seen by the student; consent hers; the summary posted once', async () => {
    const asker = await newStudent();
    const other = await newStudent('Sipho Other');
    const question = await ask(asker.client);
    let booking = await book(asker.client, { questionId: question.id });
    const notesPath = `/api/bookings/${booking.id}/notes`;
    // Before it is Completed: refused.
    expectApiError(
      await put(musa.client, notesPath, { ...notes, version: booking.version }),
      409,
      'bookings.notes_before_completed',
    );
    booking = await completed(booking);
    // The student, another student, a tutor of another category: refused.
    expectApiError(await put(asker.client, notesPath, { ...notes, version: booking.version }), 403, 'auth.forbidden');
    expectApiError(await put(other.client, notesPath, { ...notes, version: booking.version }), 403, 'auth.forbidden');
    expectApiError(
      await put(mathsTutor.client, notesPath, { ...notes, version: booking.version }),
      404,
      'bookings.not_found',
    );
    expectApiError(await put(visitor, notesPath, { ...notes, version: booking.version }), 401, 'auth.unauthenticated');
    const written = await put(musa.client, notesPath, { ...notes, version: booking.version });
    expect(written.status, written.text).toBe(200);
    booking = bookingSchema.parse(written.body);
    expect(booking.notes).toMatchObject({ ...notes, by: { id: musa.id, name: 'Musa Stats' } });
    // The student sees them with her booking; the other student never sees the booking.
    const hers = bookingPageSchema.parse((await asker.client.get('/api/bookings')).body).bookings;
    expect(hers.find((b) => b.id === booking.id)?.notes).toMatchObject(notes);
    const his = bookingPageSchema.parse((await other.client.get('/api/bookings')).body).bookings;
    expect(his.find((b) => b.id === booking.id)).toBeUndefined();

    // No summary without her consent, whoever asks; the consent is hers alone.
    const summaryPath = `/api/bookings/${booking.id}/summary`;
    expectApiError(await musa.client.post(summaryPath, { version: booking.version }), 409, 'bookings.no_consent');
    expectApiError(await admin.client.post(summaryPath, { version: booking.version }), 409, 'bookings.no_consent');
    const consentPath = `/api/bookings/${booking.id}/summary-consent`;
    expectApiError(
      await put(musa.client, consentPath, { consent: true, version: booking.version }),
      403,
      'auth.forbidden',
    );
    expectApiError(
      await put(other.client, consentPath, { consent: true, version: booking.version }),
      404,
      'bookings.not_found',
    );
    const consented = await put(asker.client, consentPath, { consent: true, version: booking.version });
    expect(consented.status, consented.text).toBe(200);
    booking = bookingSchema.parse(consented.body);
    expect(booking.summaryConsentAt).toEqual(expect.any(String));
    // Students never post it, hers or not.
    expectApiError(await asker.client.post(summaryPath, { version: booking.version }), 403, 'auth.forbidden');
    expectApiError(await mathsTutor.client.post(summaryPath, { version: booking.version }), 404, 'bookings.not_found');
    const posted = await musa.client.post(summaryPath, { version: booking.version });
    expect(posted.status, posted.text).toBe(200);
    booking = bookingSchema.parse(posted.body);
    expect(booking.summaryPostedAt).toEqual(expect.any(String));
    // Sent again (its answer lost): one answer.
    expect((await musa.client.post(summaryPath, { version: booking.version })).status).toBe(200);
    const onBoard = questionSchema.parse((await visitor.get(`/api/questions/${question.id}`)).body);
    expect(onBoard.answers).toHaveLength(1);
    // Posted from a session, it is endorsed by its tutor ("Endorsed by a tutor").
    expect(onBoard.answers[0]).toMatchObject({ id: booking.id, author: { name: 'Musa Stats' }, endorsed: true });
    expect(onBoard.answers[0]!.text).toContain(notes.covered);
    expect(onBoard.answers[0]!.text).toContain(notes.practise);
  });

  test('a booking without a question has nowhere to post a summary, nor a consent to give', async () => {
    const student = await newStudent();
    let booking = await completed(await book(student.client));
    const written = await put(musa.client, `/api/bookings/${booking.id}/notes`, { ...notes, version: booking.version });
    booking = bookingSchema.parse(written.body);
    expectApiError(
      await put(student.client, `/api/bookings/${booking.id}/summary-consent`, {
        consent: true,
        version: booking.version,
      }),
      409,
      'bookings.nothing_to_consent_to',
    );
    expectApiError(
      await musa.client.post(`/api/bookings/${booking.id}/summary`, { version: booking.version }),
      409,
      'bookings.no_question',
    );
  });

  test('consent withdrawn before the summary: it is refused again', async () => {
    const asker = await newStudent();
    const question = await ask(asker.client);
    let booking = await completed(await book(asker.client, { questionId: question.id }));
    booking = bookingSchema.parse(
      (await put(musa.client, `/api/bookings/${booking.id}/notes`, { ...notes, version: booking.version })).body,
    );
    const consentPath = `/api/bookings/${booking.id}/summary-consent`;
    booking = bookingSchema.parse(
      (await put(asker.client, consentPath, { consent: true, version: booking.version })).body,
    );
    booking = bookingSchema.parse(
      (await put(asker.client, consentPath, { consent: false, version: booking.version })).body,
    );
    expect(booking.summaryConsentAt ?? null).toBeNull();
    expectApiError(
      await musa.client.post(`/api/bookings/${booking.id}/summary`, { version: booking.version }),
      409,
      'bookings.no_consent',
    );
  });
});
