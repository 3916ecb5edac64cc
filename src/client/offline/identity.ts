/**
 * Whose data this device holds (OFFLINE-ENGINE.md rule 11): one state, kept in one place and changed only here.
 *
 *   unknown ── restore ──► signed-in (from the page the server rendered, or the device's record)
 *      │                      │  ▲
 *   named(me) / nobody()      │  named(me): the server says who it is (someone else: the last one's data goes)
 *      ▼                      ▼  │
 *   visitor ◄── signOut / nobody ── ended (the server said the session ended: the data stays for the same person)
 *
 * It is persisted as the session record in IndexedDB (`{ me, endedAt? }`: no record is nobody), with what must
 * be known before IndexedDB is opened in localStorage: the storage watch's mark, rewritten from the record
 * (storage.ts), and a log-out the server has not heard of yet (`pendingSignOutKey`). Each transition does
 * everything that goes with it, in order: the wipe check, clearing the last user's data (their tables, queue,
 * sync states and mark), the record, the engine's user (a new generation when it changes: work begun for the
 * last user is dropped, and each source reads again for the new one), then tells its subscribers (the session
 * provider, lib/session.tsx) and the other tabs, which follow without repeating the work.
 */
import type { Me } from '../../common/session.ts';
import type { Identity } from '../lib/device-identity.ts';
import type { LocalDb } from './db.ts';
import { loggingInKey, pendingSignOutKey } from '../lib/device-mark.ts';
import type { Marks } from './storage.ts';

/** What one tab tells the others when it has made a transition (the format tabs of older builds use too). */
type Broadcast = { type: 'signed-in'; me: Me } | { type: 'signed-out' };

export interface IdentityContext {
  db: LocalDb;
  marks: Marks | undefined;
  /** The engine runs for this user from now on. */
  setUser(userId: string | null): void;
  /** The signed-in user's data goes (their tables, their queue, sync states, the storage mark). */
  clearUserData(): Promise<void>;
  /** The server names this user: was what the device stored lost meanwhile? Called before the record is touched. */
  noticeSignedIn(userId: string, options: { loggingIn: boolean }): Promise<void>;
}

const userOf = (identity: Identity): string | null =>
  identity.state === 'signed-in' || identity.state === 'ended' ? identity.me.id : null;

/** Same person, with nothing changed that the app shows (name, role, categories). */
const sameMe = (a: Me, b: Me) => JSON.stringify(a) === JSON.stringify(b);

export type { Identity } from '../lib/device-identity.ts';

export function createIdentity(ctx: IdentityContext) {
  const { db, marks } = ctx;
  let current: Identity = { state: 'unknown' };
  /** Told of each change; `followed`: another tab made it. */
  const listeners = new Set<(followed: boolean) => void>();
  /** Opened with the first transition (never while a page is rendered at build time: it would keep Node running). */
  let channel: BroadcastChannel | null | undefined;
  /** One transition at a time: each reads what the last one wrote. */
  let queue: Promise<unknown> = Promise.resolve();

  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    tabs();
    const done = queue.then(work);
    queue = done.catch(() => undefined);
    return done;
  };

  /** The new state, for the engine, this page's subscribers and (`told`) the other tabs. */
  function become(next: Identity, told?: Broadcast, followed = false): void {
    // The same `me` object while nothing in it changed: the pages' effects that depend on it stay put.
    if ('me' in next && 'me' in current && sameMe(next.me, current.me)) next = { ...next, me: current.me };
    const changed = JSON.stringify(next) !== JSON.stringify(current);
    current = next;
    ctx.setUser(userOf(next));
    if (changed) for (const listener of listeners) listener(followed);
    if (told) tabs()?.postMessage(told);
  }

  /** The tab's log-in flag (set by `beforeLogin`), read and cleared: finding nothing stored is then expected. */
  function takeLoggingIn(): boolean {
    try {
      const loggingIn = sessionStorage.getItem(loggingInKey) !== null;
      sessionStorage.removeItem(loggingInKey);
      return loggingIn;
    } catch {
      return false;
    }
  }

  const signOutPending = () => marks?.getItem(pendingSignOutKey) != null;

  /** The other tabs: told of each transition here, and followed (without repeating the work) when they make one. */
  function tabs(): BroadcastChannel | null {
    if (channel !== undefined) return channel;
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`${db.name}:session`);
    // In Node (tests), an open channel would keep the process running.
    (channel as { unref?: () => void } | null)?.unref?.();
    channel?.addEventListener('message', (event: MessageEvent<Broadcast>) => {
      void serially(async () => {
        const message = event.data;
        if (message.type === 'signed-out') become({ state: 'visitor' }, undefined, true);
        else {
          const confirmed = current.state === 'signed-in' && current.confirmed;
          become({ state: 'signed-in', me: message.me, confirmed }, undefined, true);
        }
      });
    });
    return channel;
  }

  return {
    current: () => current,
    subscribe(listener: (followed: boolean) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /**
     * As the engine loads: the user the server rendered this page for, or else the one the device's record names
     * (an offline start), unless that session ended or a log-out is still to be sent. Nothing is written.
     */
    restore: (served?: Me): Promise<void> =>
      serially(async () => {
        if (current.state !== 'unknown') return;
        if (served) return become({ state: 'signed-in', me: served, confirmed: false });
        if (signOutPending()) return become({ state: 'visitor' });
        const record = await db.session.get('me');
        if (record && !record.endedAt) become({ state: 'signed-in', me: record.me, confirmed: false });
      }),

    /**
     * The server names `me`. Someone else's data on the device goes first (a session that ended without a
     * log-out); a device found emptied is reported (storage.ts); then the record, and the engine reads for them.
     */
    named: (me: Me): Promise<void> =>
      serially(async () => {
        const loggingIn = takeLoggingIn();
        // Before the record is touched: its absence is what tells a wiped device.
        await ctx.noticeSignedIn(me.id, { loggingIn });
        const record = await db.session.get('me');
        // With no record the device holds nobody's data but what this page has read for the engine's user: if
        // that is them, it stays (a new device reads each list once).
        const someoneElses = record ? record.me.id !== me.id : ![null, me.id].includes(userOf(current));
        if (someoneElses) await ctx.clearUserData();
        await db.session.put({ key: 'me', me, savedAt: new Date().toISOString() });
        become({ state: 'signed-in', me, confirmed: true }, { type: 'signed-in', me });
      }),

    /**
     * The server says nobody is signed in. A session this page was using has ended (`ended`); otherwise it is
     * the server's word against a record or a page made earlier, and nobody is signed in: their data goes.
     */
    nobody: (): Promise<void> =>
      serially(async () => {
        if (current.state === 'signed-in' && current.confirmed) return end();
        if (current.state === 'ended') return;
        await ctx.clearUserData();
        become({ state: 'visitor' });
      }),

    /** A request found the session this page was using ended (a 401): the page and the data stay. */
    ended: (): Promise<void> => serially(end),

    /** Nobody known is nobody: the server could not be asked, or the page already heard nobody is signed in. */
    settle: (): Promise<void> =>
      serially(async () => {
        if (current.state === 'unknown') become({ state: 'visitor' });
      }),

    /**
     * Log-out, at once, online or not: the user's data goes, and (`serverDone`: unless the server already knows,
     * the account was deleted, say) the server is to be told when it can be (`signOutSent`).
     */
    signOut: ({ serverDone = false }: { serverDone?: boolean } = {}): Promise<void> =>
      serially(async () => {
        if (!serverDone) marks?.setItem(pendingSignOutKey, '1');
        await ctx.clearUserData();
        become({ state: 'visitor' }, { type: 'signed-out' });
      }),

    /** The server has ended the session of a log-out made here (or had none left to end). */
    signOutSent: () => marks?.removeItem(pendingSignOutKey),

    close: () => channel?.close(),
  };

  async function end(): Promise<void> {
    if (current.state !== 'signed-in') return;
    await db.session.update('me', { endedAt: new Date().toISOString() });
    become({ state: 'ended', me: current.me });
  }
}

export type IdentityStore = ReturnType<typeof createIdentity>;
