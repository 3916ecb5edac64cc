import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import {
  failedDeliveriesSchema,
  noticeListSchema,
  noticeSettingsSchema,
  type NoticeList,
} from '../../../common/notices.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/**
 * Notices (issue 38 §1) through the real server: each change writes its notices with it, to the right people and no
 * others; the list is the user's own, read and unread; the choices keep their time and refuse what is not theirs to
 * choose; a question's followers hear of its answers (the asker from the start), and who answered does not; the
 * admin's failed deliveries are the admin's only.
 */
let smtp: TestSmtpServer;
let server: TestServer;
type Person = { id: string; email: string; client: TestClient };
let admin: Person;
let musa: Person;
let thandi: Person;
let sipho: Person;

const day = 24 * 3_600_000;
const inDays = (days: number) => sastDate(new Date(Date.now() + days * day));

async function person(name: string): Promise<Person> {
  const account = await createVerifiedUser(server, { name });
  return { id: account.id, email: account.email, client: await logIn(server, account) };
}

/** Expects the request to be refused with `status` and `code` (and `message`, when given). */
async function refused(pending: Promise<TestResponse>, status: number, code: string, message?: string) {
  const error = expectApiError(await pending, status, code);
  if (message !== undefined) expect(error.message).toBe(message);
}

async function noticesOf(p: Person): Promise<NoticeList> {
  // What the changes wrote is dispatched after them; the list itself is written with the change.
  const response = await p.client.get('/api/notices');
  expect(response.status, response.text).toBe(200);
  return noticeListSchema.parse(response.body);
}

async function book(student: Person, date: string): Promise<Booking> {
  const response = await student.client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date,
    slots: ['09:00', '14:00', '17:30'],
    hours: 2,
    concepts: 'Hypothesis testing',
  });
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  [admin, musa] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
  [thandi, sipho] = await Promise.all([person('Thandi Mokoena'), person('Sipho Dlamini')]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

test('a request tells the tutor and the admin, a confirmation the student; the list is each user’s own', async () => {
  const booking = await book(thandi, inDays(10));
  const tutorList = await noticesOf(musa);
  const request = tutorList.notices.find((n) => n.path.endsWith(booking.id));
  expect(request).toMatchObject({
    kind: 'booking-request',
    title: 'New booking request: Introduction to Statistics',
    path: `/tutor-dashboard#booking-${booking.id}`,
    readAt: null,
  });
  expect((await noticesOf(admin)).notices.some((n) => n.path === `/admin-dashboard#booking-${booking.id}`)).toBe(true);
  // Nobody is told of what they did themselves.
  expect((await noticesOf(thandi)).notices).toEqual([]);

  const confirm = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '14:00',
    version: booking.version,
  });
  expect(confirm.status, confirm.text).toBe(200);
  const mine = await noticesOf(thandi);
  expect(mine.unread).toBe(1);
  expect(mine.notices[0]).toMatchObject({
    kind: 'booking-confirmed',
    title: 'Session confirmed: Introduction to Statistics',
  });
  expect(mine.notices[0]!.body).toContain('14:00 SAST with Musa Stats');
  expect(mine.notices[0]!.body).toContain(booking.paymentReference);
  expect((await noticesOf(sipho)).notices).toEqual([]);

  // Marking read: another's id changes nothing; then hers.
  const theirs = await sipho.client.post('/api/notices/read', { ids: [mine.notices[0]!.id] });
  expect(theirs.body).toEqual({ unread: 0 });
  expect((await noticesOf(thandi)).unread).toBe(1);
  const read = await thandi.client.post('/api/notices/read', { ids: [mine.notices[0]!.id] });
  expect(read.body).toEqual({ unread: 0 });
  expect((await noticesOf(thandi)).notices[0]!.readAt).not.toBeNull();
  expect((await musa.client.post('/api/notices/read', { all: true })).body).toEqual({ unread: 0 });

  // Cancelled by the student: staff hear of it, she does not.
  const before = (await noticesOf(thandi)).notices.length;
  const cancel = await thandi.client.post(`/api/bookings/${booking.id}/cancel`);
  expect(cancel.status, cancel.text).toBe(200);
  expect((await noticesOf(musa)).notices[0]).toMatchObject({
    kind: 'booking-cancelled',
    title: 'Cancelled by Thandi Mokoena: Introduction to Statistics',
  });
  expect((await noticesOf(thandi)).notices.length).toBe(before);
});

test('visitors are refused; bad input is a 400 naming what is wrong', async () => {
  const visitor = createClient(server.url);
  await refused(visitor.get('/api/notices'), 401, 'auth.unauthenticated');
  await refused(visitor.post('/api/notices/read', { all: true }), 401, 'auth.unauthenticated');
  await refused(visitor.get('/api/me/notice-preferences'), 401, 'auth.unauthenticated');
  await refused(
    visitor.post('/api/me/push-subscriptions', {
      endpoint: 'https://push.example/1',
      keys: { p256dh: 'a', auth: 'b' },
    }),
    401,
    'auth.unauthenticated',
  );
  await refused(thandi.client.post('/api/notices/read', { ids: [] }), 400, 'request.invalid');
  await refused(thandi.client.post('/api/notices/read', { all: false }), 400, 'request.invalid');
  await refused(
    thandi.client.post('/api/me/push-subscriptions', { endpoint: 'not a url', keys: { p256dh: 'a', auth: 'b' } }),
    400,
    'request.invalid',
  );
});

test('choices: off but e-mail until chosen, kept with their time; a student cannot choose a tutor’s kind', async () => {
  const first = noticeSettingsSchema.parse((await sipho.client.get('/api/me/notice-preferences')).body);
  expect(first.preferences).toEqual({ choices: {}, whatsappNumber: null });

  const noNumber = await sipho.client.put('/api/me/notice-preferences', {
    set: [{ kind: 'booking-confirmed', channel: 'whatsapp', on: true }],
  });
  expectApiError(noNumber, 400, 'request.invalid');
  expect(noNumber.body.error.message).toBe('Type the WhatsApp number to send to first.');
  await refused(
    sipho.client.put('/api/me/notice-preferences', { set: [], whatsappNumber: 'call me maybe' }),
    400,
    'request.invalid',
    'Type the WhatsApp number to send to first.',
  );

  const saved = await sipho.client.put('/api/me/notice-preferences', {
    set: [
      { kind: 'booking-confirmed', channel: 'push', on: true },
      { kind: 'booking-confirmed', channel: 'whatsapp', on: true },
      { kind: 'booking-request', channel: 'push', on: true },
      { kind: 'booking-confirmed', channel: 'email', on: false },
      { kind: 'question-answered', channel: 'email', on: false },
    ],
    whatsappNumber: '082 123 4567',
  });
  expect(saved.status, saved.text).toBe(200);
  const { choices, whatsappNumber } = noticeSettingsSchema.parse(
    (await sipho.client.get('/api/me/notice-preferences')).body,
  ).preferences;
  expect(whatsappNumber).toBe('27821234567');
  // A tutor's kind, and an e-mail that always goes, are not the student's to choose.
  expect(Object.keys(choices).sort()).toEqual(['booking-confirmed', 'question-answered']);
  expect(Object.keys(choices['booking-confirmed']!).sort()).toEqual(['push', 'whatsapp']);
  const at = choices['booking-confirmed']!.push!.at;
  expect(Date.now() - Date.parse(at)).toBeLessThan(60_000);
  expect(choices['question-answered']!.email!.on).toBe(false);

  // Setting a choice again as it was keeps the time it was made.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await sipho.client.put('/api/me/notice-preferences', {
    set: [{ kind: 'booking-confirmed', channel: 'push', on: true }],
  });
  const again = noticeSettingsSchema.parse((await sipho.client.get('/api/me/notice-preferences')).body).preferences;
  expect(again.choices['booking-confirmed']!.push!.at).toBe(at);
});

test('a question’s followers hear of an answer (the asker from the start), not who answered', async () => {
  const id = crypto.randomUUID();
  const asked = await thandi.client.post('/api/questions', {
    id,
    title: 'How do I read a p-value?',
    text: 'My course notes say 0.05 but why?',
  });
  expect(asked.status, asked.text).toBe(201);
  expect((await thandi.client.get(`/api/questions/${id}/follow`)).body).toEqual({ following: true });
  expect((await sipho.client.get(`/api/questions/${id}/follow`)).body).toEqual({ following: false });
  expect((await sipho.client.put(`/api/questions/${id}/follow`, { following: true })).body).toEqual({
    following: true,
  });

  const answerId = crypto.randomUUID();
  const answered = await musa.client.post(`/api/questions/${id}/answers`, {
    id: answerId,
    text: 'It is the chance of data at least this extreme if the null hypothesis were true.\nMore below.',
  });
  expect(answered.status, answered.text).toBe(201);
  await server.services.notices.flush();
  for (const follower of [thandi, sipho]) {
    const [latest] = (await noticesOf(follower)).notices;
    expect(latest).toMatchObject({
      kind: 'question-answered',
      title: 'New answer: How do I read a p-value?',
      body: 'Musa Stats answered: It is the chance of data at least this extreme if the null hypothesis were true.',
      path: `/qa/${id}`,
    });
  }
  expect((await noticesOf(musa)).notices.some((n) => n.kind === 'question-answered')).toBe(false);
  // Thandi never turned the board's e-mails off: hers comes by e-mail too. Sipho turned them off.
  const mail = await smtp.waitForEmail({ to: thandi.email, subject: 'New answer: How do I read a p-value?' });
  expect(mail.text).toContain(`/qa/${id}`);

  // Unfollowed: the next answer does not reach him. Accepted: the answer's author hears of it.
  await sipho.client.put(`/api/questions/${id}/follow`, { following: false });
  const second = await admin.client.post(`/api/questions/${id}/answers`, {
    id: crypto.randomUUID(),
    text: 'Also see chapter 4.',
  });
  expect(second.status, second.text).toBe(201);
  await server.services.notices.flush();
  expect((await noticesOf(sipho)).notices.filter((n) => n.kind === 'question-answered')).toHaveLength(1);
  expect((await noticesOf(thandi)).notices.filter((n) => n.kind === 'question-answered')).toHaveLength(2);
  const accept = await thandi.client.put(`/api/questions/${id}/accepted-answer`, { answerId });
  expect(accept.status, accept.text).toBe(200);
  expect((await noticesOf(musa)).notices[0]).toMatchObject({ kind: 'answer-accepted', path: `/qa/${id}` });

  await refused(
    createClient(server.url).put(`/api/questions/${id}/follow`, { following: true }),
    401,
    'auth.unauthenticated',
  );
  await refused(
    sipho.client.put(`/api/questions/${crypto.randomUUID()}/follow`, { following: true }),
    404,
    'qa.not_found',
  );
});

test('failed deliveries are the admin’s to see and resend; an unknown one is a 404', async () => {
  for (const p of [thandi, musa]) await refused(p.client.get('/api/admin/deliveries'), 403, 'auth.forbidden');
  await refused(thandi.client.post('/api/admin/deliveries/x/resend'), 403, 'auth.forbidden');
  await refused(createClient(server.url).get('/api/admin/deliveries'), 401, 'auth.unauthenticated');
  const list = await admin.client.get('/api/admin/deliveries');
  expect(list.status, list.text).toBe(200);
  expect(failedDeliveriesSchema.parse(list.body).deliveries).toEqual([]);
  await refused(admin.client.post('/api/admin/deliveries/nothing/resend'), 404, 'notices.delivery_not_found');
});
