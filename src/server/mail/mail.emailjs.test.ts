import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { escapeHtml } from '../../common/escape-html.ts';
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
import { deadline } from '../test/deadline.ts';
import { createEmailJsTransport } from './mail.transports.ts';
import { createMailWorker } from './mail.worker.ts';

/**
 * A stand-in for api.emailjs.com on 127.0.0.1: records every request it is sent and answers as EmailJS does
 * (200 "OK"), or refuses as it does when told to (a wrong key: 400 with a text). Told so, it answers only after
 * a while (a slow EmailJS: it has sent the e-mail by then, whether or not the sender still waits), and refuses
 * a request that comes less than a second after the one before (EmailJS's "1 request per second").
 */
async function startEmailJsStandIn() {
  const received: { path: string; contentType: string | undefined; body: EmailJsBody; at: number }[] = [];
  let refusal: { status: number; text: string } | undefined;
  let answerAfterMs = 0;
  let rateLimited = false;
  let lastArrival = -Infinity;
  const counts = { inFlight: 0, mostAtOnce: 0, tooSoon: 0 };
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const arrival = performance.now();
      // A little slack for the timers on both sides: EmailJS's own window is not known to the millisecond.
      const tooSoon = rateLimited && arrival - lastArrival < 950;
      lastArrival = arrival;
      if (tooSoon) {
        counts.tooSoon++;
        res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests');
        return;
      }
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'text/plain' }).end(refusal.text);
        return;
      }
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        body: JSON.parse(text),
        at: arrival,
      });
      counts.inFlight++;
      counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.inFlight);
      setTimeout(() => {
        counts.inFlight--;
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      }, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    counts,
    refuse(status: number, text: string) {
      refusal = { status, text };
    },
    /** Answers each request this long after it came (the e-mail is sent when it comes). */
    answerAfter(ms: number) {
      answerAfterMs = ms;
    },
    /** Refuses, with 429, a request less than a second after the one before. */
    limitRate() {
      rateLimited = true;
    },
    accept() {
      refusal = undefined;
      answerAfterMs = 0;
      rateLimited = false;
      Object.assign(counts, { mostAtOnce: 0, tooSoon: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface EmailJsBody {
  service_id: string;
  template_id: string;
  user_id: string;
  accessToken: string;
  template_params: Record<string, string>;
}

/**
 * A template filled in as EmailJS documents it (https://www.emailjs.com/docs/user-guide/dynamic-variables-templates/):
 * `{{name}}` escaped (as Mustache escapes), `{{{name}}}` inserted as it is, a missing value as nothing.
 */
function fillTemplate(template: string, params: Record<string, string>): string {
  const escaped: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
    '/': '&#x2F;',
    '`': '&#x60;',
    '=': '&#x3D;',
  };
  return template
    .replace(/\{\{\{\s*(\w+)\s*\}\}\}/g, (_, name: string) => params[name] ?? '')
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
      (params[name] ?? '').replace(/[&<>"'/`=]/g, (c) => escaped[c]!),
    );
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
    expect(message).toContain(
      `Your session with Ayanda Nkosi is confirmed for ${formatSastSlot(date, '14:00')} (2 hours).`,
    );
    // EmailJS carries no .ics: nothing is queued to attach, and the text does not say there is one.
    expect(message).not.toMatch(/attach/i);
    expect(message_html).not.toMatch(/attach/i);
    const row = (await outboxRows(account.email)).find((r) => r.subject.startsWith('Session confirmed'))!;
    expect(row.attachments).toBeNull();
  });

  test("the users' text goes as they wrote it for {{value}}, and as safe HTML in each value's _html copy for {{{value_html}}}", async () => {
    const account = await createVerifiedUser(server, { name: "Thandi O'Brien" });
    const student = await logIn(server, account);
    // As long as concepts may be, every character one to escape: the longest the values can get.
    const hostile = 'Is P(X<3) & P(X>1) "likely"?\n<a href="https://evil.test/pay">Pay here</a><img src=x>\n';
    const concepts = hostile + '&<>"'.repeat((2000 - hostile.length) >> 2);
    const module = 'Stats <b>101</b>';
    const made = await student.post('/api/bookings', {
      id: crypto.randomUUID(),
      module,
      date: sastDate(new Date(Date.now() + 10 * 86_400_000)),
      slots: ['09:00', '14:00', '17:30'],
      hours: 2,
      concepts,
    });
    expect(made.status, made.text).toBe(201);
    const receipt = await waitFor(
      async () => sentTo(account.email).find((r) => r.body.template_params.subject?.startsWith('Booking request')),
      "the student's receipt",
    );
    const params = receipt.body.template_params;
    expect(params).toMatchObject({ concepts, module_name: module, student_name: "Thandi O'Brien" });
    expect(params.concepts_html).toMatch(
      /^Is P\(X&lt;3\) &amp; P\(X&gt;1\) &quot;likely&quot;\?<br>&lt;a href=&quot;https:\/\/evil\.test\/pay&quot;&gt;Pay here&lt;\/a&gt;&lt;img src=x&gt;<br>(&amp;&lt;&gt;&quot;)+$/,
    );
    expect(params.module_name_html).toBe('Stats &lt;b&gt;101&lt;/b&gt;');
    expect(params.student_name_html).toBe('Thandi O&#39;Brien');
    expect(params.subject_html).toBe(escapeHtml(params.subject!));
    // Every value has its copy; `message`'s is the whole e-mail as the app renders it.
    for (const key of Object.keys(params).filter((k) => !k.endsWith('_html') && k !== 'message'))
      expect(params, key).toHaveProperty(`${key}_html`);
    expect(params.message_html).toMatch(/^<!doctype html>/);

    // Filled in by EmailJS's rules, both ways show the text as typed, and neither carries the student's markup.
    const html = fillTemplate('<p>{{concepts}}</p><p>{{{concepts_html}}}</p><h1>{{{module_name_html}}}</h1>', params);
    expect(html).not.toMatch(/<(a|img|b)\b/);
    const shown = (fragment: string) =>
      fragment
        .replace(/<br>/g, '\n')
        .replace(/&#(x?)([0-9a-f]+);/gi, (_, hex: string, n: string) =>
          String.fromCodePoint(parseInt(n, hex ? 16 : 10)),
        )
        .replace(/&(lt|gt|quot|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!);
    const [first, second] = [...html.matchAll(/<p>(.*?)<\/p>/gs)].map((m) => shown(m[1]!));
    expect(second).toBe(concepts);
    expect(first).toBe(concepts);
    // EmailJS takes at most 50 KB of values (its "Dynamic variables" page): the longest concepts, with their
    // copy and the whole e-mail, fit.
    expect(Buffer.byteLength(JSON.stringify(params))).toBeLessThan(50_000);
  });

  test('EmailJS answering slowly: twenty booking e-mails go a few at a time at its pace, and a verification queued after them goes next', async () => {
    emailJs.answerAfter(2_500);
    emailJs.limitRate();
    const run = crypto.randomUUID().slice(0, 8);
    const tutors = Array.from({ length: 20 }, (_, i) => `tutor-${i}-${run}@example.com`);
    const startedAt = Date.now();
    await server.services.deps.mail.enqueue(
      ...tutors.map((to, i) => ({
        kind: 'booking-request' as const,
        to,
        subject: `New booking request ${i}`,
        text: 'A request.',
        html: '<p>A request.</p>',
      })),
    );
    const ofThisRun = () =>
      emailJs.received.filter(
        (r) => r.body.template_params.to_email?.includes(run) || r.body.template_params.to_email === email,
      );
    const email = uniqueEmail('waiting');
    await waitFor(async () => ofThisRun().length > 0, 'the first booking e-mail');
    const sentBefore = ofThisRun().length;
    expect((await signUp(email)).status).toBe(200);
    // The verification is queued somewhere during the sign-up, which a loaded machine makes slow.
    const sentAfter = ofThisRun().length;

    const all = await waitFor(async () => ofThisRun().length === 22 && ofThisRun(), 'every e-mail', 60_000);
    const tookMs = Date.now() - startedAt;
    const order = all.map((r) => `${r.body.template_params.to_email} ${r.body.template_params.subject}`);
    const verification = order.findIndex((line) => line.startsWith(`${email} Verify your e-mail`));
    // Sent as soon as a send could start (one a second): before all but the few booking e-mails already going.
    expect(verification, order.join('\n')).toBeGreaterThanOrEqual(sentBefore);
    expect(verification, order.join('\n')).toBeLessThanOrEqual(sentAfter + 2);
    // The welcome is no link anyone waits for: it goes after the booking e-mails, queued before it.
    expect(order.at(-1)).toBe(`${email} Welcome to TutorBook!`);
    // One at a time, 22 answers of 2.5 s take 55 s; a few at once, a start every 1.1 s, about 26 s.
    expect(tookMs).toBeLessThan(deadline(40_000));
    expect(emailJs.counts.mostAtOnce).toBeGreaterThan(1);
    expect(emailJs.counts.mostAtOnce).toBeLessThanOrEqual(4);
    expect(emailJs.counts.tooSoon).toBe(0);
    // Each sent once, none refused and tried again.
    const rows = await waitFor(async () => {
      const found = await storedEmails(server.services, [...tutors, email]);
      return found.every((row) => row.status === 'sent') && found;
    }, 'every e-mail marked sent');
    expect(rows.map((row) => row.attempts)).toEqual(rows.map(() => 1));
  });

  test('an answer that comes after the send was given up counts as a failed attempt: the retry sends the e-mail again, so it may arrive twice', async () => {
    emailJs.answerAfter(1_500);
    const to = uniqueEmail('late-answer');
    // Queued "in ten minutes", so that only the worker below, whose clock runs ahead, sends it.
    let ahead = 10 * 60_000;
    await server.services.deps.repos.outbox.enqueue(
      { kind: 'booking-receipt', to, subject: 'Booking request received', text: 'x', html: '<p>x</p>' },
      new Date(Date.now() + ahead),
    );
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      // The app's transport, with a time-out shorter than the stand-in's answer (10 s in the app).
      transport: createEmailJsTransport({ ...server.services.env.emailJs!, timeoutMs: 500 }),
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      now: () => new Date(Date.now() + ahead),
      pollMs: 60_000,
    });
    try {
      expect(await worker.runOnce()).toBe(0);
      const [waiting] = await outboxRows(to);
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
      expect(waiting!.lastError).toBe(
        'EmailJS did not answer within 0.5 s: it may still send this e-mail, and the retry sends it again',
      );
      // EmailJS had it all the same: the e-mail went.
      expect(sentTo(to)).toHaveLength(1);

      // EmailJS answers at once again; the retry, 30 s later, sends it a second time.
      emailJs.answerAfter(0);
      ahead += 31_000;
      expect(await worker.runOnce()).toBe(1);
      expect(sentTo(to)).toHaveLength(2);
      const [sent] = await outboxRows(to);
      expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await worker.stop();
    }
  });
});
