import type { Selectable } from 'kysely';
import { noticePreferencesSchema, type NoticeKind, type NoticePreferences } from '../../common/notices.ts';
import { boundLimit } from '../db/bound-limit.ts';
import type { Db } from '../db/create-db.ts';
import type {
  DeliveriesRepository,
  DeliveryRecord,
  DeliveryStatus,
  NewNotice,
  NoticeRecord,
  NoticesRepository,
  PushSubscriptionRecord,
} from './notices.storage.ts';
import type { NoticeDeliveriesTable, NoticesTable, PushSubscriptionsTable } from './notices.table.ts';

/** Times the database may hand back as Dates (PostgreSQL) or strings, as UTC ISO strings. */
const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const toNotice = (row: Selectable<NoticesTable>): NoticeRecord => ({
  id: row.id,
  userId: row.user_id!,
  kind: row.kind as NoticeKind,
  title: row.title,
  body: row.body,
  path: row.path,
  ...(row.params ? { params: JSON.parse(row.params) as Record<string, string> } : {}),
  createdAt: iso(row.created_at),
  readAt: isoOrNull(row.read_at),
});

const toSubscription = (row: Selectable<PushSubscriptionsTable>): PushSubscriptionRecord => ({
  id: row.id,
  userId: row.user_id,
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  createdAt: iso(row.created_at),
});

const readPreferences = (json: string): NoticePreferences => noticePreferencesSchema.parse(JSON.parse(json));

/** Writes in statements of at most this many rows (a fan-out to hundreds of followers). */
const rowsPerInsert = 50;

/** The notices on SQLite and PostgreSQL. */
export function createNoticesRepository(db: Db): NoticesRepository {
  async function insertNotices(notices: readonly { notice: NewNotice; id: string; at: Date }[]) {
    for (let start = 0; start < notices.length; start += rowsPerInsert) {
      const rows = notices.slice(start, start + rowsPerInsert).map(({ notice, id, at }) => ({
        id,
        user_id: notice.userId,
        topic: null,
        except_user_id: null,
        kind: notice.kind,
        title: notice.title,
        body: notice.body,
        path: notice.path,
        params: notice.params ? JSON.stringify(notice.params) : null,
        created_at: at.toISOString(),
        read_at: null,
        dispatched_at: null,
      }));
      // A notice written before (its id) is left as it is.
      await db
        .insertInto('notices')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  async function preferencesOf(userId: string) {
    const row = await db
      .selectFrom('notice_preferences')
      .select('preferences')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && readPreferences(row.preferences);
  }

  return {
    add: insertNotices,

    async addFanout(fanout, id, at) {
      await db
        .insertInto('notices')
        .values({
          id,
          user_id: null,
          topic: fanout.topic,
          except_user_id: fanout.exceptUserId ?? null,
          kind: fanout.kind,
          title: fanout.title,
          body: fanout.body,
          path: fanout.path,
          params: fanout.params ? JSON.stringify(fanout.params) : null,
          created_at: at.toISOString(),
          read_at: null,
          dispatched_at: null,
        })
        .execute();
    },

    async listFor(userId, limit) {
      const rows = await db
        .selectFrom('notices')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(boundLimit(limit))
        .execute();
      return rows.map(toNotice);
    },

    async listSince(userId, since) {
      const rows = await db
        .selectFrom('notices')
        .selectAll()
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toNotice);
    },

    async unreadCount(userId) {
      const row = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async markRead(userId, which, at) {
      if (which !== 'all' && which.length === 0) return 0;
      let query = db
        .updateTable('notices')
        .set({ read_at: at.toISOString() })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null);
      if (which !== 'all') query = query.where('id', 'in', [...which]);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async findUndispatched(limit) {
      const rows = await db
        .selectFrom('notices')
        .selectAll()
        .where('dispatched_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .limit(boundLimit(limit))
        .execute();
      return rows.map((row) =>
        row.user_id === null
          ? {
              fanout: true as const,
              id: row.id,
              createdAt: iso(row.created_at),
              topic: row.topic!,
              exceptUserId: row.except_user_id ?? undefined,
              kind: row.kind as NoticeKind,
              title: row.title,
              body: row.body,
              path: row.path,
              ...(row.params ? { params: JSON.parse(row.params) as Record<string, string> } : {}),
            }
          : { fanout: false as const, ...toNotice(row) },
      );
    },

    expandFanout: (_fanoutId, notices) => insertNotices(notices),

    async markDispatched(id, at) {
      await db.updateTable('notices').set({ dispatched_at: at.toISOString() }).where('id', '=', id).execute();
    },

    async follow(topic, userId, at) {
      await db
        .insertInto('notice_follows')
        .values({ topic, user_id: userId, created_at: at.toISOString() })
        .onConflict((oc) => oc.columns(['topic', 'user_id']).doNothing())
        .execute();
    },

    async unfollow(topic, userId) {
      await db.deleteFrom('notice_follows').where('topic', '=', topic).where('user_id', '=', userId).execute();
    },

    async isFollowing(topic, userId) {
      const row = await db
        .selectFrom('notice_follows')
        .select('user_id')
        .where('topic', '=', topic)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async followersOf(topic) {
      const rows = await db.selectFrom('notice_follows').select('user_id').where('topic', '=', topic).execute();
      return rows.map((r) => r.user_id);
    },

    preferencesOf,

    async preferencesOfMany(userIds) {
      const found = new Map<string, NoticePreferences>();
      for (let start = 0; start < userIds.length; start += 500) {
        const rows = await db
          .selectFrom('notice_preferences')
          .select(['user_id', 'preferences'])
          .where('user_id', 'in', userIds.slice(start, start + 500))
          .execute();
        for (const row of rows) found.set(row.user_id, readPreferences(row.preferences));
      }
      return found;
    },

    async savePreferences(userId, preferences, at) {
      const json = JSON.stringify(preferences);
      await db
        .insertInto('notice_preferences')
        .values({ user_id: userId, preferences: json, updated_at: at.toISOString() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ preferences: json, updated_at: at.toISOString() }))
        .execute();
    },

    async savePushSubscription(s) {
      const values = {
        user_id: s.userId,
        endpoint: s.endpoint,
        p256dh: s.p256dh,
        auth: s.auth,
        created_at: s.createdAt,
      };
      await db
        .insertInto('push_subscriptions')
        .values({ id: s.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },

    async pushSubscriptionsOf(userIds) {
      const found: PushSubscriptionRecord[] = [];
      for (let start = 0; start < userIds.length; start += 500) {
        const rows = await db
          .selectFrom('push_subscriptions')
          .selectAll()
          .where('user_id', 'in', userIds.slice(start, start + 500))
          .orderBy('created_at')
          .execute();
        found.push(...rows.map(toSubscription));
      }
      return found;
    },

    async findPushSubscription(id) {
      const row = await db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSubscription(row);
    },

    async deletePushSubscription(id, userId) {
      let query = db.deleteFrom('push_subscriptions').where('id', '=', id);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      await query.execute();
    },

    async exportOf(userId) {
      const [notices, follows, preferences, devices] = await Promise.all([
        db.selectFrom('notices').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
        db.selectFrom('notice_follows').select('topic').where('user_id', '=', userId).orderBy('created_at').execute(),
        preferencesOf(userId),
        db
          .selectFrom('push_subscriptions')
          .select(['endpoint', 'created_at'])
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute(),
      ]);
      return {
        notices: notices.map(toNotice),
        follows: follows.map((f) => f.topic),
        preferences,
        pushDevices: devices.map((d) => ({ endpointHost: new URL(d.endpoint).host, createdAt: iso(d.created_at) })),
      };
    },

    async deleteOf(userId) {
      await db.deleteFrom('notices').where('user_id', '=', userId).execute();
      await db.deleteFrom('notices').where('except_user_id', '=', userId).execute();
      await db.deleteFrom('notice_follows').where('user_id', '=', userId).execute();
      await db.deleteFrom('notice_preferences').where('user_id', '=', userId).execute();
      await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
    },
  };
}

const toDelivery = (row: Selectable<NoticeDeliveriesTable>): DeliveryRecord => ({
  id: row.id,
  noticeId: row.notice_id,
  userId: row.user_id,
  kind: row.kind as NoticeKind,
  channel: row.channel as DeliveryRecord['channel'],
  target: row.target,
  payload: row.payload,
  status: row.status as DeliveryStatus,
  attempts: Number(row.attempts),
  lastError: row.last_error,
  providerId: row.provider_id,
  providerStatus: row.provider_status,
  createdAt: iso(row.created_at),
  sentAt: isoOrNull(row.sent_at),
});

/** The notices' deliveries on SQLite and PostgreSQL (`notice_deliveries`). */
export function createDeliveriesRepository(db: Db): DeliveriesRepository {
  return {
    async add(deliveries, at) {
      for (let start = 0; start < deliveries.length; start += rowsPerInsert) {
        const rows = deliveries.slice(start, start + rowsPerInsert).map((d) => ({
          id: d.id,
          notice_id: d.noticeId,
          user_id: d.userId,
          kind: d.kind,
          channel: d.channel,
          target: d.target,
          payload: d.payload,
          status: 'pending',
          attempts: 0,
          next_attempt_at: at.toISOString(),
          locked_until: null,
          last_error: null,
          provider_id: null,
          provider_status: null,
          created_at: at.toISOString(),
          sent_at: null,
        }));
        await db
          .insertInto('notice_deliveries')
          .values(rows)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
    },

    async findDue(channel, now, limit) {
      const at = now.toISOString();
      const rows = await db
        .selectFrom('notice_deliveries')
        .select('id')
        .where('channel', '=', channel)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(boundLimit(limit))
        .execute();
      return rows.map((r) => r.id);
    },

    async claim(id, now, lockMs) {
      const at = now.toISOString();
      const result = await db
        .updateTable('notice_deliveries')
        .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      const row = await db.selectFrom('notice_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDelivery(row);
    },

    async markSent(id, now, providerId) {
      await db
        .updateTable('notice_deliveries')
        .set((eb) => ({
          status: 'sent',
          sent_at: now.toISOString(),
          locked_until: null,
          provider_id: providerId ?? null,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
    },

    async markAttemptFailed(id, args) {
      await db
        .updateTable('notice_deliveries')
        .set((eb) => ({
          status: args.gone ? 'gone' : args.nextAttemptAt ? 'pending' : 'failed',
          next_attempt_at: (args.nextAttemptAt ?? new Date()).toISOString(),
          last_error: args.error.slice(0, 1000),
          locked_until: null,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
    },

    async reportByProvider(providerId, status, error) {
      await db
        .updateTable('notice_deliveries')
        .set({
          provider_status: status,
          ...(status === 'failed' ? { status: 'failed', last_error: (error ?? 'failed').slice(0, 1000) } : {}),
        })
        .where('provider_id', '=', providerId)
        .execute();
    },

    async ofNotices(noticeIds) {
      if (noticeIds.length === 0) return [];
      const rows = await db
        .selectFrom('notice_deliveries')
        .selectAll()
        .where('notice_id', 'in', [...noticeIds])
        .orderBy('id')
        .execute();
      return rows.map(toDelivery);
    },

    async listFailed(limit) {
      const rows = await db
        .selectFrom('notice_deliveries')
        .selectAll()
        .where('status', 'in', ['failed', 'gone'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(boundLimit(limit))
        .execute();
      return rows.map(toDelivery);
    },

    async resend(id, now) {
      const result = await db
        .updateTable('notice_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), locked_until: null })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteFinishedBefore(before) {
      const result = await db
        .deleteFrom('notice_deliveries')
        .where('status', 'in', ['sent', 'failed', 'gone'])
        .where('created_at', '<', before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteOf(userId) {
      await db.deleteFrom('notice_deliveries').where('user_id', '=', userId).execute();
    },
  };
}
