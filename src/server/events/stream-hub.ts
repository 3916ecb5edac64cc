import { randomUUID } from 'node:crypto';
import type { SSEStreamingApi } from 'hono/streaming';
import type { Category, Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';
import { accessTable, type Audience, type EventBus, type LiveEvent } from './events.ts';

export interface StreamHubOptions {
  bus: EventBus;
  /** A comment line this often keeps proxies and browsers from dropping an idle stream (OFFLINE-ENGINE: ≤ 30 s). */
  heartbeatMs?: number;
  /** How long a browser waits before reconnecting (the `retry:` hint). */
  retryMs?: number;
  /** How many recent events a reconnecting client can be brought up to date from. */
  bufferSize?: number;
  /** Past this many ids waiting for one slow client, it gets one `resync` instead. */
  maxPendingIds?: number;
  /**
   * How often a signed-in stream checks that its session still stands for the same access (a session that
   * expired, a change no notice told this process of: the CLI on SQLite). Notices on `accessTable` make the
   * streams of the users they name check at once.
   */
  recheckMs?: number;
  /** How many users' newest notices the positions remember (the oldest are forgotten first). */
  maxTrackedUsers?: number;
}

/** Who holds a stream now, read again from its request's session: undefined once it has ended. */
export type ReadHolder = () => Promise<Me | undefined>;

export interface StreamHub {
  /**
   * Serves one stream until the client goes away, `closeAll` ends it, or its holder's access changes
   * (`recheck` no longer gives the same user, role and categories: the browser then reconnects as whoever its
   * cookie now says). `lastEventId` is the header a reconnecting browser sends.
   */
  serve(
    stream: SSEStreamingApi,
    client: { me: Me | undefined; lastEventId: string | undefined; recheck?: ReadHolder },
  ): Promise<void>;
  /** Ends every open stream (shutdown); streams opened afterwards end at once. */
  closeAll(): Promise<void>;
  /** Streams open now. */
  openStreams(): number;
  /**
   * Where the notices `me` may hear stand now (a visitor's, the public ones), as an opaque text: it changes
   * with every notice they hear (and every gap, when notices were lost), and with nothing else, so it tells
   * nobody of notices meant for others. A visitor's position is the start of a signed-in user's: a read whose
   * position is the one a stream later opens at, or its start, missed nothing that stream will not tell (the
   * `Live-Position` header, the `ready` event: docs/api.md).
   */
  position(me?: Me): string;
}

/** Notices for one table waiting to be written to one client, merged. */
interface Pending {
  ids: Set<string>;
  /**
   * The highest version of the notices merged in, or undefined when any of them had none: a merged notice
   * must not claim a version that one of its parts cannot vouch for.
   */
  version: number | undefined;
  /** The hub sequence numbers of the first and last notice merged in. */
  firstSeq: number;
  lastSeq: number;
}

interface Connection {
  stream: SSEStreamingApi;
  me: Me | undefined;
  recheck: ReadHolder | undefined;
  /** A check of the holder is under way; `recheckAgain`: another was asked for meanwhile. */
  rechecking: boolean;
  recheckAgain: boolean;
  recheckTimer: NodeJS.Timeout | undefined;
  /** By table, in the order of each entry's first notice (a Map keeps insertion order). */
  pending: Map<string, Pending>;
  pendingIds: number;
  /** A resync is due; `resyncSeq` is the newest event it covers, when that event is known. */
  resync: boolean;
  resyncSeq: number | undefined;
  retryDue: boolean;
  /** The position the stream opened at, until the `ready` event that tells it is written. */
  readyDue: string | undefined;
  /**
   * The id the `ready` event carries: the newest event the stream's holder hears, on a stream opened without
   * `Last-Event-ID`. A browser that has heard no change yet then still resumes from somewhere on a reconnect,
   * and is sent what it missed meanwhile.
   */
  readyId: string | undefined;
  heartbeatDue: boolean;
  writing: boolean;
  heartbeat: NodeJS.Timeout;
  end(): void;
}

/** The newest notice an audience heard: a position names its id. */
interface Mark {
  seq: number;
  id: string;
}

/**
 * A stream's own period for a timer of `ms`: from three quarters of `ms` to all of it, drawn for each stream.
 * Streams opened together (every browser reconnecting after a restart, a bench's 500 users) would otherwise tick
 * together: 500 heartbeats, or 500 session checks, in one turn of the event loop. Never longer than `ms`, the
 * bound each option promises.
 */
const spread = (ms: number) => ms - Math.floor((Math.random() * ms) / 4);

/**
 * Fans the bus's notices out to the open Server-Sent Event streams. Each stream hears only what its audience
 * allows, and has its own small queue written one message at a time, so a slow client never holds up the
 * others: while it is still writing, later notices for the same table merge into one (past a limit, into one
 * `resync`). The last `bufferSize` events are kept so a browser that reconnects with `Last-Event-ID` gets what
 * it missed; an id the hub does not know (another process's, from before a restart, too old) gets `resync`.
 */
export function createStreamHub(options: StreamHubOptions): StreamHub {
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const retryMs = options.retryMs ?? 3_000;
  const bufferSize = options.bufferSize ?? 1_000;
  const maxPendingIds = options.maxPendingIds ?? 1_000;
  const recheckMs = options.recheckMs ?? 60_000;
  const maxTrackedUsers = options.maxTrackedUsers ?? 100_000;

  const connections = new Set<Connection>();
  // The hub numbers events itself (seq), so that it can order and compare them; the bus's ids are opaque.
  const recent: { seq: number; event: LiveEvent; text?: string }[] = [];
  const seqById = new Map<string, number>();
  let nextSeq = 1;
  /** Gaps in the bus (notices lost): a position from before one must not match one after. */
  let gaps = 0;
  /** Two processes' positions never match: their numbering is their own. */
  const instance = randomUUID().slice(0, 8);
  /**
   * The newest notice heard by everyone, by each user, role and tutor category named in an audience. A
   * position is made of these alone (never of a count of all notices), so it moves only with what its reader
   * hears. Users are kept in the order of their last notice; past `maxTrackedUsers` the oldest are forgotten
   * (their position then moves once, with nothing to tell).
   */
  let latestPublic: Mark | undefined;
  const latestByUser = new Map<string, Mark>();
  const latestByRole = new Map<Role, Mark>();
  const latestByCategory = new Map<Category, Mark>();
  let closing = false;
  /**
   * When each user's access last changed, for a few seconds: a stream whose request read the session just
   * before the change, and registers just after its notice, checks its holder at once.
   */
  const recentAccess = new Map<string, number>();
  const accessMemoryMs = 10_000;

  function remember(audience: Audience, mark: Mark) {
    if (audience === 'everyone') return void (latestPublic = mark);
    for (const userId of audience.userIds ?? []) {
      latestByUser.delete(userId);
      latestByUser.set(userId, mark);
    }
    while (latestByUser.size > maxTrackedUsers) latestByUser.delete(latestByUser.keys().next().value!);
    for (const role of audience.roles ?? []) latestByRole.set(role, mark);
    for (const category of audience.tutorCategories ?? []) latestByCategory.set(category, mark);
  }

  function position(me?: Me): string {
    const base = `${instance}.${gaps}.${latestPublic?.id ?? '0'}`;
    if (!me) return base;
    let newest = latestByUser.get(me.id);
    const consider = (mark: Mark | undefined) => {
      if (mark && (!newest || mark.seq > newest.seq)) newest = mark;
    };
    consider(latestByRole.get(me.role));
    if (me.role === 'tutor') for (const category of me.categories) consider(latestByCategory.get(category));
    return `${base}.${newest?.id ?? '0'}`;
  }

  /**
   * The id of the newest event at or before `seq` that `conn` hears: what its messages may name, so that an id
   * never shows it a notice it did not hear. Undefined when the buffer holds none.
   */
  function heardIdAt(conn: Connection, seq: number | undefined): string | undefined {
    if (seq === undefined || recent.length === 0) return undefined;
    for (let i = Math.min(seq - recent[0]!.seq, recent.length - 1); i >= 0; i--)
      if (hears(conn.me, recent[i]!.event.audience)) return recent[i]!.event.id;
    return undefined;
  }

  /**
   * The message for an entry that holds one notice alone, the usual case: formatted once for every stream
   * that hears it, not once per stream.
   */
  const formatted = (seq: number, table: string, entry: Pending): string => {
    const item = recent.length > 0 ? recent[seq - recent[0]!.seq] : undefined;
    if (!item || item.event.ids.length !== entry.ids.size || item.event.version !== entry.version)
      return format('change', item?.event.id, changeData(table, entry.ids, entry.version));
    item.text ??= format('change', item.event.id, changeData(table, item.event.ids, item.event.version));
    return item.text;
  };

  options.bus.subscribe((message) => {
    if (message.type === 'resync') {
      // Events before the gap can no longer bring a client fully up to date.
      gaps += 1;
      recent.length = 0;
      seqById.clear();
      latestPublic = undefined;
      latestByUser.clear();
      latestByRole.clear();
      latestByCategory.clear();
      // Access notices may have been lost too.
      for (const conn of connections) {
        requestResync(conn, undefined);
        checkHolder(conn);
      }
      return;
    }
    if (message.event.table === accessTable) {
      const users = new Set(message.event.ids);
      const now = Date.now();
      for (const userId of users) {
        recentAccess.delete(userId);
        recentAccess.set(userId, now);
      }
      for (const [userId, at] of recentAccess) {
        if (now - at < accessMemoryMs) break;
        recentAccess.delete(userId);
      }
      for (const conn of connections) if (conn.me && users.has(conn.me.id)) checkHolder(conn);
      return;
    }
    const seq = nextSeq++;
    remember(message.event.audience, { seq, id: message.event.id });
    recent.push({ seq, event: message.event });
    seqById.set(message.event.id, seq);
    if (recent.length > bufferSize) seqById.delete(recent.shift()!.event.id);
    for (const conn of connections) {
      if (hears(conn.me, message.event.audience)) enqueue(conn, seq, message.event);
    }
  });

  /**
   * Reads the stream's holder again and ends the stream when it is no longer the same user with the same role
   * and categories (signed out, expired, deleted, demoted): the browser reconnects, and its new stream hears
   * only what its cookie now allows. A check asked for while one runs runs again after it.
   */
  function checkHolder(conn: Connection) {
    const recheck = conn.recheck;
    if (!recheck || !connections.has(conn)) return;
    if (conn.rechecking) return void (conn.recheckAgain = true);
    conn.rechecking = true;
    void (async () => {
      let same: boolean;
      try {
        do {
          conn.recheckAgain = false;
          same = sameAccess(conn.me, await recheck());
        } while (same && conn.recheckAgain);
      } catch {
        // Unsure who holds it (the database did not answer): ending is the safe side, and the browser's
        // reconnect reads the session again.
        same = false;
      }
      conn.rechecking = false;
      if (!same && connections.has(conn)) void endStream(conn);
    })();
  }

  /** Ends one stream from this side. */
  function endStream(conn: Connection): Promise<void> {
    conn.end();
    // A client that is not reading would keep a clean close waiting for its last write.
    if (!conn.writing) return conn.stream.close();
    conn.stream.abort();
    return Promise.resolve();
  }

  function requestResync(conn: Connection, seq: number | undefined) {
    conn.pending.clear();
    conn.pendingIds = 0;
    conn.resync = true;
    conn.resyncSeq = seq;
    void pump(conn);
  }

  function enqueue(conn: Connection, seq: number, event: LiveEvent) {
    if (conn.resync) {
      // The client refetches everything once the resync reaches it, which covers this event too.
      conn.resyncSeq = seq;
      return;
    }
    let entry = conn.pending.get(event.table);
    if (!entry) {
      entry = { ids: new Set(), version: event.version, firstSeq: seq, lastSeq: seq };
      conn.pending.set(event.table, entry);
    } else {
      entry.version =
        entry.version === undefined || event.version === undefined ? undefined : Math.max(entry.version, event.version);
    }
    for (const id of event.ids) {
      if (entry.ids.has(id)) continue;
      entry.ids.add(id);
      conn.pendingIds++;
    }
    entry.lastSeq = seq;
    if (conn.pendingIds > maxPendingIds) return requestResync(conn, seq);
    void pump(conn);
  }

  /** Writes what is due, one message at a time; a call while a write is under way returns at once. */
  async function pump(conn: Connection) {
    if (conn.writing) return;
    conn.writing = true;
    try {
      while (!conn.stream.closed && !conn.stream.aborted) {
        if (conn.retryDue) {
          conn.retryDue = false;
          await conn.stream.write(`retry: ${retryMs}\n\n`);
        } else if (conn.readyDue !== undefined) {
          const at = conn.readyDue;
          conn.readyDue = undefined;
          await conn.stream.write(format('ready', conn.readyId, { position: at }));
        } else if (conn.resync) {
          conn.resync = false;
          await conn.stream.write(format('resync', heardIdAt(conn, conn.resyncSeq), {}));
        } else if (conn.pending.size > 0) {
          const [table, entry] = conn.pending.entries().next().value!;
          conn.pending.delete(table);
          conn.pendingIds -= entry.ids.size;
          // The id tells a reconnecting client where to resume, so it must not pass a notice still waiting
          // here: the next entry began at `firstSeq`, so this message may only claim what came before it.
          const next = conn.pending.values().next().value;
          const upTo = next ? Math.min(entry.lastSeq, next.firstSeq - 1) : entry.lastSeq;
          await conn.stream.write(
            entry.firstSeq === upTo
              ? formatted(upTo, table, entry)
              : format('change', heardIdAt(conn, upTo), changeData(table, entry.ids, entry.version)),
          );
        } else if (conn.heartbeatDue) {
          conn.heartbeatDue = false;
          await conn.stream.write(': heartbeat\n\n');
        } else {
          break;
        }
      }
    } finally {
      conn.writing = false;
    }
  }

  return {
    serve(stream, client) {
      if (closing) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const conn: Connection = {
          stream,
          me: client.me,
          recheck: client.me ? client.recheck : undefined,
          rechecking: false,
          recheckAgain: false,
          recheckTimer: undefined,
          pending: new Map(),
          pendingIds: 0,
          resync: false,
          resyncSeq: undefined,
          retryDue: true,
          readyDue: position(client.me),
          readyId: undefined,
          heartbeatDue: false,
          writing: false,
          heartbeat: setInterval(() => {
            conn.heartbeatDue = true;
            void pump(conn);
          }, spread(heartbeatMs)),
          end() {
            clearInterval(conn.heartbeat);
            clearInterval(conn.recheckTimer);
            connections.delete(conn);
            resolve();
          },
        };
        stream.onAbort(() => conn.end());
        connections.add(conn);
        if (conn.recheck) {
          conn.recheckTimer = setInterval(() => checkHolder(conn), spread(recheckMs));
          if (recentAccess.has(conn.me!.id)) checkHolder(conn);
        }
        // Registered at its position and replayed in one synchronous step: no notice can fall between them.
        if (client.lastEventId) {
          const seq = seqById.get(client.lastEventId);
          if (seq === undefined) requestResync(conn, recent.at(-1)?.seq);
          else
            for (const { seq: s, event } of recent)
              if (s > seq && hears(conn.me, event.audience)) enqueue(conn, s, event);
        } else {
          // Not for a resuming stream: its replay may be cut short, and its ready must not move the browser's
          // resume point past what it has not been sent yet.
          conn.readyId = heardIdAt(conn, nextSeq - 1);
        }
        void pump(conn);
      });
    },
    async closeAll() {
      closing = true;
      await Promise.all([...connections].map(endStream));
    },
    openStreams: () => connections.size,
    position,
  };
}

/** A `change` event's data: `version` only when the change has one. */
function changeData(table: string, ids: Iterable<string>, version: number | undefined) {
  return version === undefined ? { table, ids: [...ids] } : { table, ids: [...ids], version };
}

/** One Server-Sent Event. JSON holds no line breaks, so `data` is one line. */
function format(event: string, id: string | undefined, data: unknown): string {
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** Whether two reads of a stream's holder allow the same: the same user, role and tutor categories. */
function sameAccess(before: Me | undefined, now: Me | undefined): boolean {
  if (!before || !now) return before === now;
  return (
    before.id === now.id &&
    before.role === now.role &&
    before.categories.length === now.categories.length &&
    before.categories.every((category) => now.categories.includes(category))
  );
}

/** Whether a client (a visitor when `me` is undefined) may hear a notice for `audience`. */
export function hears(me: Me | undefined, audience: Audience): boolean {
  if (audience === 'everyone') return true;
  if (!me) return false;
  return (
    (audience.userIds?.includes(me.id) ?? false) ||
    (audience.roles?.includes(me.role) ?? false) ||
    (me.role === 'tutor' && (audience.tutorCategories?.some((category) => me.categories.includes(category)) ?? false))
  );
}
