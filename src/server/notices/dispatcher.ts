import type { Logger } from 'pino';
import { isChosen, noticeKindInfo, type DeliveryChannel, type PushPayload } from '../../common/notices.ts';
import type { EventPublisher } from '../events/events.ts';
import type { Repositories } from '../storage/storage.ts';
import type { NewDelivery, NoticeRecord, UndispatchedNotice } from './notices.storage.ts';
import { noticesTable } from './notify.ts';
import { createPolledRun, type PolledRun } from './polled-run.ts';

/** What the dispatcher turns a notice into on a channel it cannot deliver itself: an e-mail, for the board's kinds. */
export type NoticeEmailer = (notice: NoticeRecord, repos: Repositories) => Promise<void>;

/** Dispatches what is waiting when woken, and every `pollMs`. */
export type NoticeDispatcher = PolledRun;

const batchSize = 100;

/**
 * Lets the requests waiting on the event loop in between batches: on SQLite every storage call completes without
 * waiting for I/O, so a dispatch of 500 followers' notices would otherwise hold the loop from start to end.
 */
const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Turns notices into deliveries (docs/decisions/0059), after their change committed: a fan-out into each
 * follower's notice, a user's notice into a delivery per channel they chose (a push to each of their devices, a
 * WhatsApp message to their number) and, for the kinds whose e-mail is not part of the change itself, an e-mail.
 * Every step can run again: the deliveries' and followers' notices' ids are made from the notice's, so a process
 * that dies half-way, or two processes at once, write each once; a notice is marked dispatched last.
 */
export function createNoticeDispatcher(deps: {
  repos: Repositories;
  events: EventPublisher;
  logger: Logger;
  /** The channels configured here (WhatsApp only with the owner's account). */
  channels: readonly DeliveryChannel[];
  /** Woken when it wrote deliveries of a channel. */
  onDeliveries?: (channel: DeliveryChannel) => void;
  email?: NoticeEmailer;
  /** The app icon's badge a push sets for the user (badge.ts): their unread count unless told otherwise. */
  badge?: (userId: string) => Promise<number>;
  now?: () => Date;
  pollMs?: number;
}): NoticeDispatcher {
  const now = deps.now ?? (() => new Date());
  const { notices, noticeDeliveries } = deps.repos;
  const badgeOf = deps.badge ?? ((userId: string) => notices.unreadCount(userId));

  async function expand(fanout: Extract<UndispatchedNotice, { fanout: true }>) {
    const followers = (await notices.followersOf(fanout.topic)).filter((id) => id !== fanout.exceptUserId);
    const at = new Date(fanout.createdAt);
    const rows = followers.map((userId) => ({
      notice: {
        userId,
        kind: fanout.kind,
        title: fanout.title,
        body: fanout.body,
        path: fanout.path,
        ...(fanout.params ? { params: fanout.params } : {}),
      },
      id: `${fanout.id}.${userId}`,
      at,
    }));
    await notices.expandFanout(fanout.id, rows);
    await notices.markDispatched(fanout.id, now());
    if (rows.length > 0)
      deps.events.publish({ table: noticesTable, ids: rows.map((r) => r.id), audience: { userIds: followers } });
  }

  async function deliver(batch: NoticeRecord[]) {
    const userIds = [...new Set(batch.map((n) => n.userId))];
    const preferences = await notices.preferencesOfMany(userIds);
    const wantsPush = userIds.filter((id) => batch.some((n) => n.userId === id && chosen(n, 'push')));
    const subscriptions = deps.channels.includes('push') ? await notices.pushSubscriptionsOf(wantsPush) : [];
    function chosen(n: NoticeRecord, channel: 'email' | DeliveryChannel) {
      const prefs = preferences.get(n.userId);
      return prefs ? isChosen(prefs, n.kind, channel) : channel === 'email';
    }
    // A push carries the app icon's badge.
    const badges = new Map<string, number>();
    for (const userId of new Set(subscriptions.map((s) => s.userId))) badges.set(userId, await badgeOf(userId));
    const deliveries: NewDelivery[] = [];
    for (const n of batch) {
      const base = { noticeId: n.id, userId: n.userId, kind: n.kind };
      if (chosen(n, 'push'))
        for (const s of subscriptions.filter((s) => s.userId === n.userId)) {
          const payload: PushPayload = {
            id: n.id,
            kind: n.kind,
            title: n.title,
            body: n.body,
            path: n.path,
            badge: badges.get(n.userId),
          };
          deliveries.push({
            ...base,
            id: `${n.id}:push:${s.id}`,
            channel: 'push',
            target: s.id,
            payload: JSON.stringify(payload),
          });
        }
      const number = preferences.get(n.userId)?.whatsappNumber;
      if (deps.channels.includes('whatsapp') && number && chosen(n, 'whatsapp'))
        deliveries.push({
          ...base,
          id: `${n.id}:whatsapp:${number}`,
          channel: 'whatsapp',
          target: number,
          payload: JSON.stringify({ params: { ...n.params, path: n.path } }),
        });
    }
    await noticeDeliveries.add(deliveries, now());
    for (const n of batch)
      if (deps.email && !noticeKindInfo[n.kind].emailAlways && chosen(n, 'email')) await deps.email(n, deps.repos);
    for (const n of batch) await notices.markDispatched(n.id, now());
    for (const channel of new Set(deliveries.map((d) => d.channel))) deps.onDeliveries?.(channel);
    return deliveries.length;
  }

  async function dispatch(isStopped: () => boolean): Promise<number> {
    let done = 0;
    for (;;) {
      if (isStopped()) return done;
      const waiting = await notices.findUndispatched(batchSize);
      if (waiting.length === 0) return done;
      for (const n of waiting)
        if (n.fanout) {
          await expand(n);
          await turnOfTheLoop();
        }
      const own = waiting.filter((n): n is Extract<UndispatchedNotice, { fanout: false }> => !n.fanout);
      if (own.length > 0) await deliver(own);
      await turnOfTheLoop();
      done += waiting.length;
      if (waiting.length < batchSize) return done;
    }
  }

  return createPolledRun(dispatch, { pollMs: deps.pollMs ?? 10_000, logger: deps.logger, what: 'notice dispatch' });
}
