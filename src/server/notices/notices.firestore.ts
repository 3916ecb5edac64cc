import {
  FieldPath,
  FieldValue,
  type CollectionReference,
  type DocumentReference,
  type DocumentSnapshot,
  type Query,
} from 'firebase-admin/firestore';
import { noticePreferencesSchema, type NoticeKind, type NoticePreferences } from '../../common/notices.ts';
import { atomically, read, readAll, type FirestoreContext } from '../storage/firestore/context.ts';
import { isIndexable, keyId } from '../storage/firestore/document-ids.ts';
import { alreadyExists, deleteAll, deleteFound, hasCode, notFound, query } from '../storage/firestore/queries.ts';
import { isRecordId } from '../storage/record-ids.ts';
import type {
  DeliveriesRepository,
  DeliveryRecord,
  DeliveryStatus,
  NewNotice,
  NoticeRecord,
  NoticesRepository,
  PushSubscriptionRecord,
  UndispatchedNotice,
} from './notices.storage.ts';

/**
 * The notices on Firestore (docs/firestore-layout.md, "The notices"), the SQL tables' rows as documents:
 * `notices/{id}` (a user's notice, or a fan-out: `userId` null and a `topic`), `noticeFollows/{topic}:{user}`, `noticePreferences/{user}` and `pushSubscriptions/{id}`. Times are UTC ISO
 * text, as on SQL. Ids from outside that no document can have (`isRecordId`) name nothing, as on SQL.
 */
interface NoticeDoc {
  userId: string | null;
  topic: string | null;
  exceptUserId: string | null;
  kind: NoticeKind;
  title: string;
  body: string;
  path: string;
  /** The WhatsApp template's values, or null. */
  params: Record<string, string> | null;
  createdAt: string;
  readAt: string | null;
  dispatchedAt: string | null;
}

interface FollowDoc {
  topic: string;
  userId: string;
  createdAt: string;
}

interface PreferencesDoc {
  preferences: NoticePreferences;
  updatedAt: string;
}

type SubscriptionDoc = Omit<PushSubscriptionRecord, 'id'>;

const toNotice = (id: string, doc: NoticeDoc): NoticeRecord => ({
  id,
  userId: doc.userId!,
  kind: doc.kind,
  title: doc.title,
  body: doc.body,
  path: doc.path,
  ...(doc.params ? { params: doc.params } : {}),
  createdAt: doc.createdAt,
  readAt: doc.readAt,
});

const toSubscription = (id: string, doc: SubscriptionDoc): PushSubscriptionRecord => ({
  id,
  userId: doc.userId,
  endpoint: doc.endpoint,
  p256dh: doc.p256dh,
  auth: doc.auth,
  createdAt: doc.createdAt,
});

/** Oldest first, then by id: SQL's `order by created_at, id`. */
const byAge = (a: { id: string; createdAt: string }, b: { id: string; createdAt: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Notices written at once (a notice and its key: 2 documents; a delivery is one), under Firestore's 500 writes a
 * batch, and documents read per `getAll`: a fan-out to 500 followers is a few writes, each atomic on its own as
 * SQL's inserts of 50 rows are.
 */
const noticesPerWrite = 200;
const deliveriesPerWrite = 400;
const docsPerRead = 300;
/** Firestore's most values in an `in` filter. */
const valuesPerIn = 30;

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** gRPC's FAILED_PRECONDITION: a write whose `lastUpdateTime` no longer holds. */
const failedPrecondition = 9;
/** Tries of a compare-and-set against other writers before giving up (the auth adapter's). */
const casAttempts = 20;

/** What to write, decided on what was read: documents to create, and documents read to update. */
interface Decision<R> {
  result: R;
  creates?: [DocumentReference, object][];
  updates?: [DocumentSnapshot, Record<string, unknown>][];
}

/**
 * Reads `refs`, decides, and writes only if none of them changed meanwhile: in the usecase's transaction when there
 * is one; else as a compare-and-set, as the auth adapter's (docs/firestore-layout.md, Accounts): one batch (atomic,
 * at most 500 writes) whose creates fail if the document exists and whose updates carry the read's update time as
 * precondition; when another writer came first it is read and decided again. No lock is held: on the emulator,
 * which stalls contended transactions, three `markRead`s of one user's notices at once took 3.3 s as
 * transactions, 0.3 s so.
 */
async function decideAndWrite<R>(
  ctx: FirestoreContext,
  refs: readonly DocumentReference[],
  decide: (snapshots: DocumentSnapshot[]) => Decision<R>,
): Promise<R> {
  if (ctx.tx) {
    const { result, creates = [], updates = [] } = decide(await readAll(ctx, [...refs]));
    for (const [ref, doc] of creates) ctx.tx.create(ref, doc);
    for (const [snapshot, changes] of updates) ctx.tx.update(snapshot.ref, changes);
    return result;
  }
  for (let attempt = 1; ; attempt++) {
    const { result, creates = [], updates = [] } = decide(await readAll(ctx, [...refs]));
    if (creates.length + updates.length === 0) return result;
    const batch = ctx.db.batch();
    for (const [ref, doc] of creates) batch.create(ref, doc);
    for (const [snapshot, changes] of updates) {
      batch.update(snapshot.ref, changes, { lastUpdateTime: snapshot.updateTime! });
    }
    try {
      await batch.commit();
      return result;
    } catch (error) {
      const lost = [alreadyExists, failedPrecondition, notFound].some((code) => hasCode(error, code));
      if (!lost || attempt >= casAttempts) throw error;
      // Someone else wrote first: wait a little, at random, and decide again on what is there now.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * Creates each document not there yet (`decideAndWrite`). `groups` are the documents that go together (a notice
 * and its key): a group any of whose documents exists is left out whole. `held`: in a usecase's transaction, the
 * documents this repository created in it, which it may not read again and which are there at its commit.
 */
async function createMissing(
  ctx: FirestoreContext,
  held: Set<string> | undefined,
  groups: readonly (readonly [DocumentReference, object][])[],
): Promise<void> {
  const fresh = groups.filter((group) => group.every(([ref]) => !held?.has(ref.path)));
  const refs = [...new Map(fresh.flat().map(([ref]) => [ref.path, ref])).values()];
  const created = await decideAndWrite(ctx, refs, (snapshots) => {
    const taken = new Set(snapshots.filter((s) => s.exists).map((s) => s.ref.path));
    const creates: [DocumentReference, object][] = [];
    for (const group of fresh) {
      // Checked as it goes: two of this call's groups may share a document (two notices with one key).
      if (group.some(([ref]) => taken.has(ref.path))) continue;
      for (const [ref, doc] of group) {
        taken.add(ref.path);
        creates.push([ref, doc]);
      }
    }
    return { result: creates.map(([ref]) => ref.path), creates };
  });
  for (const path of created) held?.add(path);
}

/** Changes one document if `decide` says so on what it holds (`decideAndWrite`). */
function compareAndSet<D, R>(
  ctx: FirestoreContext,
  ref: DocumentReference<D>,
  decide: (doc: D | undefined) => { result: R; changes?: Record<string, unknown> },
): Promise<R> {
  return decideAndWrite(ctx, [ref as DocumentReference], ([snapshot]) => {
    const { result, changes } = decide(snapshot!.data() as D | undefined);
    return { result, updates: changes ? [[snapshot!, changes]] : [] };
  });
}

/** The notices' storage on Firestore. */
export function createNoticesFirestoreRepository(ctx: FirestoreContext): NoticesRepository {
  const notices = ctx.db.collection('notices') as CollectionReference<NoticeDoc>;
  const follows = ctx.db.collection('noticeFollows') as CollectionReference<FollowDoc>;
  const preferences = ctx.db.collection('noticePreferences') as CollectionReference<PreferencesDoc>;
  const subscriptions = ctx.db.collection('pushSubscriptions') as CollectionReference<SubscriptionDoc>;
  const followRef = (topic: string, userId: string) => follows.doc(keyId(topic, userId));
  /** In a usecase's transaction, the documents this repository has created in it (made once per transaction). */
  const held = ctx.tx ? new Set<string>() : undefined;

  async function insertNotices(list: readonly { notice: NewNotice; id: string; at: Date }[]) {
    for (const part of chunks(list, noticesPerWrite)) {
      const groups = part.map(({ notice, id, at }) => {
        const doc: NoticeDoc = {
          userId: notice.userId,
          topic: null,
          exceptUserId: null,
          kind: notice.kind,
          title: notice.title,
          body: notice.body,
          path: notice.path,
          params: notice.params ?? null,
          createdAt: at.toISOString(),
          readAt: null,
          dispatchedAt: null,
        };
        return [[notices.doc(id), doc]] as [DocumentReference, object][];
      });
      // In a usecase's transaction only writes, after its other writes (Firestore reads nothing after one): the
      // ids are new. Outside one (a fan-out's expansion, by any number of dispatchers), a notice written before
      // is left as it is.
      if (ctx.tx) for (const [ref, doc] of groups.flat()) ctx.tx.create(ref, doc);
      else await createMissing(ctx, held, groups);
    }
  }

  async function preferencesOf(userId: string) {
    if (!isRecordId(userId)) return undefined;
    const doc = (await read(ctx, preferences.doc(userId))).data();
    return doc && noticePreferencesSchema.parse(doc.preferences);
  }

  /** Marks read those of `refs` that are the user's and unread, all at once (`decideAndWrite`); how many it marked. */
  function markThese(refs: readonly DocumentReference<NoticeDoc>[], userId: string, at: string) {
    return decideAndWrite(ctx, refs, (snapshots) => {
      const updates = (snapshots as DocumentSnapshot<NoticeDoc>[])
        .filter((snapshot) => snapshot.data()?.userId === userId && snapshot.data()?.readAt === null)
        .map((snapshot): [DocumentSnapshot, Record<string, unknown>] => [snapshot, { readAt: at }]);
      return { result: updates.length, updates };
    });
  }

  return {
    add: insertNotices,

    async addFanout(fanout, id, at) {
      const doc: NoticeDoc = {
        userId: null,
        topic: fanout.topic,
        exceptUserId: fanout.exceptUserId ?? null,
        kind: fanout.kind,
        title: fanout.title,
        body: fanout.body,
        path: fanout.path,
        params: fanout.params ?? null,
        createdAt: at.toISOString(),
        readAt: null,
        dispatchedAt: null,
      };
      if (ctx.tx) ctx.tx.create(notices.doc(id), doc);
      else await notices.doc(id).create(doc);
    },

    async listFor(userId, limit) {
      // The composite index `userId, createdAt desc, __name__ desc` (docs/firestore-layout.md).
      const found = await query(
        ctx,
        notices
          .where('userId', '==', userId)
          .orderBy('createdAt', 'desc')
          .orderBy(FieldPath.documentId(), 'desc')
          .limit(limit),
      );
      return found.docs.map((d) => toNotice(d.id, d.data()));
    },

    async listSince(userId, since) {
      // The list's composite index `userId, createdAt desc, __name__ desc` (docs/firestore-layout.md), read backwards.
      const found = await query(
        ctx,
        notices
          .where('userId', '==', userId)
          .where('createdAt', '>=', since)
          .orderBy('createdAt', 'desc')
          .orderBy(FieldPath.documentId(), 'desc'),
      );
      return found.docs.map((d) => toNotice(d.id, d.data())).reverse();
    },

    async unreadCount(userId) {
      // Two equalities: Firestore merges their single-field indexes.
      const unread = notices.where('userId', '==', userId).where('readAt', '==', null).count();
      return (await (ctx.tx ? ctx.tx.get(unread) : unread.get())).data().count;
    },

    async markRead(userId, which, at) {
      const iso = at.toISOString();
      if (which !== 'all') {
        const ids = [...new Set(which)].filter(isRecordId);
        let changed = 0;
        for (const part of chunks(ids, docsPerRead)) {
          changed += await markThese(
            part.map((id) => notices.doc(id)),
            userId,
            iso,
          );
        }
        return changed;
      }
      // The unread are found by a query outside any transaction (read in one, the emulator locks the whole
      // collection against everyone's new notices), then read again by key and marked only if unchanged: what
      // another call marked meanwhile is not counted twice. A notice that arrives after the look stays unread, as
      // one that arrives after SQL's UPDATE.
      const unread = await notices.where('userId', '==', userId).where('readAt', '==', null).select().get();
      let changed = 0;
      for (const part of chunks(unread.docs, docsPerRead)) {
        changed += await markThese(
          part.map((d) => notices.doc(d.id)),
          userId,
          iso,
        );
      }
      return changed;
    },

    async findUndispatched(limit) {
      // The composite index `dispatchedAt, createdAt, __name__` (docs/firestore-layout.md).
      const found = await query(
        ctx,
        notices.where('dispatchedAt', '==', null).orderBy('createdAt').orderBy(FieldPath.documentId()).limit(limit),
      );
      return found.docs.map((d): UndispatchedNotice => {
        const doc = d.data();
        return doc.userId === null
          ? {
              fanout: true,
              id: d.id,
              createdAt: doc.createdAt,
              topic: doc.topic!,
              exceptUserId: doc.exceptUserId ?? undefined,
              kind: doc.kind,
              title: doc.title,
              body: doc.body,
              path: doc.path,
              ...(doc.params ? { params: doc.params } : {}),
            }
          : { fanout: false, ...toNotice(d.id, doc) };
      });
    },

    expandFanout: (_fanoutId, list) => insertNotices(list),

    async markDispatched(id, at) {
      if (!isRecordId(id)) return;
      await updateIfThere(ctx, notices.doc(id), { dispatchedAt: at.toISOString() });
    },

    async follow(topic, userId, at) {
      const doc = { topic, userId, createdAt: at.toISOString() };
      // In a usecase's transaction (a question asked) only a write, after its others: a follow made again takes the
      // new time. Outside one, created if absent: a second follow keeps the first's time, as SQL's `do nothing`.
      if (ctx.tx) ctx.tx.set(followRef(topic, userId), doc);
      else await createMissing(ctx, held, [[[followRef(topic, userId), doc]]]);
    },

    async unfollow(topic, userId) {
      const ref = followRef(topic, userId);
      if (ctx.tx) ctx.tx.delete(ref);
      else await ref.delete();
    },

    async isFollowing(topic, userId) {
      return (await read(ctx, followRef(topic, userId))).exists;
    },

    async followersOf(topic) {
      if (!isIndexable(topic)) return [];
      const found = await query(ctx, follows.where('topic', '==', topic).select('userId'));
      return found.docs.map((d) => d.get('userId') as string);
    },

    preferencesOf,

    async preferencesOfMany(userIds) {
      const found = new Map<string, NoticePreferences>();
      const ids = [...new Set(userIds)].filter(isRecordId);
      for (const part of chunks(ids, docsPerRead)) {
        for (const snapshot of await readAll(
          ctx,
          part.map((id) => preferences.doc(id)),
        )) {
          const doc = snapshot.data();
          if (doc) found.set(snapshot.id, noticePreferencesSchema.parse(doc.preferences));
        }
      }
      return found;
    },

    async savePreferences(userId, choices, at) {
      // A plain copy: Firestore refuses a field whose value is `undefined`, which JSON leaves out.
      const doc: PreferencesDoc = {
        preferences: JSON.parse(JSON.stringify(choices)) as NoticePreferences,
        updatedAt: at.toISOString(),
      };
      if (ctx.tx) ctx.tx.set(preferences.doc(userId), doc);
      else await preferences.doc(userId).set(doc);
    },

    async savePushSubscription(s) {
      const doc: SubscriptionDoc = {
        userId: s.userId,
        endpoint: s.endpoint,
        p256dh: s.p256dh,
        auth: s.auth,
        createdAt: s.createdAt,
      };
      if (ctx.tx) ctx.tx.set(subscriptions.doc(s.id), doc);
      else await subscriptions.doc(s.id).set(doc);
    },

    async pushSubscriptionsOf(userIds) {
      const ids = [...new Set(userIds)].filter(isIndexable);
      const found = await Promise.all(
        chunks(ids, valuesPerIn).map((part) => query(ctx, subscriptions.where('userId', 'in', part))),
      );
      return found.flatMap((snapshot) => snapshot.docs.map((d) => toSubscription(d.id, d.data()))).sort(byAge);
    },

    async findPushSubscription(id) {
      if (!isRecordId(id)) return undefined;
      const doc = (await read(ctx, subscriptions.doc(id))).data();
      return doc && toSubscription(id, doc);
    },

    async deletePushSubscription(id, userId) {
      if (!isRecordId(id)) return;
      const ref = subscriptions.doc(id);
      if (userId === undefined) {
        if (ctx.tx) ctx.tx.delete(ref);
        else await ref.delete();
        return;
      }
      // Only if it is theirs: read and delete in one transaction.
      await atomically(ctx, async ({ tx }) => {
        if ((await tx.get(ref)).data()?.userId === userId) tx.delete(ref);
      });
    },

    async exportOf(userId) {
      // One user's records, each kind by a single-field equality, sorted here.
      const [mine, followed, choices, devices] = await Promise.all([
        query(ctx, notices.where('userId', '==', userId)),
        query(ctx, follows.where('userId', '==', userId)),
        preferencesOf(userId),
        query(ctx, subscriptions.where('userId', '==', userId)),
      ]);
      return {
        notices: mine.docs.map((d) => toNotice(d.id, d.data())).sort(byAge),
        follows: followed.docs
          .map((d) => ({ id: d.id, ...d.data() }))
          .sort(byAge)
          .map((f) => f.topic),
        preferences: choices,
        pushDevices: devices.docs
          .map((d) => toSubscription(d.id, d.data()))
          .sort(byAge)
          .map((s) => ({ endpointHost: new URL(s.endpoint).host, createdAt: s.createdAt })),
      };
    },

    async deleteOf(userId) {
      // Found outside the transaction and deleted in it (queries.ts `deleteFound`: the account's deletion calls
      // this after other parts' writes).
      // unique index forgets a deleted row's.
      const [mine, caused, followed, devices] = await Promise.all([
        notices.where('userId', '==', userId).select().get(),
        notices.where('exceptUserId', '==', userId).select().get(),
        follows.where('userId', '==', userId).select().get(),
        subscriptions.where('userId', '==', userId).select().get(),
      ]);
      const refs: DocumentReference[] = [
        ...mine.docs.map((d) => d.ref),
        ...caused.docs.map((d) => d.ref),
        ...followed.docs.map((d) => d.ref),
        ...devices.docs.map((d) => d.ref),
      ];
      if (isRecordId(userId)) refs.push(preferences.doc(userId));
      await deleteAll(ctx, refs);
    },
  };
}

/**
 * A delivery: `noticeDeliveries/{id as a key}` (`keyId`: its id holds the WhatsApp number as typed), the SQL row's
 * fields in camelCase, `id` among them, plus `availableAt` as in the mail outbox: the later of `nextAttemptAt` and
 * `lockedUntil`, so that "due and held by no sender" is one range on one field.
 */
interface DeliveryDoc {
  id: string;
  noticeId: string;
  userId: string;
  kind: NoticeKind;
  channel: DeliveryRecord['channel'];
  target: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  availableAt: string;
  lastError: string | null;
  providerId: string | null;
  providerStatus: string | null;
  createdAt: string;
  sentAt: string | null;
}

const toDelivery = (doc: DeliveryDoc): DeliveryRecord => ({
  id: doc.id,
  noticeId: doc.noticeId,
  userId: doc.userId,
  kind: doc.kind,
  channel: doc.channel,
  target: doc.target,
  payload: doc.payload,
  status: doc.status,
  attempts: doc.attempts,
  lastError: doc.lastError,
  providerId: doc.providerId,
  providerStatus: doc.providerStatus,
  createdAt: doc.createdAt,
  sentAt: doc.sentAt,
});

/** An update of a document that may have been deleted meanwhile (a user's deletion): like an UPDATE finding no row. */
async function updateIfThere(ctx: FirestoreContext, ref: DocumentReference, changes: Record<string, unknown>) {
  if (ctx.tx) {
    ctx.tx.update(ref, changes);
    return;
  }
  await ref.update(changes).catch((error: unknown) => {
    if (!hasCode(error, notFound)) throw error;
  });
}

/** The deliveries' storage on Firestore: the mail outbox's claims and retries (mail.firestore.ts). */
export function createDeliveriesFirestoreRepository(ctx: FirestoreContext): DeliveriesRepository {
  const deliveries = ctx.db.collection('noticeDeliveries') as CollectionReference<DeliveryDoc>;
  const deliveryRef = (id: string) => deliveries.doc(keyId(id));
  const held = ctx.tx ? new Set<string>() : undefined;

  async function updateAll(found: Query<DeliveryDoc>, changes: Record<string, unknown>) {
    const snapshot = await query(ctx, found.select());
    await Promise.all(snapshot.docs.map((d) => updateIfThere(ctx, d.ref, changes)));
  }

  return {
    async add(list, at) {
      const iso = at.toISOString();
      for (const part of chunks(list, deliveriesPerWrite)) {
        // One whose id exists is left as it is.
        await createMissing(
          ctx,
          held,
          part.map((d) => {
            const doc: DeliveryDoc = {
              id: d.id,
              noticeId: d.noticeId,
              userId: d.userId,
              kind: d.kind,
              channel: d.channel,
              target: d.target,
              payload: d.payload,
              status: 'pending',
              attempts: 0,
              nextAttemptAt: iso,
              lockedUntil: null,
              availableAt: iso,
              lastError: null,
              providerId: null,
              providerStatus: null,
              createdAt: iso,
              sentAt: null,
            };
            return [[deliveryRef(d.id), doc]];
          }),
        );
      }
    },

    async findDue(channel, now, limit) {
      // The composite index `channel, status, availableAt` (docs/firestore-layout.md): the first due first.
      const found = await query(
        ctx,
        deliveries
          .where('channel', '==', channel)
          .where('status', '==', 'pending')
          .where('availableAt', '<=', now.toISOString())
          .orderBy('availableAt')
          .limit(limit)
          .select('id'),
      );
      return found.docs.map((d) => d.get('id') as string);
    },

    claim: (id, now, lockMs) =>
      compareAndSet(ctx, deliveryRef(id), (doc) => {
        const iso = now.toISOString();
        if (!doc || doc.status !== 'pending' || (doc.lockedUntil !== null && doc.lockedUntil >= iso)) {
          return { result: undefined };
        }
        const lockedUntil = new Date(now.getTime() + lockMs).toISOString();
        return {
          result: toDelivery(doc),
          changes: { lockedUntil, availableAt: lockedUntil > doc.nextAttemptAt ? lockedUntil : doc.nextAttemptAt },
        };
      }),

    markSent: (id, now, providerId) =>
      updateIfThere(ctx, deliveryRef(id), {
        status: 'sent',
        sentAt: now.toISOString(),
        lockedUntil: null,
        providerId: providerId ?? null,
        attempts: FieldValue.increment(1),
      }),

    markAttemptFailed(id, args) {
      const next = (args.nextAttemptAt ?? new Date()).toISOString();
      return updateIfThere(ctx, deliveryRef(id), {
        status: args.gone ? 'gone' : args.nextAttemptAt ? 'pending' : 'failed',
        nextAttemptAt: next,
        availableAt: next,
        lastError: args.error.slice(0, 1000),
        lockedUntil: null,
        attempts: FieldValue.increment(1),
      });
    },

    async reportByProvider(providerId, status, error) {
      if (!isIndexable(providerId)) return;
      await updateAll(deliveries.where('providerId', '==', providerId), {
        providerStatus: status,
        ...(status === 'failed' ? { status: 'failed', lastError: (error ?? 'failed').slice(0, 1000) } : {}),
      });
    },

    async ofNotices(noticeIds) {
      const found = [];
      // `in` takes up to 30 values.
      for (let i = 0; i < noticeIds.length; i += 30) {
        const some = await query(ctx, deliveries.where('noticeId', 'in', noticeIds.slice(i, i + 30)));
        found.push(...some.docs.map((d) => toDelivery(d.data())));
      }
      return found.sort((a, b) => a.id.localeCompare(b.id));
    },

    async listFailed(limit) {
      // The composite index `status, createdAt desc, __name__ desc` (docs/firestore-layout.md).
      const found = await query(
        ctx,
        deliveries
          .where('status', 'in', ['failed', 'gone'])
          .orderBy('createdAt', 'desc')
          .orderBy(FieldPath.documentId(), 'desc')
          .limit(limit),
      );
      return found.docs.map((d) => toDelivery(d.data()));
    },

    resend: (id, now) =>
      compareAndSet(ctx, deliveryRef(id), (doc) => {
        if (doc?.status !== 'failed') return { result: false };
        const iso = now.toISOString();
        return {
          result: true,
          changes: { status: 'pending', attempts: 0, nextAttemptAt: iso, availableAt: iso, lockedUntil: null },
        };
      }),

    deleteFinishedBefore: (before) =>
      deleteFound(
        ctx,
        deliveries.where('status', 'in', ['sent', 'failed', 'gone']).where('createdAt', '<', before.toISOString()),
      ),

    async deleteOf(userId) {
      await deleteFound(ctx, deliveries.where('userId', '==', userId));
    },
  };
}
