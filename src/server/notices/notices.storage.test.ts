import { beforeAll, describe, expect, test } from 'vitest';
import type { NoticePreferences } from '../../common/notices.ts';
import { transact } from '../storage/firestore/context.ts';
import { deadline } from '../test/deadline.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../test/storage-engines.ts';
import { createDeliveriesFirestoreRepository, createNoticesFirestoreRepository } from './notices.firestore.ts';
import type { DeliveriesRepository, NewDelivery, NewNotice, NoticesRepository } from './notices.storage.ts';

/**
 * The notices' and deliveries' repository contracts, the same cases on each engine: SQL (the SQLite file, or
 * PostgreSQL with TEST_DATABASE_URL) and Firestore (Google's emulator). Few cases, each doing several things.
 */
interface Engine {
  notices: NoticesRepository;
  deliveries: DeliveriesRepository;
  transaction<T>(work: (notices: NoticesRepository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    notices: storage.repos.notices,
    deliveries: storage.repos.noticeDeliveries,
    transaction: (work) => storage.transaction((repos) => work(repos.notices)),
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('notices');
  return {
    notices: createNoticesFirestoreRepository({ db }),
    deliveries: createDeliveriesFirestoreRepository({ db }),
    transaction: (work) => transact(db, (tx) => work(createNoticesFirestoreRepository({ db, tx }))),
    close,
  };
}

const at = (minute: number) => new Date(Date.UTC(2026, 11, 4, 10, minute));
const notice = (userId: string, title: string, extra: Partial<NewNotice> = {}): NewNotice => ({
  userId,
  kind: 'booking-confirmed',
  title,
  body: `${title}: the body`,
  path: '/student-dashboard',
  ...extra,
});
const uid = () => crypto.randomUUID();

describe.each(contractEngines(openSql, openFirestore))('the notices’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    return () => engine.close();
  }, deadline(90_000));

  test('a user’s list, newest first, unread counted, read marked for their own only; an id written once', async () => {
    const { notices: repo } = engine;
    const [user, other] = [uid(), uid()];
    const [a, b, c, theirs] = [uid(), uid(), uid(), uid()];
    await repo.add([
      { notice: notice(user, 'First'), id: a, at: at(1) },
      { notice: notice(user, 'Second'), id: b, at: at(2) },
      { notice: notice(other, 'Theirs'), id: theirs, at: at(2) },
    ]);
    await repo.add([{ notice: notice(user, 'First again'), id: a, at: at(4) }]);
    await engine.transaction((tx) => tx.add([{ notice: notice(user, 'Third'), id: c, at: at(5) }]));
    const list = await repo.listFor(user, 10);
    expect(list.map((n) => [n.id, n.title])).toEqual([
      [c, 'Third'],
      [b, 'Second'],
      [a, 'First'],
    ]);
    expect(list[2]).toEqual({
      id: a,
      userId: user,
      kind: 'booking-confirmed',
      title: 'First',
      body: 'First: the body',
      path: '/student-dashboard',
      createdAt: at(1).toISOString(),
      readAt: null,
    });
    expect((await repo.listFor(user, 2)).map((n) => n.id)).toEqual([c, b]);
    expect((await repo.listSince(user, at(2).toISOString())).map((n) => n.id)).toEqual([b, c]);
    expect(await repo.listSince(user, at(6).toISOString())).toEqual([]);
    expect(await repo.unreadCount(user)).toBe(3);
    expect(await repo.markRead(user, [a, theirs, 'nobody'], at(6))).toBe(1);
    expect(await repo.markRead(user, [a], at(7))).toBe(0);
    expect(await repo.unreadCount(user)).toBe(2);
    expect(await repo.unreadCount(other)).toBe(1);
    expect((await repo.listFor(user, 10)).find((n) => n.id === a)?.readAt).toBe(at(6).toISOString());
    expect(await repo.markRead(user, 'all', at(8))).toBe(2);
    expect(await repo.unreadCount(user)).toBe(0);
    expect(await repo.markRead(user, [], at(8))).toBe(0);
    expect(await repo.listFor(uid(), 10)).toEqual([]);
    await expect(
      engine.transaction(async (tx) => {
        await tx.add([{ notice: notice(other, 'Refused'), id: uid(), at: at(9) }]);
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect((await repo.listFor(other, 10)).map((n) => n.title)).toEqual(['Theirs']);
  });

  test('dispatch: notices and fan-outs found until dispatched; a fan-out’s notices written once; follows', async () => {
    const { notices: repo } = engine;
    const before = (await repo.findUndispatched(1000)).map((n) => n.id);
    const [asker, helper, reader] = [uid(), uid(), uid()];
    const topic = `question:${uid()}`;
    await repo.follow(topic, asker, at(1));
    await repo.follow(topic, asker, at(2));
    await repo.follow(topic, reader, at(3));
    expect(await repo.isFollowing(topic, asker)).toBe(true);
    expect(await repo.isFollowing(topic, helper)).toBe(false);
    expect((await repo.followersOf(topic)).sort()).toEqual([asker, reader].sort());
    await repo.unfollow(topic, reader);
    await repo.unfollow(topic, helper);
    expect(await repo.followersOf(topic)).toEqual([asker]);

    const [one, fan] = [uid(), uid()];
    await repo.add([{ notice: notice(asker, 'Direct'), id: one, at: at(10) }]);
    const fanout = {
      topic,
      exceptUserId: helper,
      kind: 'question-answered' as const,
      title: 'New answer',
      body: 'Someone answered',
      path: '/qa/1',
    };
    await repo.addFanout(fanout, fan, at(11));
    const found = (await repo.findUndispatched(1000)).filter((n) => !before.includes(n.id));
    expect(found).toEqual([
      { fanout: false, ...(await repo.listFor(asker, 1))[0]! },
      { fanout: true, id: fan, createdAt: at(11).toISOString(), ...fanout },
    ]);
    const expanded = {
      notice: notice(asker, 'New answer', { kind: 'question-answered' }),
      id: `${fan}.${asker}`,
      at: at(11),
    };
    await repo.expandFanout(fan, [expanded]);
    await repo.expandFanout(fan, [expanded]);
    await repo.markDispatched(fan, at(12));
    await repo.markDispatched(one, at(12));
    const after = (await repo.findUndispatched(1000)).filter((n) => !before.includes(n.id));
    expect(after.map((n) => n.id)).toEqual([`${fan}.${asker}`]);
    expect((await repo.listFor(asker, 10)).map((n) => n.title)).toEqual(['New answer', 'Direct']);
    // A fan-out is nobody's notice.
    expect(await repo.unreadCount(helper)).toBe(0);
  });

  test('preferences and push subscriptions, one or many users; the export and the deletion of a user', async () => {
    const { notices: repo } = engine;
    const [user, other] = [uid(), uid()];
    expect(await repo.preferencesOf(user)).toBeUndefined();
    const prefs: NoticePreferences = {
      choices: { 'booking-confirmed': { push: { on: true, at: at(1).toISOString() } } },
      whatsappNumber: '27821234567',
    };
    await repo.savePreferences(user, prefs, at(1));
    expect(await repo.preferencesOf(user)).toEqual(prefs);
    const changed = { ...prefs, whatsappNumber: null };
    await repo.savePreferences(user, changed, at(2));
    expect(await repo.preferencesOf(user)).toEqual(changed);
    expect(await repo.preferencesOfMany([user, other, uid()])).toEqual(new Map([[user, changed]]));
    expect(await repo.preferencesOfMany([])).toEqual(new Map());

    const sub = (id: string, userId: string, endpoint = `https://push.example/${id}`) => ({
      id,
      userId,
      endpoint,
      p256dh: `key-${id}`,
      auth: `auth-${id}`,
      createdAt: at(3).toISOString(),
    });
    const [s1, s2, s3] = [uid(), uid(), uid()];
    await repo.savePushSubscription(sub(s1, user));
    await repo.savePushSubscription(sub(s2, other));
    await repo.savePushSubscription(sub(s3, user));
    await repo.savePushSubscription({ ...sub(s1, user), auth: 'renewed' });
    expect(await repo.findPushSubscription(s1)).toEqual({ ...sub(s1, user), auth: 'renewed' });
    expect((await repo.pushSubscriptionsOf([user])).map((s) => s.id).sort()).toEqual([s1, s3].sort());
    expect((await repo.pushSubscriptionsOf([user, other])).length).toBe(3);
    await repo.deletePushSubscription(s2, user);
    expect(await repo.findPushSubscription(s2)).toBeDefined();
    await repo.deletePushSubscription(s2);
    expect(await repo.findPushSubscription(s2)).toBeUndefined();

    const topic = `question:${uid()}`;
    await repo.follow(topic, user, at(4));
    await repo.add([{ notice: notice(user, 'Mine'), id: uid(), at: at(5) }]);
    const exported = await repo.exportOf(user);
    expect(exported.notices.map((n) => n.title)).toEqual(['Mine']);
    expect(exported.follows).toEqual([topic]);
    expect(exported.preferences).toEqual(changed);
    expect(exported.pushDevices).toEqual([
      { endpointHost: 'push.example', createdAt: at(3).toISOString() },
      { endpointHost: 'push.example', createdAt: at(3).toISOString() },
    ]);
    await engine.transaction((tx) => tx.deleteOf(user));
    expect(await repo.exportOf(user)).toEqual({ notices: [], follows: [], preferences: undefined, pushDevices: [] });
    expect(await repo.findPushSubscription(s1)).toBeUndefined();
    expect(await repo.followersOf(topic)).toEqual([]);
  });

  test('deliveries: made once, due, claimed by one, sent or retried or failed or gone, resent, reported', async () => {
    const { deliveries: repo } = engine;
    const [user, noticeId] = [uid(), uid()];
    const delivery = (channel: 'push' | 'whatsapp', target: string): NewDelivery => ({
      id: `${noticeId}:${channel}:${target}`,
      noticeId,
      userId: user,
      kind: 'booking-confirmed',
      channel,
      target,
      payload: JSON.stringify({ title: 'Confirmed' }),
    });
    const push = delivery('push', uid());
    const wa = delivery('whatsapp', '27821234567');
    await repo.add([push, wa], at(1));
    await repo.add([push], at(2));
    const now = at(30);
    expect(await repo.findDue('push', now, 1000)).toContain(push.id);
    expect(await repo.findDue('push', now, 1000)).not.toContain(wa.id);
    expect(await repo.findDue('push', at(0), 1000)).not.toContain(push.id);
    const claims = await Promise.all([repo.claim(push.id, now, 60_000), repo.claim(push.id, now, 60_000)]);
    const claimed = claims.filter(Boolean);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toEqual({
      ...push,
      status: 'pending',
      attempts: 0,
      lastError: null,
      providerId: null,
      providerStatus: null,
      createdAt: at(1).toISOString(),
      sentAt: null,
    });
    expect(await repo.findDue('push', now, 1000)).not.toContain(push.id);
    // A lease that ran out lets it go again.
    expect(await repo.claim(push.id, new Date(now.getTime() + 61_000), 60_000)).toBeDefined();
    await repo.markAttemptFailed(push.id, { error: 'push service 500', nextAttemptAt: at(40) });
    expect(await repo.findDue('push', at(39), 1000)).not.toContain(push.id);
    expect(await repo.findDue('push', at(40), 1000)).toContain(push.id);
    expect((await repo.claim(push.id, at(40), 60_000))?.attempts).toBe(1);
    await repo.markAttemptFailed(push.id, { error: 'gone (410)', nextAttemptAt: undefined, gone: true });
    expect(await repo.claim(push.id, at(50), 60_000)).toBeUndefined();
    expect(await repo.resend(push.id, at(51))).toBe(false);
    const ofNotice = await repo.ofNotices([noticeId, uid()]);
    expect(ofNotice.map((d) => `${d.channel} ${d.status}`).sort()).toEqual(['push gone', 'whatsapp pending']);
    expect(await repo.ofNotices([])).toEqual([]);

    await repo.claim(wa.id, now, 60_000);
    await repo.markAttemptFailed(wa.id, { error: 'refused (131026)', nextAttemptAt: undefined });
    const failed = await repo.listFailed(1000);
    expect(failed.find((d) => d.id === wa.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'refused (131026)',
    });
    expect(failed.find((d) => d.id === push.id)).toMatchObject({ status: 'gone', attempts: 2 });
    expect(await repo.resend(wa.id, at(52))).toBe(true);
    expect(await repo.resend(wa.id, at(52))).toBe(false);
    expect(await repo.findDue('whatsapp', at(52), 1000)).toContain(wa.id);
    const again = await repo.claim(wa.id, at(52), 60_000);
    expect(again?.attempts).toBe(0);
    await repo.markSent(wa.id, at(53), 'wamid.ABC');
    expect(await repo.claim(wa.id, at(54), 60_000)).toBeUndefined();
    expect((await repo.listFailed(1000)).some((d) => d.id === wa.id)).toBe(false);
    await repo.reportByProvider('wamid.ABC', 'delivered');
    await repo.reportByProvider('wamid.unknown', 'read');
    await repo.reportByProvider('wamid.ABC', 'failed', 'user blocked the business');
    expect((await repo.listFailed(1000)).find((d) => d.id === wa.id)).toMatchObject({
      status: 'failed',
      providerId: 'wamid.ABC',
      providerStatus: 'failed',
      lastError: 'user blocked the business',
      sentAt: at(53).toISOString(),
    });

    expect(await repo.deleteFinishedBefore(at(0))).toBe(0);
    await repo.deleteOf(user);
    expect((await repo.listFailed(1000)).some((d) => d.userId === user)).toBe(false);
  });

  test('at once: of ten senders one claims, five writers of one id make one notice, each read is counted once', async () => {
    const { notices: repo, deliveries } = engine;
    const [user, noticeId] = [uid(), uid()];
    const target = '+27 82/123 4567';
    const delivery: NewDelivery = {
      id: `${noticeId}:whatsapp:${target}`,
      noticeId,
      userId: user,
      kind: 'booking-reminder',
      channel: 'whatsapp',
      target,
      payload: '{}',
    };
    await deliveries.add([delivery], at(1));
    const claims = await Promise.all(Array.from({ length: 10 }, () => deliveries.claim(delivery.id, at(2), 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);

    // A fan-out expanded by several dispatchers at once: its notice's id is the same each time.
    const expanded = `${noticeId}.${user}`;
    const reminder = (i: number) => [
      { notice: notice(user, `Answer ${i}`, { kind: 'question-answered' }), id: expanded, at: at(3) },
    ];
    await Promise.all([0, 1, 2, 3, 4].map((i) => repo.expandFanout(noticeId, reminder(i))));
    expect(await repo.listFor(user, 10)).toHaveLength(1);

    const ids = [uid(), uid(), uid()];
    await repo.add(ids.map((id) => ({ notice: notice(user, 'Another'), id, at: at(4) })));
    const counts = await Promise.all([
      repo.markRead(user, 'all', at(5)),
      repo.markRead(user, ids, at(5)),
      repo.markRead(user, 'all', at(5)),
    ]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(4);
    expect(await repo.unreadCount(user)).toBe(0);
    await Promise.all([repo.deleteOf(user), deliveries.deleteOf(user)]);
    expect(await repo.listFor(user, 10)).toEqual([]);
  });
});
