import { randomUUID } from 'node:crypto';
import type { SSEStreamingApi } from 'hono/streaming';
import type { Me } from '../../common/session.ts';
import type { Audience, EventBus, LiveEvent } from './events.ts';

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
}

export interface StreamHub {
  /** Serves one stream until the client goes away or `closeAll` ends it. `lastEventId` is the header a reconnecting browser sends. */
  serve(stream: SSEStreamingApi, client: { me: Me | undefined; lastEventId: string | undefined }): Promise<void>;
  /** Ends every open stream (shutdown); streams opened afterwards end at once. */
  closeAll(): Promise<void>;
  /** Streams open now. */
  openStreams(): number;
  /**
   * Where the notices stand now, as an opaque text: it changes with every notice (and every gap, when notices
   * were lost). A read answered at the position a stream later opens at missed nothing that stream will not
   * tell (the `Live-Position` header, the `ready` event: docs/api.md).
   */
  position(): string;
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
  /** By table, in the order of each entry's first notice (a Map keeps insertion order). */
  pending: Map<string, Pending>;
  pendingIds: number;
  /** A resync is due; `resyncSeq` is the newest event it covers, when that event is known. */
  resync: boolean;
  resyncSeq: number | undefined;
  retryDue: boolean;
  /** The position the stream opened at, until the `ready` event that tells it is written. */
  readyDue: string | undefined;
  heartbeatDue: boolean;
  writing: boolean;
  heartbeat: NodeJS.Timeout;
  end(): void;
}

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

  const connections = new Set<Connection>();
  // The hub numbers events itself (seq), so that it can order and compare them; the bus's ids are opaque.
  const recent: { seq: number; event: LiveEvent; text?: string }[] = [];
  const seqById = new Map<string, number>();
  let nextSeq = 1;
  /** Gaps in the bus (notices lost): a position from before one must not match one after. */
  let gaps = 0;
  /** Two processes' positions never match: their numbering is their own. */
  const instance = randomUUID().slice(0, 8);
  const position = () => `${instance}.${gaps}.${nextSeq - 1}`;
  let closing = false;

  const idAt = (seq: number | undefined): string | undefined =>
    seq === undefined || recent.length === 0 ? undefined : recent[seq - recent[0]!.seq]?.event.id;

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
      for (const conn of connections) requestResync(conn, undefined);
      return;
    }
    const seq = nextSeq++;
    recent.push({ seq, event: message.event });
    seqById.set(message.event.id, seq);
    if (recent.length > bufferSize) seqById.delete(recent.shift()!.event.id);
    for (const conn of connections) {
      if (hears(conn.me, message.event.audience)) enqueue(conn, seq, message.event);
    }
  });

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
          await conn.stream.write(format('ready', undefined, { position: at }));
        } else if (conn.resync) {
          conn.resync = false;
          await conn.stream.write(format('resync', idAt(conn.resyncSeq), {}));
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
              : format('change', idAt(upTo), changeData(table, entry.ids, entry.version)),
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
          pending: new Map(),
          pendingIds: 0,
          resync: false,
          resyncSeq: undefined,
          retryDue: true,
          readyDue: position(),
          heartbeatDue: false,
          writing: false,
          heartbeat: setInterval(() => {
            conn.heartbeatDue = true;
            void pump(conn);
          }, heartbeatMs),
          end() {
            clearInterval(conn.heartbeat);
            connections.delete(conn);
            resolve();
          },
        };
        stream.onAbort(() => conn.end());
        connections.add(conn);
        // Registered at its position and replayed in one synchronous step: no notice can fall between them.
        if (client.lastEventId) {
          const seq = seqById.get(client.lastEventId);
          if (seq === undefined) requestResync(conn, recent.at(-1)?.seq);
          else
            for (const { seq: s, event } of recent)
              if (s > seq && hears(conn.me, event.audience)) enqueue(conn, s, event);
        }
        void pump(conn);
      });
    },
    async closeAll() {
      closing = true;
      const ending = [...connections].map((conn) => {
        conn.end();
        // A client that is not reading would keep a clean close waiting for its last write.
        if (conn.writing) return conn.stream.abort();
        return conn.stream.close();
      });
      await Promise.all(ending);
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
