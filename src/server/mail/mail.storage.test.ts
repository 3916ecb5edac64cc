import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../test/storage-engines.ts';
import { createOutboxFirestoreRepository } from './mail.firestore.ts';
import type { NewEmail, OutboxRepository } from './mail.storage.ts';
import { deadline } from '../test/deadline.ts';

/**
 * The mail outbox's repository contract, the same cases on SQL and on Firestore's emulator, each on a fresh
 * database (the queue is global). Races run for real: senders claiming one e-mail at once, as from several
 * processes.
 */
interface Engine {
  repo: OutboxRepository;
  transaction<T>(work: (repo: OutboxRepository) => Promise<T>): Promise<T>;
  /** A user an e-mail may be about (SQL's foreign key wants one). */
  newUser(email: string): Promise<string>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.outbox,
    transaction: (work) => storage.transaction((repos) => work(repos.outbox)),
    async newUser(email) {
      const id = crypto.randomUUID();
      await storage.repos.accounts.insertInvited({ id, name: 'Lerato', email, role: 'student' }, at(0));
      return id;
    },
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('outbox');
  return {
    repo: createOutboxFirestoreRepository({ db }),
    transaction: (work) => db.runTransaction((tx) => work(createOutboxFirestoreRepository({ db, tx }))),
    newUser: () => Promise.resolve(crypto.randomUUID()),
    close,
  };
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 10, minutes));
/** The ids of the e-mails due, in the order they are to be sent. */
const dueIds = async (repo: OutboxRepository, now: Date, limit: number) =>
  (await repo.findDue(now, limit)).map((e) => e.id);
const lockMs = 60_000;

function email(subject: string, extra: Partial<NewEmail> = {}): NewEmail {
  return {
    kind: 'welcome',
    to: 'lerato@example.com',
    subject,
    text: `${subject}.`,
    html: `<p>${subject}.</p>`,
    ...extra,
  };
}

describe.each(contractEngines(openSql, openFirestore))('the outbox’s storage on %s', (_name, open) => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await open();
  }, deadline(90_000));
  afterEach(() => engine.close());

  test('due e-mails come oldest first, up to the limit, and a claim hands over the whole e-mail', async () => {
    const { repo } = engine;
    await repo.enqueue(
      email('Second', {
        toName: 'Lerato',
        params: { module_name: 'Calculus' },
        attachments: [{ filename: 'a.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
      }),
      at(2),
    );
    await repo.enqueue(email('First'), at(1));
    await repo.enqueue(email('Later'), at(30));
    expect(await dueIds(repo, at(0), 10)).toEqual([]);
    const due = await dueIds(repo, at(5), 10);
    expect(due).toHaveLength(2);
    expect(await dueIds(repo, at(5), 1)).toEqual(due.slice(0, 1));
    expect(await repo.claim(due[0]!, at(5), lockMs)).toEqual({
      id: due[0],
      kind: 'welcome',
      to: 'lerato@example.com',
      subject: 'First',
      text: 'First.',
      html: '<p>First.</p>',
      attempts: 0,
    });
    expect(await repo.claim(due[1]!, at(5), lockMs)).toEqual({
      id: due[1],
      kind: 'welcome',
      to: 'lerato@example.com',
      subject: 'Second',
      text: 'Second.',
      html: '<p>Second.</p>',
      attachments: [{ filename: 'a.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
      params: { to_name: 'Lerato', module_name: 'Calculus' },
      attempts: 0,
    });
  });

  test('the kinds someone waits for come first, then the oldest; each due e-mail comes with its address', async () => {
    const { repo } = engine;
    const kinds = ['booking-request', 'welcome', 'verification', 'booking-receipt', 'password-reset', 'invitation'];
    for (const [i, kind] of kinds.entries())
      await repo.enqueue(email(kind, { kind: kind as NewEmail['kind'], to: `${kind}@example.com` }), at(i));
    const due = await repo.findDue(at(10), 10);
    const subjects = [];
    for (const { id } of due) {
      subjects.push((await repo.claim(id, at(10), lockMs))!.subject);
      await repo.markSent(id, at(10));
    }
    expect(subjects).toEqual([
      'verification',
      'password-reset',
      'invitation',
      'booking-request',
      'welcome',
      'booking-receipt',
    ]);
    expect(due.map((e) => e.to)).toEqual(subjects.map((kind) => `${kind}@example.com`));
    // The limit keeps the first of that order.
    await repo.enqueue(email('Late', { kind: 'account-exists' }), at(11));
    await repo.enqueue(email('Later', { kind: 'booking-reminder' }), at(12));
    expect((await repo.findDue(at(12), 1)).map((e) => e.to)).toEqual(['lerato@example.com']);
    expect((await repo.claim((await repo.findDue(at(12), 1))[0]!.id, at(12), lockMs))?.subject).toBe('Late');
  });

  test('an e-mail whose key is queued already is not added again, in a transaction or not', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Welcome', { dedupeKey: 'welcome:1' }), at(1));
    // Sent already: queueing it again neither adds it nor makes it due again.
    const [id] = await dueIds(repo, at(1), 10);
    await repo.claim(id!, at(1), lockMs);
    await repo.markSent(id!, at(1));
    await repo.enqueue(email('Welcome again', { dedupeKey: 'welcome:1' }), at(2));
    expect(await dueIds(repo, at(2), 10)).toEqual([]);
    await engine.transaction((tx) => tx.enqueue(email('Welcome in a transaction', { dedupeKey: 'welcome:1' }), at(3)));
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => repo.enqueue(email(`Raced ${i}`, { dedupeKey: 'reminder:1' }), at(4))),
    );
    const subjects = (await repo.listTo('lerato@example.com')).map((e) => e.subject);
    expect(subjects).toHaveLength(2);
    expect(subjects[0]).toBe('Welcome');
    expect(subjects[1]).toMatch(/^Raced \d$/);
  });

  test('e-mails queued together each keep their time, and one whose key is queued already is left out', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Welcome', { dedupeKey: 'welcome:1' }), at(1));
    await engine.transaction((tx) =>
      tx.enqueueAll([
        { email: email('Receipt'), now: at(3) },
        { email: email('Welcome again', { dedupeKey: 'welcome:1' }), now: at(2) },
        { email: email('Request'), now: at(2) },
      ]),
    );
    await repo.enqueueAll([]);
    const due = await dueIds(repo, at(2), 10);
    const subjects = [];
    for (const id of due) subjects.push((await repo.claim(id, at(2), lockMs))!.subject);
    expect(subjects).toEqual(['Welcome', 'Request']);
    expect((await repo.listTo('lerato@example.com')).map((e) => e.subject).sort()).toEqual([
      'Receipt',
      'Request',
      'Welcome',
    ]);
  });

  test('many e-mails queued together are all kept, each with its own fields', async () => {
    const { repo } = engine;
    // More than SQL writes in one statement (mail.repository.ts), and a count it has not written before.
    const many = Array.from({ length: 19 }, (_, i) => ({
      email: email(`Notice ${i}`, i % 2 ? { params: { n: String(i) } } : { dedupeKey: `notice:${i}` }),
      now: at(i),
    }));
    await engine.transaction((tx) => tx.enqueueAll(many));
    const kept = await repo.listTo('lerato@example.com');
    expect(kept.map((e) => e.subject).sort()).toEqual(many.map(({ email }) => email.subject).sort());
    const due = await dueIds(repo, at(30), 50);
    expect(due).toHaveLength(19);
    const third = (await repo.claim(due[3]!, at(30), lockMs))!;
    expect(third).toMatchObject({ subject: 'Notice 3', params: { n: '3' } });
    // Keyed ones are still sent once.
    await repo.enqueueAll([{ email: email('Notice again', { dedupeKey: 'notice:4' }), now: at(31) }]);
    expect(await repo.listTo('lerato@example.com')).toHaveLength(19);
  });

  test('of ten senders claiming one e-mail at once, one gets it; it is held until its lease ends', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Once'), at(1));
    const [id] = await dueIds(repo, at(2), 10);
    const claims = await Promise.all(Array.from({ length: 10 }, () => repo.claim(id!, at(2), lockMs)));
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    expect(await dueIds(repo, at(2), 10)).toEqual([]);
    expect(await repo.claim(id!, at(2), lockMs)).toBeUndefined();
    // A sender that died lets it go when the lease ends.
    expect(await dueIds(repo, at(4), 10)).toEqual([id]);
    expect((await repo.claim(id!, at(4), lockMs))?.subject).toBe('Once');
    expect(await repo.claim(crypto.randomUUID(), at(4), lockMs)).toBeUndefined();
  });

  test('a failed attempt is counted and due again at its time; the last one fails for good', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Flaky'), at(1));
    const [id] = await dueIds(repo, at(1), 10);
    await repo.claim(id!, at(1), lockMs);
    await repo.markAttemptFailed(id!, { error: 'SMTP said no', nextAttemptAt: at(10) });
    expect(await dueIds(repo, at(9), 10)).toEqual([]);
    expect(await dueIds(repo, at(10), 10)).toEqual([id]);
    expect((await repo.claim(id!, at(10), lockMs))?.attempts).toBe(1);
    await repo.markAttemptFailed(id!, { error: 'SMTP said no again', nextAttemptAt: undefined });
    expect(await dueIds(repo, at(59), 10)).toEqual([]);
    expect(await repo.claim(id!, at(59), lockMs)).toBeUndefined();
    expect((await repo.listTo('lerato@example.com')).map((e) => e.status)).toEqual(['failed']);
  });

  test('keyed e-mails say where they stand, by key: pending, sent, or failed with the reason', async () => {
    const { repo } = engine;
    await repo.enqueueAll([
      { email: email('Reminder 1', { dedupeKey: 'reminder:1' }), now: at(1) },
      { email: email('Reminder 2', { dedupeKey: 'reminder:2' }), now: at(2) },
      { email: email('Reminder 3', { dedupeKey: 'reminder:3' }), now: at(3) },
    ]);
    const ids = await dueIds(repo, at(5), 10);
    await repo.claim(ids[0]!, at(5), lockMs);
    await repo.markSent(ids[0]!, at(6));
    await repo.claim(ids[1]!, at(5), lockMs);
    await repo.markAttemptFailed(ids[1]!, { error: 'Mailbox unavailable', nextAttemptAt: undefined });
    const statuses = await repo.statusesOf(['reminder:1', 'reminder:2', 'reminder:3', 'reminder:never']);
    expect(Object.fromEntries(statuses)).toEqual({
      'reminder:1': { status: 'sent', lastError: null },
      'reminder:2': { status: 'failed', lastError: 'Mailbox unavailable' },
      'reminder:3': { status: 'pending', lastError: null },
    });
    expect((await repo.statusesOf([])).size).toBe(0);
  });

  test('a sent e-mail is never due again and shows in the delivery log with its time', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Sent'), at(1));
    await repo.enqueue(email('Waiting'), at(2));
    await repo.enqueue(email('Someone else’s', { to: 'other@example.com' }), at(3));
    const [id] = await dueIds(repo, at(1), 1);
    await repo.claim(id!, at(1), lockMs);
    await repo.markSent(id!, at(2));
    await repo.markSent(crypto.randomUUID(), at(2));
    expect(await dueIds(repo, at(59), 10)).toHaveLength(2);
    expect(await repo.listTo('lerato@example.com')).toEqual([
      { kind: 'welcome', subject: 'Sent', status: 'sent', createdAt: at(1).toISOString(), sentAt: at(2).toISOString() },
      { kind: 'welcome', subject: 'Waiting', status: 'pending', createdAt: at(2).toISOString(), sentAt: null },
    ]);
  });

  test('whether an e-mail of a kind was queued to an address since a time', async () => {
    const { repo } = engine;
    await repo.enqueue(email('Verify', { kind: 'verification' }), at(10));
    await repo.enqueue(email('Reset', { kind: 'password-reset', to: 'other@example.com' }), at(20));
    expect(await repo.queuedSince('lerato@example.com', 'verification', at(9))).toBe(true);
    expect(await repo.queuedSince('lerato@example.com', 'verification', at(10))).toBe(false);
    expect(await repo.queuedSince('lerato@example.com', 'password-reset', at(0))).toBe(false);
    expect(await repo.queuedSince('other@example.com', 'verification', at(0))).toBe(false);
  });

  test('finished e-mails made before a time are deleted; pending and newer ones stay', async () => {
    const { repo } = engine;
    for (const [subject, minute] of [
      ['Old sent', 1],
      ['Old failed', 2],
      ['Old pending', 3],
      ['New sent', 20],
    ] as const)
      await repo.enqueue(email(subject), at(minute));
    for (const id of await dueIds(repo, at(30), 10)) {
      const claimed = await repo.claim(id, at(30), lockMs);
      if (claimed?.subject === 'Old failed')
        await repo.markAttemptFailed(id, { error: 'no', nextAttemptAt: undefined });
      else if (claimed?.subject !== 'Old pending') await repo.markSent(id, at(30));
    }
    expect(await repo.deleteFinishedBefore(at(10))).toBe(2);
    expect((await repo.listTo('lerato@example.com')).map((e) => e.subject)).toEqual(['Old pending', 'New sent']);
  });

  test('a person’s e-mails, to them or about them, are deleted; others stay', async () => {
    const { repo } = engine;
    const user = { id: await engine.newUser('lerato@example.com'), email: 'lerato@example.com' };
    await repo.enqueue(email('To her'), at(1));
    await repo.enqueue(email('About her', { to: 'tutor@example.com', aboutUserId: user.id }), at(2));
    await repo.enqueue(email('To the tutor', { to: 'tutor@example.com' }), at(3));
    // As in the account's deletion: after other writes of the same transaction (Firestore allows no read there).
    await engine.transaction(async (tx) => {
      await tx.enqueue(email('Queued first', { to: 'staff@example.com' }), at(4));
      await tx.deleteOf(user);
    });
    expect(await repo.listTo('lerato@example.com')).toEqual([]);
    expect((await repo.listTo('tutor@example.com')).map((e) => e.subject)).toEqual(['To the tutor']);
  });

  test('an e-mail queued in a transaction that fails is not queued', async () => {
    await expect(
      engine.transaction(async (tx) => {
        await tx.enqueue(email('Never'), at(1));
        await tx.enqueue(email('Never keyed', { dedupeKey: 'never' }), at(1));
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await dueIds(engine.repo, at(59), 10)).toEqual([]);
    await engine.repo.enqueue(email('Now', { dedupeKey: 'never' }), at(2));
    expect(await dueIds(engine.repo, at(59), 10)).toHaveLength(1);
  });
});
