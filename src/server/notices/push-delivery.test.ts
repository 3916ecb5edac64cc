import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPushStandin, type PushStandin } from '../../../scripts/push-standin.ts';
import { bookingSchema, type Booking } from '../../common/bookings.ts';
import { failedDeliveriesSchema, noticeSettingsSchema } from '../../common/notices.ts';
import type { ReminderProblem } from '../../common/reminder-check.ts';
import { formatSastDateTime, sastDate, sastInstant } from '../../common/sast.ts';
import { sendDueReminders } from '../modules/bookings/bookings.usecases.ts';
import { createPushSender } from '../push/push-sender.ts';
import { resolveVapidKeys } from '../push/vapid.ts';
import {
  createVerifiedUser,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { createPushChannel, isPushEndpointAllowed } from './push-channel.ts';

/**
 * Push notices (issue 38 §2) through the real server to a local push service that checks VAPID and decrypts each
 * message with the subscription's own keys (scripts/push-standin.ts): a student who opted in gets one push naming
 * her session in SAST, and one who did not gets none; a device the push service says is gone is forgotten and
 * its delivery shown to the admin; a refused send is tried again and goes once.
 */
let smtp: TestSmtpServer;
let server: TestServer;
let standin: PushStandin;
type Person = { id: string; email: string; client: TestClient };
let tutor: Person;
let admin: Person;

const inDays = (days: number) => sastDate(new Date(Date.now() + days * 24 * 3_600_000));
/** Each session on a day of its own: the tutor is never booked twice at once. */
let nextDay = 8;

async function student(name: string): Promise<Person> {
  const account = await createVerifiedUser(server, { name });
  return { id: account.id, email: account.email, client: await logIn(server, account) };
}

/** Subscribes a device of `p` at the stand-in (with the server's key) and ticks push for `kind`. */
async function optIn(p: Person, choose = true, kind = 'booking-confirmed') {
  const { pushKey } = noticeSettingsSchema.parse((await p.client.get('/api/me/notice-preferences')).body);
  const device = standin.subscribe({ applicationServerKey: pushKey });
  const subscribed = await p.client.post('/api/me/push-subscriptions', device.toJSON());
  expect(subscribed.status, subscribed.text).toBe(204);
  if (choose) {
    const chosen = await p.client.put('/api/me/notice-preferences', {
      set: [{ kind, channel: 'push', on: true }],
    });
    expect(chosen.status, chosen.text).toBe(200);
  }
  return device;
}

async function book(p: Person, date: string): Promise<Booking> {
  const booked = await p.client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date,
    slots: ['09:00', '14:00', '17:30'],
    hours: 1,
    concepts: 'Regression',
  });
  expect(booked.status, booked.text).toBe(201);
  return bookingSchema.parse(booked.body);
}

async function bookAndConfirm(p: Person, slot = '14:00', date = inDays(nextDay++)): Promise<Booking> {
  const booking = await book(p, date);
  const confirmed = await tutor.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot,
    version: booking.version,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  await server.services.notices.flush();
  return booking;
}

beforeAll(async () => {
  standin = await createPushStandin();
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  [tutor, admin] = await Promise.all([
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await standin?.close();
});

test('one push to the device of a student who opted in, naming the session in SAST; none to one who did not', async () => {
  const [thandi, sipho] = [await student('Thandi Mokoena'), await student('Sipho Dlamini')];
  const hers = await optIn(thandi);
  const his = await optIn(sipho, false);
  const booking = await bookAndConfirm(thandi);
  await bookAndConfirm(sipho);
  const [message, ...more] = standin.messages(hers.id);
  expect(more).toEqual([]);
  expect(message!.json).toMatchObject({
    kind: 'booking-confirmed',
    title: 'Session confirmed: Introduction to Statistics',
    path: `/student-dashboard#booking-${booking.id}`,
    badge: 1,
  });
  expect((message!.json as { body: string }).body).toMatch(
    /, 14:00 SAST with Musa Stats\. R\d+, payment reference TB-/,
  );
  expect(message!.urgency).toBe('high');
  expect(standin.messages(his.id)).toEqual([]);
  // Dispatched again (another process, a restart): nothing is sent twice.
  await server.services.notices.flush();
  expect(standin.messages(hers.id)).toHaveLength(1);
});

test('a device the push service says is gone is forgotten, and the admin sees the delivery', async () => {
  const lindiwe = await student('Lindiwe Khumalo');
  const device = await optIn(lindiwe);
  standin.refuse(device.id, 410);
  await bookAndConfirm(lindiwe);
  expect(standin.messages(device.id)).toEqual([]);
  const failed = failedDeliveriesSchema.parse((await admin.client.get('/api/admin/deliveries')).body).deliveries;
  expect(failed.find((d) => d.to === 'Lindiwe Khumalo, a device')).toMatchObject({
    channel: 'push',
    kind: 'booking-confirmed',
    status: 'gone',
    attempts: 1,
  });
  expect(await server.services.deps.repos.notices.pushSubscriptionsOf([lindiwe.id])).toEqual([]);
  // Gone is gone: it is not sent again.
  const gone = failed.find((d) => d.to === 'Lindiwe Khumalo, a device')!;
  expect((await admin.client.post(`/api/admin/deliveries/${encodeURIComponent(gone.id)}/resend`)).status).toBe(404);
});

test('a refused send is tried again after its backoff and goes once; one failed for good is resent by the admin', async () => {
  const naledi = await student('Naledi Mthembu');
  const device = await optIn(naledi);
  standin.refuse(device.id, 500, 1);
  await bookAndConfirm(naledi);
  expect(standin.messages(device.id)).toEqual([]);
  const { repos } = server.services.deps;
  const [subscription] = await repos.notices.pushSubscriptionsOf([naledi.id]);
  // The same channel and storage, with a clock 31 s on: the retry is due.
  const later = createDeliveryWorker({
    deliveries: repos.noticeDeliveries,
    sender: createPushChannel({ repos, sender: createPushSender({ vapid: resolveVapidKeys(server.services.env) }) }),
    logger: server.services.logger,
    now: () => new Date(Date.now() + 31_000),
    pollMs: 3_600_000,
  });
  try {
    expect(await later.runOnce()).toBe(1);
    expect(await later.runOnce()).toBe(0);
  } finally {
    await later.stop();
  }
  expect(standin.messages(device.id)).toHaveLength(1);
  expect(subscription).toBeDefined();

  // Refused for good (a 400 is not retried): the admin sees it, sends it again once the device is fixed.
  standin.refuse(device.id, 400, 1);
  await bookAndConfirm(naledi);
  const failed = failedDeliveriesSchema.parse((await admin.client.get('/api/admin/deliveries')).body).deliveries;
  const mine = failed.find((d) => d.to === 'Naledi Mthembu, a device' && d.status === 'failed')!;
  expect(mine.reason).toMatch(/400/);
  const resent = await admin.client.post(`/api/admin/deliveries/${encodeURIComponent(mine.id)}/resend`);
  expect(resent.status, resent.text).toBe(204);
  await server.services.notices.flush();
  expect(standin.messages(device.id)).toHaveLength(2);
  await server.services.notices.flush();
  expect(standin.messages(device.id)).toHaveLength(2);
});

test('a reminder that reached the student by no channel is flagged to the staff before the session', async () => {
  const [zanele, bongani] = [await student('Zanele Nkosi'), await student('Bongani Zulu')];
  const maths = await signInAs(server, 'tutor', { name: 'Ayanda Maths', categories: ['Mathematics'] });
  // Both chose push for their reminders, and neither mailbox exists; Zanele's device refuses for good.
  const [hers, his] = [await optIn(zanele, true, 'booking-reminder'), await optIn(bongani, true, 'booking-reminder')];
  const date = inDays(nextDay++);
  const [herSession] = [await bookAndConfirm(zanele, '09:00', date), await bookAndConfirm(bongani, '14:00', date)];
  smtp.refuse(zanele.email);
  smtp.refuse(bongani.email);
  standin.refuse(hers.id, 400);
  const problems = async (p: { client: TestClient }) => {
    const answer = await p.client.get('/api/bookings/reminder-problems');
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { problems: ReminderProblem[] }).problems.filter((x) => x.date === date);
  };

  const { clock } = server.services.deps;
  const real = clock.now;
  let now = sastInstant(date, '14:00').getTime() - 23 * 3_600_000;
  clock.now = () => new Date(now);
  try {
    // An hour past their time, the reminders have not gone (no scan ran): both sessions are flagged late.
    expect((await problems(tutor)).map((x) => [x.studentName, x.slot, x.reason])).toEqual([
      ['Zanele Nkosi', '09:00', 'late'],
      ['Bongani Zulu', '14:00', 'late'],
    ]);
    expect((await problems(tutor))[0]!.details).toEqual([
      `It was due ${formatSastDateTime(new Date(sastInstant(date, '09:00').getTime() - 24 * 3_600_000).toISOString())}.`,
    ]);
    expect(await problems(admin)).toHaveLength(2);
    expect(await problems(maths)).toEqual([]);
    expect((await zanele.client.get('/api/bookings/reminder-problems')).status).toBe(403);

    expect(await sendDueReminders({ ...server.services.deps, clock })).toBe(2);
    await server.services.notices.flush();
    expect(standin.messages(his.id).map((m) => (m.json as { kind: string }).kind)).toContain('booking-reminder');
    // Sent, not yet failed for good: nothing to flag while the e-mails are being retried.
    expect(await problems(tutor)).toEqual([]);
    // The mail worker's ten attempts, each when its backoff (at most an hour) is over.
    for (let attempt = 0; attempt < 10; attempt++) {
      now += 3_600_000;
      await server.services.worker.runOnce();
    }
    const keys = [herSession.id].map((id) => `booking-reminder:${id}:${date}T09:00`);
    expect((await server.services.deps.repos.outbox.statusesOf(keys)).get(keys[0]!)?.status).toBe('failed');

    // Bongani's push went: his reminder reached him. Zanele's went nowhere.
    const [flagged, ...others] = await problems(tutor);
    expect(others).toEqual([]);
    expect(flagged).toMatchObject({ bookingId: herSession.id, studentName: 'Zanele Nkosi', reason: 'undelivered' });
    expect(flagged!.details).toEqual([expect.stringMatching(/^E-mail: .*550/), expect.stringMatching(/^Push: .*400/)]);
    expect(await problems(admin)).toEqual([flagged]);
    expect(await problems(maths)).toEqual([]);
  } finally {
    clock.now = real;
  }
});

test('a tutor’s push sets the app icon’s badge to the requests waiting in their subjects', async () => {
  const device = await optIn(tutor, true, 'booking-request');
  const sizwe = await student('Sizwe Ndlovu');
  const first = await book(sizwe, inDays(nextDay++));
  await server.services.notices.flush();
  await book(sizwe, inDays(nextDay++));
  await server.services.notices.flush();
  const confirmed = await tutor.client.post(`/api/bookings/${first.id}/confirm`, {
    slot: '09:00',
    version: first.version,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  await book(sizwe, inDays(nextDay++));
  await server.services.notices.flush();
  // Not the tutor's unread notices (three requests, none read): the requests still waiting for a time.
  expect(standin.messages(device.id).map((m) => (m.json as { badge: number }).badge)).toEqual([1, 2, 2]);
});

test('in production a subscription must be a browser push service’s, over https', () => {
  for (const endpoint of [
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://web.push.apple.com/QO3abc',
    'https://wns2-par02p.notify.windows.com/w/?token=abc',
  ])
    expect(isPushEndpointAllowed(endpoint, true), endpoint).toBe(true);
  for (const endpoint of [
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://127.0.0.1:8080/push/abc',
    'https://fcm.googleapis.com.evil.example/x',
    'https://user@fcm.googleapis.com/x',
    'https://169.254.169.254/latest/meta-data',
    'not a url',
  ])
    expect(isPushEndpointAllowed(endpoint, true), endpoint).toBe(false);
  expect(isPushEndpointAllowed('http://127.0.0.1:8080/push/abc', false)).toBe(true);
  expect(isPushEndpointAllowed('ftp://127.0.0.1/push/abc', false)).toBe(false);
});
