import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createClient,
  findClosedPort,
  firstLink,
  logInWithLink,
  startSmtpServer,
  startTestServer,
  testPassword,
  uniqueEmail,
  waitFor,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { storedEmails, storeEmails } from '../test/stored.ts';
import type { EmailKind } from './email-kinds.ts';
import { createFolderTransport, createSmtpTransport, type MailTransport } from './mail.transports.ts';
import { createMailWorker, emailRetentionMs, maxEmailAttempts, nextAttemptDelayMs } from './mail.worker.ts';
import { deadline } from '../test/deadline.ts';

describe('retry schedule', () => {
  test('waits 30 s after the first failure, doubling each time up to an hour, and gives up after ten attempts', () => {
    expect(maxEmailAttempts).toBe(10);
    const minutes = (ms: number | undefined) => (ms === undefined ? undefined : ms / 60_000);
    expect(Array.from({ length: 10 }, (_, attempts) => minutes(nextAttemptDelayMs(attempts)))).toEqual([
      0.5,
      1,
      2,
      4,
      8,
      16,
      32,
      60,
      60,
      undefined,
    ]);
    expect(nextAttemptDelayMs(25)).toBeUndefined();
  });
});

describe('the mail folder (no SMTP_URL)', () => {
  test('writes each e-mail as an .eml file and logs its links', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-mail-'));
    try {
      const logged: { msg: string; links: string[] }[] = [];
      const transport = createFolderTransport(dir, (msg, links) => logged.push({ msg, links }));
      await transport.send({
        id: 'e-1',
        kind: 'verification',
        from: 'TutorBook <no-reply@tutorbook.co.za>',
        to: 'lindiwe@example.com',
        subject: 'Verify your e-mail for TutorBook',
        text: 'Verify: http://localhost:3000/api/auth/verify-email?token=abc',
        html: '<p>Verify</p>',
      });
      transport.close();
      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/e-1\.eml$/);
      const eml = await readFile(path.join(dir, files[0]!), 'utf8');
      expect(eml).toContain('Subject: Verify your e-mail for TutorBook');
      expect(eml).toContain('To: lindiwe@example.com');
      expect(logged).toEqual([
        {
          msg: expect.stringContaining('lindiwe@example.com'),
          links: ['http://localhost:3000/api/auth/verify-email?token=abc'],
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('when the mail server is down', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The app's SMTP_URL points at a port where nothing listens.
    server = await startTestServer({ smtpUrl: `smtp://127.0.0.1:${await findClosedPort()}` });
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const outboxRows = (emails: string[]) => storedEmails(server.services, emails);

  test('sign-up still succeeds, the e-mails wait in the outbox, and go out in order once the mail server is back', async () => {
    const emails = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
    // Before the sign-ups: the worker tries each e-mail as it is queued, so its retry is due 30 s after that.
    const startedAt = Date.now();
    for (const email of emails) {
      const signUp = await createClient(server.url).post('/api/auth/sign-up/email', {
        name: 'Kagiso',
        email,
        password: testPassword,
      });
      expect(signUp.status).toBe(200);
    }

    // The worker tries at once (it is woken when an e-mail is queued), fails, and schedules a retry.
    const failed = await waitFor(async () => {
      const rows = await outboxRows(emails);
      return rows.length === 6 && rows.every((r) => r.attempts === 1 && r.lockedUntil === null) && rows;
    }, 'a first failed attempt at every e-mail');
    for (const row of failed) {
      expect(row.status).toBe('pending');
      expect(row.lastError).toMatch(/ECONNREFUSED/);
      expect(row.sentAt).toBeNull();
      const wait = Date.parse(row.nextAttemptAt) - startedAt;
      expect(wait).toBeGreaterThan(25_000);
      expect(wait).toBeLessThanOrEqual(31_000 + (Date.now() - startedAt));
    }
    expect(failed.map((r) => r.kind).sort()).toEqual([
      'verification',
      'verification',
      'verification',
      'welcome',
      'welcome',
      'welcome',
    ]);
    expect(smtp.messages).toHaveLength(0);

    // The mail server is back: a worker that reaches it, at a time the retries are due.
    const transport = createSmtpTransport(smtp.url);
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      transport,
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      now: () => new Date(Date.now() + 31_000),
      pollMs: 60_000,
    });
    try {
      expect(await worker.runOnce()).toBe(6);
    } finally {
      await worker.stop();
      transport.close();
    }

    const delivered = await outboxRows(emails);
    for (const row of delivered) {
      expect(row.status).toBe('sent');
      expect(row.attempts).toBe(2);
      expect(row.sentAt).not.toBeNull();
    }

    for (const email of emails) {
      const verification = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
      const welcome = await smtp.waitForEmail({ to: email, subject: 'Welcome to TutorBook!' });
      expect(welcome.seq).toBeGreaterThan(verification.seq);
      expect(verification.from).toBe('no-reply@tutorbook.co.za');
      // The late link still works.
      const link = firstLink(verification.text);
      expect(link.startsWith(`${server.url}/api/auth/verify-email?token=`)).toBe(true);
      expect((await logInWithLink(createClient(server.url), link, { email, password: testPassword })).status).toBe(200);
    }
  });

  test('an e-mail that fails ten times is marked failed and not tried again', async () => {
    const to = uniqueEmail('unreachable');
    // Queued "in the future" so the app's own worker leaves it to the worker below, whose clock runs ahead.
    let clock = Date.now() + 10 * 60_000;
    await server.services.deps.repos.outbox.enqueue(
      { kind: 'welcome', to, subject: 'Never arrives', text: 'x', html: '<p>x</p>' },
      new Date(clock),
    );
    const transport = createSmtpTransport(`smtp://127.0.0.1:${await findClosedPort()}`);
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      transport,
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      // Two hours pass between readings: every retry is due at the next run.
      now: () => new Date((clock += 2 * 60 * 60_000)),
      pollMs: 60_000,
    });
    const row = async () => {
      const [email] = await storedEmails(server.services, [to]);
      if (!email) throw new Error(`no e-mail to ${to}`);
      return email;
    };
    try {
      for (let i = 1; i <= maxEmailAttempts; i++) {
        expect(await worker.runOnce()).toBe(0);
        const current = await row();
        expect(current.attempts).toBe(i);
        expect(current.status).toBe(i < maxEmailAttempts ? 'pending' : 'failed');
      }
      await worker.runOnce();
      expect((await row()).attempts).toBe(maxEmailAttempts);
    } finally {
      await worker.stop();
      transport.close();
    }
  });

  test('the delivery log forgets sent e-mails after 90 days but keeps those still waiting', async () => {
    const day = 24 * 60 * 60_000;
    const longAgo = new Date(Date.now() - emailRetentionMs - day).toISOString();
    const yesterday = new Date(Date.now() - day).toISOString();
    // Due only next week: neither the app's worker nor the one below tries to send it.
    const nextWeek = new Date(Date.now() + 7 * day).toISOString();
    const [oldSent, recentSent, oldWaiting] = [
      uniqueEmail('old-sent'),
      uniqueEmail('recent-sent'),
      uniqueEmail('old-waiting'),
    ];
    // Written in their final state, so no worker can pick them up in between.
    const row = (to: string, createdAt: string, status: 'sent' | 'pending') => ({
      id: crypto.randomUUID(),
      kind: 'test',
      to,
      status,
      attempts: status === 'sent' ? 1 : 0,
      nextAttemptAt: status === 'pending' ? nextWeek : createdAt,
      lockedUntil: null,
      lastError: null,
      createdAt,
      sentAt: status === 'sent' ? createdAt : null,
    });
    await storeEmails(server.services, [
      row(oldSent, longAgo, 'sent'),
      row(recentSent, yesterday, 'sent'),
      row(oldWaiting, longAgo, 'pending'),
    ]);

    const transport = createSmtpTransport(`smtp://127.0.0.1:${await findClosedPort()}`);
    const worker = createMailWorker({
      outbox: server.services.deps.repos.outbox,
      transport,
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      pollMs: 60_000,
    });
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
      transport.close();
    }
    const left = (await outboxRows([oldSent, recentSent, oldWaiting])).map((r) => [r.to, r.status]);
    expect(left).toEqual([
      [oldWaiting, 'pending'],
      [recentSent, 'sent'],
    ]);
  });
});

/**
 * A mail server that takes its time over each message, counting how many it is sent at once, and the order in
 * which messages come (when their data starts, so that a message started later never comes first).
 */
async function startSlowSmtpServer(delayMs: number) {
  const arrived: { to: string; subject: string }[] = [];
  const counts = { inFlight: 0, mostAtOnce: 0 };
  const byAddress = new Map<string, number>();
  let sameAddressAtOnce = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo[0]?.address ?? '';
      counts.inFlight++;
      counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.inFlight);
      byAddress.set(to, (byAddress.get(to) ?? 0) + 1);
      if (byAddress.get(to)! > 1) sameAddressAtOnce++;
      simpleParser(stream)
        .then((mail) => {
          arrived.push({ to, subject: mail.subject ?? '' });
          return new Promise((resolve) => setTimeout(resolve, delayMs));
        })
        .then(() => callback())
        .catch((error: unknown) => callback(error as Error))
        .finally(() => {
          counts.inFlight--;
          byAddress.set(to, byAddress.get(to)! - 1);
        });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrived,
    counts,
    sameAddressAtOnce: () => sameAddressAtOnce,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a slow mail server', () => {
  let slow: Awaited<ReturnType<typeof startSlowSmtpServer>>;
  let server: TestServer;

  beforeAll(async () => {
    slow = await startSlowSmtpServer(750);
    // The app's own worker sends through the same slow server; the tests below queue "in ten minutes", which
    // only their own workers, whose clocks run ahead, see as due.
    server = await startTestServer({ smtpUrl: slow.url });
  });

  afterAll(async () => {
    await server?.close();
    await slow?.close();
  });

  const ahead = 10 * 60_000;
  const queueLater = (emails: { kind: EmailKind; to: string; subject: string }[]) =>
    server.services.deps.repos.outbox.enqueueAll(
      emails.map((email, i) => ({
        email: { ...email, text: `${email.subject}.`, html: `<p>${email.subject}.</p>` },
        now: new Date(Date.now() + ahead + i),
      })),
    );
  const workerOn = (transport: MailTransport) =>
    createMailWorker({
      outbox: server.services.deps.repos.outbox,
      transport,
      from: server.services.env.mailFrom,
      logger: server.services.logger,
      now: () => new Date(Date.now() + 2 * ahead),
      pollMs: 60_000,
    });

  test('gets four e-mails at a time, never more, one at a time to each address and in the order they were queued', async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const student = `student-${run}@example.com`;
    await queueLater([
      ...Array.from({ length: 20 }, (_, i) => ({
        kind: 'booking-request' as const,
        to: `tutor-${i}-${run}@example.com`,
        subject: `New booking request ${i}`,
      })),
      ...['Booking request received', 'Session confirmed', 'Session reminder'].map((subject) => ({
        kind: 'booking-receipt' as const,
        to: student,
        subject,
      })),
    ]);
    const transport = createSmtpTransport(slow.url);
    const worker = workerOn(transport);
    const startedAt = Date.now();
    try {
      expect(await worker.runOnce()).toBe(23);
    } finally {
      await worker.stop();
      transport.close();
    }
    // One at a time: 23 × 0.75 s, over 17 s; four at a time, about 5 s. Scaled by the machine's load (deadline.ts):
    // in CI, beside two other test runs, it once took 27 s; `mostAtOnce` says how many went at once.
    expect(Date.now() - startedAt).toBeLessThan(deadline(12_000));
    expect(slow.counts.mostAtOnce).toBe(4);
    expect(slow.sameAddressAtOnce()).toBe(0);
    expect(slow.arrived.filter((m) => m.to === student).map((m) => m.subject)).toEqual([
      'Booking request received',
      'Session confirmed',
      'Session reminder',
    ]);
    const rows = await storedEmails(server.services, [student]);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  test('two processes sending from one queue at once send each e-mail once', async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const addresses = Array.from({ length: 24 }, (_, i) => `reader-${i}-${run}@example.com`);
    await queueLater(addresses.map((to, i) => ({ kind: 'booking-reminder', to, subject: `Reminder ${i}` })));
    const transports = [createSmtpTransport(slow.url), createSmtpTransport(slow.url)];
    const workers = transports.map(workerOn);
    try {
      const counts = await Promise.all(workers.map((worker) => worker.runOnce()));
      expect(counts[0]! + counts[1]!).toBe(24);
      expect(Math.min(...counts)).toBeGreaterThan(0);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      for (const transport of transports) transport.close();
    }
    const arrived = slow.arrived.filter((m) => m.to.includes(run)).map((m) => m.to);
    expect(arrived.sort()).toEqual([...addresses].sort());
    const rows = await storedEmails(server.services, addresses);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(addresses.map(() => ['sent', 1]));
  });
});
