import {
  FieldValue,
  Timestamp,
  type CollectionReference,
  type DocumentChange,
  type Firestore,
} from 'firebase-admin/firestore';
import type { Logger } from 'pino';
import { newEventId, type BusMessage, type ChangeNotice, type EventBus } from './events.ts';

/** Where notices travel between processes (docs/firestore-layout.md "Live updates"). */
export const busCollection = 'busNotices';
/** How long a notice document is kept: a TTL policy on `expireAt` deletes it after that (firestore.indexes.json). */
const keepMs = 60 * 60 * 1000;
/**
 * How far back a new listener's query starts, by this process's clock: it delivers only what arrives after its
 * first snapshot, so the window only has to cover the skew between this clock and Firestore's.
 */
const listenBackMs = 60 * 1000;
const firstRetryMs = 250;
/** Firestore's most writes in one batch. */
const batchLimit = 500;
const maxRetryMs = 10_000;

interface NoticeDoc {
  table: string;
  ids: string[];
  audience: ChangeNotice['audience'];
  version?: number;
  /** The publishing process's bus; it has delivered its own notice already. */
  from: string;
  /** The publisher's count, to keep one publisher's notices in order when they share a timestamp. */
  seq: number;
  at: Timestamp;
  expireAt: Timestamp;
}

/**
 * The bus for several server processes on one Firestore project (as postgres-bus.ts on one database): a
 * publish reaches this process's subscribers at once and is written as a notice document; every process
 * listens to the notices collection with `onSnapshot` and delivers the others' notices as they arrive. A
 * listener that fails has missed notices for good, so subscribers are told to resync once it listens again.
 */
export async function createFirestoreBus(options: { firestore: Firestore; logger: Logger }): Promise<EventBus> {
  const { firestore, logger } = options;
  const notices = firestore.collection(busCollection) as CollectionReference<NoticeDoc>;
  const listeners = new Set<(message: BusMessage) => void>();
  const prefix = crypto.randomUUID().slice(0, 8);
  let closed = false;
  let seq = 0;
  let unsubscribe: (() => void) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  /**
   * This process's notices not written yet, and the writing of them: one batch at a time, so that they commit
   * in the order published. The notices published while a batch is on its way go in the next one, so a burst
   * costs a write per batch, not per notice (one after the other, a burst of a thousand took 38 s to leave).
   */
  const unwritten: NoticeDoc[] = [];
  let writing: Promise<void> | undefined;

  async function writeUnwritten() {
    while (unwritten.length > 0) {
      const docs = unwritten.splice(0, batchLimit);
      const batch = firestore.batch();
      for (const doc of docs) batch.create(notices.doc(), doc);
      try {
        await batch.commit();
      } catch (error) {
        logger.error(
          { err: error, tables: [...new Set(docs.map((d) => d.table))] },
          'event bus: notices could not be published',
        );
      }
    }
    writing = undefined;
  }

  const deliver = (message: BusMessage) => {
    for (const listen of listeners) listen(message);
  };

  const deliverNotice = (notice: ChangeNotice) =>
    deliver({ type: 'notice', event: { ...notice, id: newEventId(prefix) } });

  /** Listens from now on; resolves at the first snapshot (what came before it is not news), rejects on failure. */
  function listen(onLost: (error: Error) => void): Promise<() => void> {
    return new Promise((resolve, reject) => {
      let first = true;
      const stop = notices
        .where('at', '>=', Timestamp.fromMillis(Date.now() - listenBackMs))
        .orderBy('at')
        .onSnapshot(
          (snapshot) => {
            if (first) {
              first = false;
              return resolve(stop);
            }
            for (const { id, doc } of inOrder(snapshot.docChanges())) {
              if (doc.from === prefix) continue;
              const notice = noticeOf(doc);
              if (notice) deliverNotice(notice);
              else logger.warn({ id }, 'event bus: ignored a malformed notice');
            }
          },
          (error) => {
            if (first) return reject(error);
            onLost(error);
          },
        );
    });
  }

  function onLost(error: Error) {
    unsubscribe = undefined;
    if (closed) return;
    logger.warn({ err: error }, 'event bus: the Firestore listener failed; listening again');
    reconnect(firstRetryMs);
  }

  function reconnect(delayMs: number) {
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        const stop = await listen(onLost);
        if (closed) return stop();
        unsubscribe = stop;
        logger.info('event bus: listening again');
        deliver({ type: 'resync' });
      } catch (error) {
        if (closed) return;
        const next = Math.min(delayMs * 2, maxRetryMs);
        logger.warn({ err: error, retryInMs: next }, 'event bus: listening again failed');
        reconnect(next);
      }
    }, delayMs);
  }

  unsubscribe = await listen(onLost);

  return {
    publish(notice) {
      if (closed) return;
      deliverNotice(notice);
      const doc: NoticeDoc = {
        table: notice.table,
        ids: [...notice.ids],
        audience: notice.audience,
        ...(notice.version === undefined ? {} : { version: notice.version }),
        from: prefix,
        seq: ++seq,
        at: FieldValue.serverTimestamp() as unknown as Timestamp,
        expireAt: Timestamp.fromMillis(Date.now() + keepMs),
      };
      unwritten.push(doc);
      writing ??= writeUnwritten();
    },
    subscribe(listen) {
      listeners.add(listen);
      return () => listeners.delete(listen);
    },
    async close() {
      // A process that publishes and then stops (the CLI: `staff remove`) must not end before its notices left.
      await writing;
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      unsubscribe?.();
    },
  };
}

/**
 * The new notices of one snapshot in the order they were written: by Firestore's time, and one publisher's
 * by its count (two notices may share a millisecond; the query's tie-break, the random document id, is no order).
 * Notices of two publishers at one time are ordered by publisher: the order must be total. Comparing only one
 * publisher's counts (0 between publishers) is not an order, and sorting by it once delivered a batch's notices
 * out of their order when another process's batch committed in the same millisecond (a CI rehearsal).
 */
export function inOrder(changes: DocumentChange<NoticeDoc>[]): { id: string; doc: NoticeDoc }[] {
  return changes
    .filter((change) => change.type === 'added')
    .map((change) => ({ id: change.doc.id, doc: change.doc.data() }))
    .sort(
      (a, b) =>
        a.doc.at.toMillis() - b.doc.at.toMillis() ||
        (a.doc.from < b.doc.from ? -1 : a.doc.from > b.doc.from ? 1 : a.doc.seq - b.doc.seq),
    );
}

function noticeOf(doc: Partial<NoticeDoc>): ChangeNotice | undefined {
  const ok =
    typeof doc.table === 'string' &&
    Array.isArray(doc.ids) &&
    doc.ids.every((id) => typeof id === 'string') &&
    (doc.version === undefined || Number.isSafeInteger(doc.version)) &&
    (doc.audience === 'everyone' || (typeof doc.audience === 'object' && doc.audience !== null));
  if (!ok) return undefined;
  return {
    table: doc.table!,
    ids: doc.ids!,
    audience: doc.audience!,
    ...(doc.version === undefined ? {} : { version: doc.version }),
  };
}
