import {
  FieldValue,
  type DocumentReference,
  type PartialWithFieldValue,
  type SetOptions,
} from 'firebase-admin/firestore';
import { read, type FirestoreContext } from './context.ts';

/**
 * When each user last did something a rate limit counts (a booking request, a post on the board), one document
 * per user: `<collection>/{userId}` holding `times`, ISO text, oldest first. A rate limit reads it by key in the
 * transaction of the change it counts, and the change adds its time there: one user's changes at once are
 * ordered by that document, and nobody else's wait for it.
 *
 * The alternative, a count query over the feature's collection in the transaction, is exact too, but the
 * emulator then locks the whole collection against every other change's insert (bench/firestore.ts: booking
 * requests at 20 at once, about one a second; docs/firestore-layout.md).
 */
export interface RecentTimes {
  /** How many of the user's times are after `since` (within the kept window). */
  countSince(userId: string, since: string): Promise<number>;
  /**
   * Adds a time: to the times this transaction read (and keeps the window's), or, where it read none (the
   * Firebase import, which counts no limit), to whatever is stored.
   */
  record(writer: TimesWriter, userId: string | null, at: string): void;
  /** Removes the user's times (their account is deleted). */
  forget(writer: Pick<TimesWriter, 'delete'>, userId: string): void;
}

interface TimesDoc {
  times: string[];
}

/** A transaction or a batch, which write alike. */
export interface TimesWriter {
  set(ref: DocumentReference<TimesDoc>, data: PartialWithFieldValue<TimesDoc>, options: SetOptions): unknown;
  delete(ref: DocumentReference<TimesDoc>): unknown;
}

/**
 * `keptMs`: how far back from a user's latest time the others are kept, at least the longest window counted.
 * Made per transaction attempt, as the repositories are: it remembers what the attempt read.
 */
export function createRecentTimes(ctx: FirestoreContext, collection: string, keptMs: number): RecentTimes {
  const ref = (userId: string) =>
    ctx.db.doc(`${collection}/${encodeURIComponent(userId)}`) as DocumentReference<TimesDoc>;
  const readInTransaction = new Map<string, string[]>();

  async function timesOf(userId: string): Promise<string[]> {
    const known = ctx.tx && readInTransaction.get(userId);
    if (known) return known;
    const times = (await read(ctx, ref(userId))).data()?.times ?? [];
    if (ctx.tx) readInTransaction.set(userId, times);
    return times;
  }

  return {
    async countSince(userId, since) {
      return (await timesOf(userId)).filter((t) => t > since).length;
    },

    record(writer, userId, at) {
      if (userId === null) return;
      const known = readInTransaction.get(userId);
      if (!known) {
        writer.set(ref(userId), { times: FieldValue.arrayUnion(at) }, { merge: true });
        return;
      }
      const oldest = new Date(Date.parse(at) - keptMs).toISOString();
      const times = [...known.filter((t) => t > oldest), at].sort();
      readInTransaction.set(userId, times);
      writer.set(ref(userId), { times }, { merge: true });
    },

    forget(writer, userId) {
      readInTransaction.delete(userId);
      writer.delete(ref(userId));
    },
  };
}
