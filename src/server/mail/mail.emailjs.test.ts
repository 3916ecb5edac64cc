import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { formatSastSlot, sastDate } from '../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  logIn,
  signInAs,
  startTestServer,
  testPassword,
  uniqueEmail,
  waitFor,
  type TestServer,
} from '../test/harness.ts';
import { storedEmails } from '../test/stored.ts';
import { createEmailJsTransport } from './mail.transports.ts';
import { createMailWorker } from './mail.worker.ts';

/**
 * A stand-in for api.emailjs.com on 127.0.0.1: records every request it is sent and answers as EmailJS does
 * (200 "OK"), or refuses as it does when told to (a wrong key: 400 with a text).
 */
async function startEmailJsStandIn() {
  const received: { path: string; contentType: string | undefined; body: EmailJsBody }[] = [];
  let refusal: { status: number; text: string } | undefined;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'text/plain' }).end(refusal.text);
        return;
      }
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(text) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    refuse(status: number, text: string) {
      refusal = { status, text };
    },
    accept() {
      refusal = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface EmailJsBody {
  service_id: string;
  template_id: string;
  user_id: string;
  accessToken: string;
  template_params: Record<string, string>;
}

describe('e-mail through EmailJS (EMAILJS_* set, no SMTP_URL)', () => {
  let emailJs: Awaited<ReturnType<typeof startEmailJsStandIn>>;
  let server: TestServer;

  beforeAll(async () => {
    emailJs = await startEmailJsStandIn();
    server = await startTestServer({
      env: {
        EMAILJS_SERVICE_ID: 'service_tutorbook',
        EMAILJS_TEMPLATE_ID: 'template_any',
        EMAILJS_PUBLIC_KEY: 'pk_public',
        EMAILJS_PRIVATE_KEY: 'sk_private',
        EMAILJS_API_URL: emailJs.url,
        EMAILJS_TEMPLATES: 'verification=template_verify',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await emailJs?.close();
  });
  afterEach(() => emailJs.accept());

  const signUp = (email: string) =>
    createClient(server.url).post('/api/auth/sign-up/email', { name: 'Thandi Mokoena', email, password: testPassword });
  const sentTo = (email: string) => emailJs.received.filter((r) => r.body.template_params.to_email === email);
  const outboxRows = (email: string) => storedEmails(server.services, [email]);

  test("a sign-up's e-mails go to EmailJS's send endpoint with the keys, the kind's template and its values", async () => {
    const email = uniqueEmail('thandi');
    expect((await signUp(email)).status).toBe(200);
    const [verification, welcome] = await waitFor(
      async () => sentTo(email).length === 2 && sentTo(email),
      'two e-mails',
    );
    for (const request of [verification!, welcome!]) {
      expect(request.path).toBe('/api/v1.0/email/send');
      expect(request.contentType).toBe('application/json');
      expect(request.body).toMatchObject({
        service_id: 'service_tutorbook',
        user_id: 'pk_public',
        accessToken: 'sk_private',
      });
      // The old site's sign-up parameters, and the rendered e-mail for a template that shows it whole.
      expect(request.body.template_params).toMatchObject({ to_email: email, to_name: 'Thandi Mokoena' });
    }
    expect(verification!.body.template_id).toBe('template_verify');
    expect(verification!.body.template_params.subject).toMatch(/^Verify your e-mail/);
    expect(verification!.body.template_params.message).toContain(`${server.url}/api/auth/verify-email?token=`);
    expect(verification!.body.template_params.message_html).toMatch(/^<!doctype html>/);
    // A kind without a template of its own takes EMAILJS_TEMPLATE_ID.
    expect(welcome!.body.template_id).toBe('template_any');
    expect(welcome!.body.template_params.subject).toBe('Welcome to TutorBook!');
    await waitFor(async () => (await outboxRows(email)).every((row) => row.status === 'sent'), 'both marked sent');
  });

  test('a refusal does not fail the sign-up: the e-mails wait, with the words EmailJS gave, and go once it accepts', async () => {
    emailJs.refuse(
      400,
      'The Public Key is invalid. To find this ID, visit https://dashboard.emailjs.com/admin/account',
    );
    const email = uniqueEmail('refused');
    expect((await signUp(email)).status).toBe(200);
    const failed = await waitFor(async () => {
      const rows = await outboxRows(email);
      return rows.length === 2 && rows.every((row) => row.attempts === 1 && row.lockedUntil === null) && rows;
    }, 'a first failed attempt at both e-mails');
    for (const row of failed) {
      expect(row.status).toBe('pending');
      expect(row.lastError).toBe(
        'EmailJS answered 400: The Public Key is invalid. To find this ID, visit https://dashboard.emailjs.com/admin/account',
      );
    }
    expect(sentTo(email)).toHaveLength(0);

    // EmailJS accepts again; a worker whose clock has reached the retry sends both, once each.
    emailJs.accept();
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      // The app's own transport, built from the server's settings as server.ts builds it.
      transport: createEmailJsTransport(server.services.env.emailJs!),
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      now: () => new Date(Date.now() + 31_000),
      pollMs: 60_000,
    });
    try {
      expect(await worker.runOnce()).toBe(2);
    } finally {
      await worker.stop();
    }
    expect(sentTo(email).map((r) => r.body.template_params.subject)).toEqual([
      expect.stringMatching(/^Verify your e-mail/),
      'Welcome to TutorBook!',
    ]);
    expect((await outboxRows(email)).map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
    ]);
  });

  test("a booking's e-mails carry the booking form as the old site's templates had it", async () => {
    const tutor = await signInAs(server, 'tutor', { name: 'Sizwe Dlamini', categories: ['Statistics'] });
    const account = await createVerifiedUser(server, { name: 'Lerato Khumalo' });
    const student = await logIn(server, account);
    const date = sastDate(new Date(Date.now() + 10 * 86_400_000));
    const response = await student.post('/api/bookings', {
      id: crypto.randomUUID(),
      module: 'Introduction to Statistics',
      date,
      slots: ['09:00', '14:00', '17:30'],
      hours: 2,
      concepts: 'Hypothesis testing and p-values',
    });
    expect(response.status, response.text).toBe(201);
    const form = {
      student_name: 'Lerato Khumalo',
      student_email: account.email,
      module_name: 'Introduction to Statistics',
      date,
      timeslot1: '09:00',
      timeslot2: '14:00',
      timeslot3: '17:30',
      hours: '2',
      concepts: 'Hypothesis testing and p-values',
    };
    const receipt = await waitFor(
      async () => sentTo(account.email).find((r) => r.body.template_params.subject?.startsWith('Booking request')),
      "the student's receipt",
    );
    expect(receipt.body.template_params).toMatchObject({ ...form, to_email: account.email, to_name: 'Lerato Khumalo' });
    const toTutor = await waitFor(async () => sentTo(tutor.email)[0], "the tutor's new request");
    expect(toTutor.body.template_params).toMatchObject({ ...form, to_email: tutor.email, to_name: 'Sizwe Dlamini' });
    expect(toTutor.body.template_params.subject).toMatch(/^New booking request/);
  });

  test('while EmailJS refuses, a booking is made and confirmed all the same; the confirmation then gives the time in SAST and promises no attachment', async () => {
    const tutor = await signInAs(server, 'tutor', { name: 'Ayanda Nkosi', categories: ['Statistics'] });
    const account = await createVerifiedUser(server, { name: 'Zanele Mokoena' });
    const student = await logIn(server, account);
    emailJs.refuse(429, 'The monthly quota of e-mails has been used up');
    const date = sastDate(new Date(Date.now() + 10 * 86_400_000));
    const made = await student.post('/api/bookings', {
      id: crypto.randomUUID(),
      module: 'Introduction to Statistics',
      date,
      slots: ['09:00', '14:00', '17:30'],
      hours: 2,
      concepts: 'Regression',
    });
    // The old site aborted the booking when EmailJS failed; here the request stands and its e-mails wait.
    expect(made.status, made.text).toBe(201);
    await waitFor(
      async () =>
        (await outboxRows(account.email)).some((row) => Number(row.attempts) >= 1 && row.lockedUntil === null),
      "a first failed attempt at the student's receipt",
    );
    const confirmed = await tutor.client.post(`/api/bookings/${made.body.id}/confirm`, {
      slot: '14:00',
      version: made.body.version,
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'Confirmed', confirmedSlot: '14:00' });
    expect(sentTo(account.email)).toHaveLength(0);
    expect((await outboxRows(account.email)).every((row) => row.status === 'pending')).toBe(true);

    emailJs.accept();
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      transport: createEmailJsTransport(server.services.env.emailJs!),
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      now: () => new Date(Date.now() + 3_600_000),
      pollMs: 60_000,
    });
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
    const confirmation = sentTo(account.email).find((r) =>
      r.body.template_params.subject?.startsWith('Session confirmed'),
    );
    expect(confirmation, 'the confirmation, sent once EmailJS accepts').toBeDefined();
    const { message, message_html } = confirmation!.body.template_params;
    expect(message).toContain(`Your session is confirmed for ${formatSastSlot(date, '14:00')} (2 hours).`);
    // EmailJS carries no .ics: nothing is queued to attach, and the text does not say there is one.
    expect(message).not.toMatch(/attach/i);
    expect(message_html).not.toMatch(/attach/i);
    const row = (await outboxRows(account.email)).find((r) => r.subject.startsWith('Session confirmed'))!;
    expect(row.attachments).toBeNull();
  });
});
