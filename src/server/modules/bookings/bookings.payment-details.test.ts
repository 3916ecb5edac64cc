import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingSchema } from '../../../common/bookings.ts';
import { brand } from '../../../common/brand.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createVerifiedUser,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/** A server without PAYMENT_EFT_DETAILS, as in development (production does not start without them: env.ts). */
let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, captureLogs: true });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

test('without the bank details the server warns once at start', () => {
  const warnings = server.logs.filter((line) => String(line.msg).includes('PAYMENT_EFT_DETAILS'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 40 });
});

test('without the bank details the confirmation says whom to ask for them, not that they follow', async () => {
  const account = await createVerifiedUser(server, { name: 'Naledi Dlamini' });
  const client = await logIn(server, account);
  const tutor = await signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] });
  const response = await client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date: sastDate(new Date(Date.now() + 10 * 24 * 3_600_000)),
    slots: ['09:00', '14:00', '17:30'],
    hours: 1,
    concepts: 'Regression',
  });
  const booking = bookingSchema.parse(response.body);
  expect(
    (await tutor.client.post(`/api/bookings/${booking.id}/confirm`, { slot: '09:00', version: booking.version }))
      .status,
  ).toBe(200);
  const email = await smtp.waitForEmail({ to: account.email, subject: 'Session confirmed' });
  expect(email.text).toContain(
    `For the bank details, e-mail ${brand.email} or send a WhatsApp message to ${brand.phoneDisplay}.`,
  );
  expect(email.text).not.toContain('follow by e-mail');
  expect(email.text).toContain(booking.paymentReference);
});
