import { afterAll, beforeAll, expect, test } from 'vitest';
import { createWhatsAppStandin, type WhatsAppStandin } from '../../../scripts/whatsapp-standin.ts';
import { bookingSchema, type Booking } from '../../common/bookings.ts';
import { failedDeliveriesSchema, noticeSettingsSchema } from '../../common/notices.ts';
import { sastDate } from '../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';

/**
 * WhatsApp notices (issue 38 §3) through the real server and a local stand-in of the Cloud API that checks the token
 * and each template against docs/whatsapp.md (scripts/whatsapp-standin.ts): a student who opted in gets her
 * confirmation as its template, naming the session in SAST; nobody else does; a refused send is retried and a
 * number WhatsApp cannot reach fails for good, for the admin to see; the status webhook takes only signed reports.
 */
const token = 'test-token';
const appSecret = 'test-app-secret';
let standin: WhatsAppStandin;
let smtp: TestSmtpServer;
let server: TestServer;
type Person = { id: string; client: TestClient };
let tutor: Person;
let admin: Person;
let nextDay = 8;
const inDays = (days: number) => sastDate(new Date(Date.now() + days * 24 * 3_600_000));

async function student(name: string, number?: string): Promise<Person> {
  const account = await createVerifiedUser(server, { name });
  const p = { id: account.id, client: await logIn(server, account) };
  if (number) {
    const chosen = await p.client.put('/api/me/notice-preferences', {
      set: [{ kind: 'booking-confirmed', channel: 'whatsapp', on: true }],
      whatsappNumber: number,
    });
    expect(chosen.status, chosen.text).toBe(200);
  }
  return p;
}

async function bookAndConfirm(p: Person): Promise<Booking> {
  const booked = await p.client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date: inDays(nextDay++),
    slots: ['09:00', '14:00', '17:30'],
    hours: 2,
    concepts: 'Regression',
  });
  expect(booked.status, booked.text).toBe(201);
  const booking = bookingSchema.parse(booked.body);
  const confirmed = await tutor.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '14:00',
    version: booking.version,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  await server.services.notices.flush();
  return booking;
}

beforeAll(async () => {
  standin = await createWhatsAppStandin({ token, appSecret });
  smtp = await startSmtpServer();
  server = await startTestServer({
    smtpUrl: smtp.url,
    env: {
      WHATSAPP_TOKEN: token,
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: 'verify-me',
      WHATSAPP_API_URL: `${standin.url}/v21.0`,
    },
  });
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

test('one template message to the student who opted in, naming the session in SAST; none to others', async () => {
  const thandi = await student('Thandi Mokoena', '082 123 4567');
  const sipho = await student('Sipho Dlamini');
  expect(noticeSettingsSchema.parse((await sipho.client.get('/api/me/notice-preferences')).body).whatsapp).toBe(true);
  const booking = await bookAndConfirm(thandi);
  await bookAndConfirm(sipho);
  const sent = standin.messages();
  expect(sent).toHaveLength(1);
  expect(sent[0]!.to).toBe('27821234567');
  expect(sent[0]!.text).toMatch(
    new RegExp(
      `^Your Introduction to Statistics session is confirmed: \\w{3}, \\d{2} \\w{3} \\d{4}, 14:00–16:00 SAST\\. Amount: R\\d+, payment reference ${booking.paymentReference}\\.`,
    ),
  );
  await server.services.notices.flush();
  expect(standin.messages()).toHaveLength(1);
});

test('a refused send is retried; a number WhatsApp cannot reach fails for good and the admin sees it', async () => {
  const naledi = await student('Naledi Mthembu', '+27 83 555 0101');
  standin.refuse({ status: 500, times: 1 });
  await bookAndConfirm(naledi);
  expect(standin.messages().filter((m) => m.to === '27835550101')).toEqual([]);
  const { repos } = server.services.deps;
  // Due again after its backoff: sent by the worker's next run then.
  const [id] = await repos.noticeDeliveries.findDue('whatsapp', new Date(Date.now() + 31_000), 10);
  expect(id).toBeDefined();

  const zola = await student('Zola Ndlovu', '084 000 0000');
  standin.refuse({ code: 131026, to: '27840000000' });
  await bookAndConfirm(zola);
  const failed = failedDeliveriesSchema.parse((await admin.client.get('/api/admin/deliveries')).body).deliveries;
  expect(failed.find((d) => d.to === 'Zola Ndlovu, WhatsApp …0000')).toMatchObject({
    channel: 'whatsapp',
    kind: 'booking-confirmed',
    attempts: 1,
  });
});

test('the status webhook: a signed failure is kept on its delivery; unsigned and forged reports change nothing', async () => {
  const lindiwe = await student('Lindiwe Khumalo', '082 765 4321');
  await bookAndConfirm(lindiwe);
  const message = standin.messages().find((m) => m.to === '27827654321')!;
  const providerId = message.id;
  const webhook = `${server.url}/api/whatsapp/webhook`;
  expect(await standin.sendStatus(providerId, 'failed', webhook, { signWith: 'guessed' })).toBe(403);
  expect(await standin.sendStatus(providerId, 'failed', webhook, { signWith: false })).toBe(403);
  const before = failedDeliveriesSchema.parse((await admin.client.get('/api/admin/deliveries')).body).deliveries;
  expect(before.some((d) => d.to === 'Lindiwe Khumalo, WhatsApp …4321')).toBe(false);
  expect(await standin.sendStatus(providerId, 'delivered', webhook)).toBe(200);
  expect(await standin.sendStatus(providerId, 'failed', webhook, { code: 131026 })).toBe(200);
  const after = failedDeliveriesSchema.parse((await admin.client.get('/api/admin/deliveries')).body).deliveries;
  expect(after.find((d) => d.to === 'Lindiwe Khumalo, WhatsApp …4321')?.reason).toMatch(/131026/);

  // Meta's check of the subscription: the challenge for the right token only.
  const visitor = createClient(server.url);
  const check = (verify: string) =>
    visitor.get(`/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${verify}&hub.challenge=1158201444`);
  expect((await check('verify-me')).text).toBe('1158201444');
  expect((await check('wrong')).status).toBe(403);
});
