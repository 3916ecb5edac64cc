import type { Me } from '../../common/session.ts';
import { accessTable, type BusMessage, type ChangeNotice } from '../events/events.ts';

/** A session as every signed-in request reads it: its user, and when it expires. */
export interface SignedIn {
  me: Me;
  expiresAt: Date;
}

/**
 * The sessions this process read lately, by the session cookie that named them (its signed value: one entry per
 * session, whatever else the Cookie header carries), so that a signed-in request need not read the session and
 * its user again (docs/decisions/0032, 0040). What it holds is dropped the moment it may be wrong:
 *
 * - a user's sessions when a notice says their access changed (`accessTable`: signed out, a session ended, a
 *   role or tutor categories changed, the account deleted) or their name did (`me`), heard from this process's
 *   publisher at once (`hear`) and from every other process through the bus;
 * - everything when the bus says notices may have been missed (`resync`), while it cannot hear every process
 *   (`busHearsAll`: PostgreSQL's LISTEN connection down), and when `writesElsewhere` moves (SQLite: another
 *   process, the CLI, committed; its notices go to a bus of its own);
 * - each session after `maxAgeMs` whatever happened, in case a notice was lost on its way (a process that
 *   died between its commit and its NOTIFY).
 *
 * A read that began before a drop is not kept: it may have read what the drop was about.
 */
export interface SessionCache {
  /**
   * The session a session cookie names: the kept copy, or what `load` reads (kept if nothing was dropped
   * meanwhile). `load` checks the signature: nothing is kept for a cookie that names no session.
   */
  read(sessionCookie: string, load: () => Promise<SignedIn | undefined>): Promise<SignedIn | undefined>;
  /** Forgets one session (after better-auth wrote it: refreshed or deleted). */
  forgetSession(sessionCookie: string): void;
  /** Acts on a notice this process publishes, before the bus carries it anywhere. */
  hear(notice: ChangeNotice): void;
  /** For the bus's subscription. */
  onBusMessage(message: BusMessage): void;
}

export interface SessionCacheOptions {
  /** Changes when another process may have written without this process's bus hearing of it. */
  writesElsewhere: () => number;
  /** Whether this process hears every process's notices now. */
  busHearsAll: () => boolean;
  maxAgeMs?: number;
  maxSessions?: number;
  now?: () => number;
}

interface Kept {
  signedIn: SignedIn;
  keptAt: number;
}

export function createSessionCache(options: SessionCacheOptions): SessionCache {
  const { writesElsewhere, busHearsAll, maxAgeMs = 60_000, maxSessions = 10_000, now = Date.now } = options;
  const sessions = new Map<string, Kept>();
  const cookiesOfUser = new Map<string, Set<string>>();
  /** Moves with every drop: a read that saw another value began before it. */
  let drops = 0;
  let lastWritesElsewhere = writesElsewhere();

  const forgetSession = (cookie: string) => {
    const kept = sessions.get(cookie);
    drops++;
    if (!kept) return;
    sessions.delete(cookie);
    const userId = kept.signedIn.me.id;
    const cookies = cookiesOfUser.get(userId);
    cookies?.delete(cookie);
    if (cookies?.size === 0) cookiesOfUser.delete(userId);
  };
  const forgetUsers = (userIds: readonly string[]) => {
    drops++;
    for (const userId of userIds) for (const cookie of cookiesOfUser.get(userId) ?? []) forgetSession(cookie);
  };
  const forgetAll = () => {
    drops++;
    sessions.clear();
    cookiesOfUser.clear();
  };
  const hear = (notice: ChangeNotice) => {
    if (notice.table === accessTable || notice.table === 'me') forgetUsers(notice.ids);
  };
  const keep = (cookie: string, signedIn: SignedIn) => {
    // The oldest goes first when full: a Map iterates in the order its keys were set.
    if (sessions.size >= maxSessions) forgetSession(sessions.keys().next().value!);
    sessions.set(cookie, { signedIn, keptAt: now() });
    const userId = signedIn.me.id;
    let cookies = cookiesOfUser.get(userId);
    if (!cookies) cookiesOfUser.set(userId, (cookies = new Set()));
    cookies.add(cookie);
  };

  return {
    async read(cookie, load) {
      const elsewhere = writesElsewhere();
      if (elsewhere !== lastWritesElsewhere || !busHearsAll()) {
        lastWritesElsewhere = elsewhere;
        forgetAll();
      }
      const kept = sessions.get(cookie);
      if (kept && now() - kept.keptAt < maxAgeMs) return kept.signedIn;
      if (kept) forgetSession(cookie);
      const dropsBefore = drops;
      const signedIn = await load();
      if (signedIn && drops === dropsBefore && busHearsAll()) keep(cookie, signedIn);
      return signedIn;
    },
    forgetSession,
    hear,
    onBusMessage(message) {
      if (message.type === 'resync') forgetAll();
      else hear(message.event);
    },
  };
}
