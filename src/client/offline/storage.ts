/**
 * Storage that vanishes (OFFLINE-ENGINE.md, rule 7): noticed, reported in the engine's status, reloaded.
 *
 * A wiped IndexedDB cannot say what it lost, so a second place keeps a small mark: localStorage
 * `<db>:stored-user` = `{ userId, unsent }`, rewritten whenever the database holds a session record and the
 * queue changes, and removed only by a log-out (`clearUserData`). When the server says someone is signed in
 * (`noticeSignedIn`, called before the app clears or writes the session record):
 * - the database holds a session record (anyone's): nothing was lost;
 * - no record, but a mark: IndexedDB alone was cleared (evicted when space ran low, lost by WebKit, deleted by
 *   hand): reported, with how many unsent items the mark had counted (theirs; unknown for someone else);
 * - no record and no mark: both went. Safari deletes all of a site's storage after seven days without a visit
 *   but keeps the session cookie, so this is how its wipe looks. It is reported (without a count) unless the
 *   user is logging in right now: the app writes the record in the page where someone logs in, so only a
 *   first login or the return from Google meets a signed-in server with nothing stored, and the app says
 *   which. A false alarm would need a cookie that outlived its record without a wipe.
 * A loss is reported once per page. What was lost cannot come back; everything on the server loads again by
 * itself, because a source without a stored cursor pulls from the start.
 *
 * The connection can also close under the page (WebKit drops it; another tab or DevTools deletes the
 * database). Dexie would reopen it at the next call; it is reopened at once instead, so that a failure shows
 * (`failing`, tried again on focus and reconnect) and a database that came back empty is reported as above,
 * with the session record put back from memory: the page still knows who is signed in. A close that comes
 * while the page is still loading the engine is looked into when the engine starts.
 */
import type { LocalDb, SessionRecord } from './db.ts';
import { storedUserKey } from '../lib/device-mark.ts';

/** `cleared`: found emptied, and loading again; `unsent` is how many unsent items went with it, null if unknown. `failing`: it cannot be opened. */
export type StorageStatus = { state: 'ok' } | { state: 'cleared'; unsent: number | null } | { state: 'failing' };

/** Where the mark is kept: localStorage in the browser. */
export type Marks = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

interface Mark {
  userId: string;
  unsent: number;
}

interface StorageContext {
  db: LocalDb;
  user(): string | null;
  stopped(): boolean;
  report(status: StorageStatus): void;
  status(): StorageStatus;
  /**
   * Load every source again (the engine is running for a user whose data went); `ifStale`: a source this page
   * has read since the loss is not read again.
   */
  resync(options: { ifStale: boolean }): void;
}

export function browserMarks(): Marks | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage disabled by the browser's settings: accessing it throws.
    return undefined;
  }
}

export function createStorageWatch(ctx: StorageContext, marks: Marks | undefined) {
  const { db } = ctx;
  const key = storedUserKey(db.name);
  let reported = false;
  /** The record and count the last mirror saw: what the page knows if the database empties under it. */
  let last: { record: SessionRecord; unsent: number } | undefined;
  let mirroring: Promise<void> | null = null;
  let again = false;
  /** Grows at each log-out: a mirror that read the database before it must not write the mark back. */
  let forgotten = 0;

  const readMark = (): Mark | undefined => {
    try {
      const mark = JSON.parse(marks?.getItem(key) ?? 'null') as Mark | null;
      return typeof mark?.userId === 'string' && typeof mark.unsent === 'number' ? mark : undefined;
    } catch {
      return undefined;
    }
  };

  /** Writes the mark from what the database holds now; never removes it (a wiped database must not erase the evidence). */
  function mirror(): void {
    if (mirroring) {
      again = true;
      return;
    }
    mirroring = (async () => {
      do {
        again = false;
        const epoch = forgotten;
        // The record and its count from one snapshot: read apart, a database emptied between the two reads
        // (and opened again, empty) gave the record with a count of 0, and the loss was reported as nothing.
        const seen = await db.transaction('r', db.session, db.outbox, async () => {
          const found = await db.session.get('me');
          return found && { record: found, unsent: await db.outbox.where('userId').equals(found.me.id).count() };
        });
        if (!seen) continue;
        const { record, unsent } = seen;
        if (epoch !== forgotten) continue;
        last = { record, unsent };
        marks?.setItem(key, JSON.stringify({ userId: record.me.id, unsent } satisfies Mark));
      } while (again);
    })()
      .catch((error: unknown) => console.warn('Could not note what this device stores', error))
      .finally(() => {
        mirroring = null;
      });
  }

  /** `readSince`: what the page has read is newer than the loss, and stays (only what it has not read loads). */
  function lost(unsent: number | null, { readSince }: { readSince: boolean }): void {
    if (reported) return;
    reported = true;
    // Told once; the next mirror writes what the database holds from now on.
    marks?.removeItem(key);
    ctx.report({ state: 'cleared', unsent });
    // Not yet running for them (the app is starting): setting the user loads everything.
    if (ctx.user()) ctx.resync({ ifStale: readSince });
  }

  /** The server says `userId` is signed in; `loggingIn`: they are logging in right now (here, or back from Google). */
  async function noticeSignedIn(userId: string, { loggingIn }: { loggingIn: boolean }): Promise<void> {
    // Unreadable (failing): nothing can be told, and the status already says so.
    if (await db.session.get('me').catch(() => 'unreadable')) return;
    const mark = readMark();
    // Emptied before this page used it (emptied under the page, its connection closes: `reopen` finds that), so
    // the page's reads, on a new device or after cleared site data, stay (each list is read once).
    if (mark) lost(mark.userId === userId ? mark.unsent : null, { readSince: true });
    else if (!loggingIn) lost(null, { readSince: true });
  }

  /** Log-out: the device holds nobody's data any more, so finding none later is no loss. */
  function forget(): void {
    forgotten += 1;
    marks?.removeItem(key);
    last = undefined;
  }

  /** Closed under a page whose engine has not started yet (the app still loading it): answered at the start. */
  let closedBeforeStart = false;

  const reopen = async (tries = 2): Promise<void> => {
    // Also fired by close() itself: a database closed on purpose says so once close() has returned.
    if (db.hasBeenClosed()) return;
    if (ctx.stopped()) {
      closedBeforeStart = true;
      return;
    }
    try {
      await db.open();
    } catch (error) {
      // Closed again while opening (the deletion that closed it may still be under way): once more, shortly.
      if (tries > 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return reopen(tries - 1);
      }
      console.warn('IndexedDB could not be opened again', error);
      ctx.report({ state: 'failing' });
      return;
    }
    if (ctx.status().state === 'failing') ctx.report({ state: 'ok' });
    const userId = ctx.user();
    if (!userId || (await db.session.get('me'))) return;
    // Emptied under the page: it still knows who is signed in, so their record goes back and the queue
    // and their sources go on. What was unsent is read first: a mirror under way (any change to the queue
    // starts one) may read the record put back and count the emptied queue before this goes on.
    const known = last?.record.me.id === userId ? last : undefined;
    const unsent = known ? known.unsent : (readMark()?.unsent ?? null);
    if (known) await db.session.put(known.record);
    lost(unsent, { readSince: false });
  };

  db.on('close', () => void setTimeout(() => void reopen(), 0));

  return {
    mirror,
    noticeSignedIn,
    forget,
    /** Focus, reconnecting: a database that could not be opened is tried again. */
    retry: () => (ctx.status().state === 'failing' ? reopen(1) : Promise.resolve()),
    /** The engine starts: a close it missed while it was not running is looked into now. */
    started(): Promise<void> {
      if (!closedBeforeStart) return Promise.resolve();
      closedBeforeStart = false;
      return reopen();
    },
  };
}
