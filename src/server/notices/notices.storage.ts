import type { DeliveryChannel, NoticeKind, NoticePreferences } from '../../common/notices.ts';

/** A notice for one user, as written with its change. */
export interface NewNotice {
  userId: string;
  kind: NoticeKind;
  title: string;
  body: string;
  /** The page it opens, e.g. `/student-dashboard#booking-…`. */
  path: string;
  /** The values a WhatsApp template of its kind takes, by name (server/whatsapp/whatsapp.ts): module, time, … */
  params?: Record<string, string>;
}

/** A notice for every follower of `topic` but `exceptUserId` (who caused it): expanded after the commit. */
export interface NewFanout {
  topic: string;
  exceptUserId: string | undefined;
  kind: NoticeKind;
  title: string;
  body: string;
  path: string;
  params?: Record<string, string>;
}

export interface NoticeRecord {
  id: string;
  userId: string;
  kind: NoticeKind;
  title: string;
  body: string;
  path: string;
  params?: Record<string, string>;
  /** UTC ISO. */
  createdAt: string;
  readAt: string | null;
}

/** A notice not yet dispatched: one user's (deliveries to make), or a fan-out (its followers' notices to make). */
export type UndispatchedNotice =
  ({ fanout: false } & NoticeRecord) | ({ fanout: true; id: string; createdAt: string } & NewFanout);

export interface PushSubscriptionRecord {
  /** sha256 of the endpoint, hex: a device subscribed again replaces its record. */
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: string;
}

/**
 * The notices' storage (docs/decisions/0059): each user's notifications list, the fan-outs to a topic's
 * followers, the follows, the users' choices and their devices' push subscriptions. notices.repository.ts on
 * SQL, notices.firestore.ts on Firestore.
 */
export interface NoticesRepository {
  /**
   * Writes the notices, due for dispatch. Inside a transaction it only writes (Firestore reads nothing after a
   * write): each id must be new. Outside one, a notice whose id was written before is left as it is.
   */
  add(notices: readonly { notice: NewNotice; id: string; at: Date }[]): Promise<void>;
  /** Writes a fan-out, due for dispatch. */
  addFanout(fanout: NewFanout, id: string, at: Date): Promise<void>;
  /** The user's notices, newest first, up to `limit`. */
  listFor(userId: string, limit: number): Promise<NoticeRecord[]>;
  /** The user's notices made at or after `since` (UTC ISO), oldest first: a session's reminder check reads them. */
  listSince(userId: string, since: string): Promise<NoticeRecord[]>;
  unreadCount(userId: string): Promise<number>;
  /** Marks the user's notices read at `at` (these ids, or all); others' ids change nothing. Returns how many changed. */
  markRead(userId: string, which: readonly string[] | 'all', at: Date): Promise<number>;
  /** Up to `limit` notices and fan-outs not dispatched yet, oldest first. */
  findUndispatched(limit: number): Promise<UndispatchedNotice[]>;
  /** A fan-out's notices, each written once however often this runs (their ids are made from the fan-out's). */
  expandFanout(fanoutId: string, notices: readonly { notice: NewNotice; id: string; at: Date }[]): Promise<void>;
  markDispatched(id: string, at: Date): Promise<void>;

  /** Follows `topic`; inside a transaction it only writes, and a follow made again takes the new time. */
  follow(topic: string, userId: string, at: Date): Promise<void>;
  unfollow(topic: string, userId: string): Promise<void>;
  isFollowing(topic: string, userId: string): Promise<boolean>;
  /** Every follower of `topic`. */
  followersOf(topic: string): Promise<string[]>;

  preferencesOf(userId: string): Promise<NoticePreferences | undefined>;
  /** Preferences of many users at once (a fan-out's), by user id; those without any are left out. */
  preferencesOfMany(userIds: readonly string[]): Promise<Map<string, NoticePreferences>>;
  savePreferences(userId: string, preferences: NoticePreferences, at: Date): Promise<void>;

  savePushSubscription(subscription: PushSubscriptionRecord): Promise<void>;
  pushSubscriptionsOf(userIds: readonly string[]): Promise<PushSubscriptionRecord[]>;
  findPushSubscription(id: string): Promise<PushSubscriptionRecord | undefined>;
  /** Removes a subscription (`userId`: only if it is theirs). */
  deletePushSubscription(id: string, userId?: string): Promise<void>;

  /** What the data export shows: the user's notices, follows, choices and devices (without their keys). */
  exportOf(userId: string): Promise<{
    notices: NoticeRecord[];
    follows: string[];
    preferences: NoticePreferences | undefined;
    pushDevices: { endpointHost: string; createdAt: string }[];
  }>;
  /** Everything of the user's: notices, follows, choices, subscriptions. */
  deleteOf(userId: string): Promise<void>;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'gone';

export interface NewDelivery {
  /** `${noticeId}:${channel}:${target}`: made once however often a notice is dispatched. */
  id: string;
  noticeId: string;
  userId: string;
  kind: NoticeKind;
  channel: DeliveryChannel;
  /** The push subscription's id, or the WhatsApp number. */
  target: string;
  /** What to send, as JSON (the push payload, or the WhatsApp template's parameters). */
  payload: string;
}

export interface DeliveryRecord extends NewDelivery {
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  /** The provider's id for the message (WhatsApp's `wamid`), and its latest status report. */
  providerId: string | null;
  providerStatus: string | null;
  createdAt: string;
  sentAt: string | null;
}

/**
 * The deliveries of notices through push and WhatsApp (docs/decisions/0059), with the mail outbox's claims and
 * retries (docs/decisions/0010): each delivery is claimed before it is sent, so it goes once whatever the number of
 * processes.
 */
export interface DeliveriesRepository {
  /** Writes the deliveries due at `at`; one whose id exists is left as it is. */
  add(deliveries: readonly NewDelivery[], at: Date): Promise<void>;
  /** Up to `limit` pending deliveries of `channel` due at `now` that no sender holds, oldest first. */
  findDue(channel: DeliveryChannel, now: Date, limit: number): Promise<string[]>;
  /** Takes a pending delivery for `lockMs`; of senders racing for it, one gets it. */
  claim(id: string, now: Date, lockMs: number): Promise<DeliveryRecord | undefined>;
  markSent(id: string, now: Date, providerId?: string): Promise<void>;
  /** A failed attempt: due again at `nextAttemptAt`, or failed for good (or `gone`: the device or number is no more). */
  markAttemptFailed(
    id: string,
    args: { error: string; nextAttemptAt: Date | undefined; gone?: boolean },
  ): Promise<void>;
  /** A provider's report on a sent message (WhatsApp: delivered, read, failed with its reason). */
  reportByProvider(providerId: string, status: string, error?: string): Promise<void>;
  /** These notices' deliveries, by any channel. */
  ofNotices(noticeIds: readonly string[]): Promise<DeliveryRecord[]>;
  /** The deliveries failed for good (and those gone), newest first. */
  listFailed(limit: number): Promise<DeliveryRecord[]>;
  /** Makes a failed delivery pending again, due now, its attempts counted afresh; false when it is not failed. */
  resend(id: string, now: Date): Promise<boolean>;
  /** Sent and failed deliveries made before `before` go (as the mail log's do). */
  deleteFinishedBefore(before: Date): Promise<number>;
  deleteOf(userId: string): Promise<void>;
}
