import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
import { createFolderTransport, createSmtpTransport } from './mail.transports.ts';
import { createMailWorker, emailRetentionMs, maxEmailAttempts, nextAttemptDelayMs } from './mail.worker.ts';

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
