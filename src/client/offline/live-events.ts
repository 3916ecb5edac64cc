import { takePageReads } from '../lib/api.ts';
import { backoffMs } from '../lib/connection-loop.ts';
import type { Connectivity } from '../lib/connectivity.ts';

/**
 * Live change notices from the server's event stream (`/api/events`), one stream per browser: browsers allow
 * six HTTP/1.1 connections per host across all tabs, so a stream per tab would hang the seventh. The tab that
 * holds the Web Lock `tutorbook:live` opens the stream and passes what it hears to the other tabs over a
 * BroadcastChannel; when it closes, a waiting tab gets the lock and opens its own.
 */

export interface LiveEventsOptions {
  url?: string;
  /**
   * Rows of `table` changed (or were deleted): refetch them. Runs in every tab; `leading` is true in the tab
   * that holds the stream, so that tabs sharing one database can leave the fetching to it.
   */
  onChange(table: string, ids: readonly string[], leading: boolean, version?: number): void;
  /** Notices may have been missed: refetch everything the tab relies on. Runs in every tab, as `onChange`. */
  onResync(leading: boolean): void;
  /**
   * Whether the server can be reached (the engine's, lib/connectivity.ts): the stream is open only while it says
   * `online`, and tells it how its connections go. Without one, the stream behaves as if always online.
   */
  connectivity?: Pick<Connectivity, 'state' | 'watch' | 'succeeded' | 'failed'>;
}

/**
 * What the leading tab passes on: a notice, with the stream's event id and the version its change committed at
 * (when the server says), or "notices may have been missed".
 */
export type LiveMessage =
  { type: 'change'; id: string; table: string; ids: string[]; version?: number } | { type: 'resync' };

const lockName = 'tutorbook:live';
const channelName = 'tutorbook:live';
/**
 * This tab's last `takeTheLead`, settled once its lock is released. A restart here (the user changed) waits
 * for it, so the tab keeps the lead instead of queueing behind itself.
 */
let previousLead: Promise<void> = Promise.resolve();
const maxRetryMs = 30_000;

/** A `change` event's data as a message; undefined when it is not a notice (nothing to refetch). */
export function parseChange(id: string, data: string): LiveMessage | undefined {
  let notice: unknown;
  try {
    notice = JSON.parse(data);
  } catch {
    return undefined;
  }
  const { table, ids, version } = (notice ?? {}) as { table?: unknown; ids?: unknown; version?: unknown };
  if (typeof table !== 'string' || !Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return undefined;
  return { type: 'change', id, table, ids, ...(Number.isSafeInteger(version) ? { version: version as number } : {}) };
}

/** The position a `ready` event carries; undefined when it carries none. */
export function parsePosition(data: string): string | undefined {
  try {
    const { position } = (JSON.parse(data) ?? {}) as { position?: unknown };
    return typeof position === 'string' ? position : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether any read began somewhere other than `position`, the position a stream opened at: a change came
 * between them, which no stream of ours told. Reads without a position (no answer, not our API) stored nothing.
 * A read of public data carries a visitor's position, the start of a signed-in stream's (up to a `.`): it
 * missed nothing when that start matches, whatever the user's own notices did.
 */
export async function readBefore(reads: readonly Promise<string | null>[], position: string): Promise<boolean> {
  return (await Promise.all(reads)).some((at) => at !== null && at !== position && !position.startsWith(`${at}.`));
}

/**
 * Hands each message to the callbacks once. A notice can arrive twice: a stream that reconnects with
 * Last-Event-ID may be sent again what it had heard, and a tab that has just taken the lead may hear on its
 * own stream what the previous lead passed on. Notices without an id are always handed on.
 */
export function createDelivery(
  options: Pick<LiveEventsOptions, 'onChange' | 'onResync'>,
  remember = 200,
): (message: LiveMessage, leading: boolean) => void {
  const seen: string[] = [];
  return (message, leading) => {
    if (message.type === 'resync') return options.onResync(leading);
    if (message.id) {
      if (seen.includes(message.id)) return;
      seen.push(message.id);
      if (seen.length > remember) seen.shift();
    }
    options.onChange(message.table, message.ids, leading, message.version);
  };
}

/**
 * Starts listening in this tab; returns `stop`, which closes the stream, gives up the lock (another tab then
 * takes the lead) and stops the callbacks. The app stops and starts it again when the signed-in user changes,
 * so the new stream carries the new cookie.
 */
export function startLiveEvents({
  url = '/api/events',
  onChange,
  onResync,
  connectivity,
}: LiveEventsOptions): () => void {
  const deliver = createDelivery({ onChange, onResync });
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = (event: MessageEvent<LiveMessage>) => deliver(event.data, false);
  const stopping = new AbortController();
  let stream: EventSource | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  /** Streams in a row that closed for good before they opened: the wait before the next grows with them. */
  let closedEarly = 0;
  let unwatch: (() => void) | undefined;

  /** Heard on this tab's stream: for every tab, this one included. */
  const share = (message: LiveMessage) => {
    channel.postMessage(message);
    deliver(message, true);
  };

  /**
   * Opens this tab's stream. Once the server has it (`ready`, with its position), every tab catches up: notices
   * sent before were heard by no stream of ours. The page's first stream spares that when every read the page
   * made began at the stream's own position, as on a page load where nothing changed meanwhile; a read from
   * before a change (a question asked while the page loaded) makes it catch up too.
   */
  const open = (firstOfPage: boolean) => {
    // Offline or unanswered, the browser would retry a stream every few seconds, each try failing: it opens
    // once the engine's requests get answers again (the probe, or the connection's return).
    if (connectivity && connectivity.state() !== 'online') return openWhenOnline(firstOfPage);
    const source = new EventSource(url);
    stream = source;
    /** When this connection (or the browser's latest retry of it) left. */
    let startedAt = Date.now();
    let caughtUp = false;
    /**
     * An event of this stream carried an id, which the browser sends back as Last-Event-ID when it reconnects
     * (each event reports the browser's last id in `lastEventId`).
     */
    let resumable = false;
    /** The position the stream's last `ready` gave: where what its holder hears stood then. */
    let readyAt: string | undefined;
    /** This connection of the stream opened: the server answered. */
    let opened = false;
    source.addEventListener('open', () => {
      opened = true;
      closedEarly = 0;
      connectivity?.succeeded();
    });
    source.addEventListener('ready', (event) => {
      const { lastEventId } = event as MessageEvent;
      const position = parsePosition(event.data as string);
      // Later reconnects are the browser's own, with Last-Event-ID: the server sends what was missed. Without
      // one (nothing this stream heard had an id), notices sent while it was away reached nobody, unless none
      // was sent: then the position is still the one the stream had. Firebase Hosting ends every stream after
      // 60 s (docs/decisions/0038), so a quiet site would otherwise refetch everything each minute.
      if (caughtUp) {
        if (!resumable && (position === undefined || position !== readyAt)) share({ type: 'resync' });
        resumable ||= lastEventId !== '';
        readyAt = position;
        return;
      }
      caughtUp = true;
      resumable = lastEventId !== '';
      readyAt = position;
      const reads = firstOfPage ? takePageReads() : undefined;
      if (!reads || position === undefined) return share({ type: 'resync' });
      void readBefore(reads, position).then((missed) => {
        if (missed && !stopping.signal.aborted) share({ type: 'resync' });
      });
    });
    source.addEventListener('change', (event) => {
      resumable ||= event.lastEventId !== '';
      const message = parseChange(event.lastEventId, event.data as string);
      if (message) share(message);
    });
    source.addEventListener('resync', (event) => {
      resumable ||= event.lastEventId !== '';
      share({ type: 'resync' });
    });
    // The browser retries a dropped connection by itself; an answer it will not retry (a 5xx, say) closes
    // the stream for good, so reopen it after a while, doubling up to a cap, spread so clients do not return
    // all at once after a restart.
    source.addEventListener('error', () => {
      if (stopping.signal.aborted) return;
      // A connection that never opened got no answer; one that ended after opening (Hosting ends each after
      // 60 s) says nothing about the network, and the browser reconnects.
      if (!opened) connectivity?.failed(startedAt);
      opened = false;
      startedAt = Date.now();
      if (connectivity && connectivity.state() !== 'online') {
        source.close();
        stream = undefined;
        return openWhenOnline(false);
      }
      if (source.readyState !== EventSource.CLOSED) return;
      closedEarly += 1;
      reopenTimer = setTimeout(() => open(false), backoffMs(closedEarly, { max: maxRetryMs }));
    });
  };

  /** Opens the stream once the connectivity says the server answers again. */
  const openWhenOnline = (firstOfPage: boolean) => {
    stream = undefined;
    unwatch ??= connectivity?.watch((state) => {
      if (state !== 'online' || stopping.signal.aborted) return;
      unwatch?.();
      unwatch = undefined;
      clearTimeout(reopenTimer);
      open(firstOfPage);
    });
  };

  /** Holds the lock, and with it the stream, until `stop`; false when the lock was not to be had. */
  const lead = (firstOfPage: boolean) => async (lock: Lock | null) => {
    if (!lock || stopping.signal.aborted) return false;
    open(firstOfPage);
    await new Promise((resolve) => stopping.signal.addEventListener('abort', resolve));
    return true;
  };

  /** Take the lead if no tab has it; otherwise wait for it, and catch up when it comes. */
  const takeTheLead = async () => {
    try {
      const led = await navigator.locks.request(lockName, { ifAvailable: true }, lead(true));
      // The leading tab's stream hears what changes after this page's reads. (Should it be still opening, it
      // compares only its own page's reads: two tabs loading at once can miss a change until the next focus.)
      if (!led) {
        void takePageReads();
        await navigator.locks.request(lockName, { signal: stopping.signal }, lead(false));
      }
    } catch (error) {
      // `stop` while waiting cancels the request: that is no failure.
      if (!stopping.signal.aborted) throw error;
    }
  };

  // Web Locks exist only in secure contexts (https, localhost): a page served otherwise streams by itself.
  if (typeof navigator.locks === 'undefined') open(true);
  else {
    // Runs until `stop`; anything unexpected surfaces as an unhandled rejection.
    previousLead = previousLead.catch(() => undefined).then(takeTheLead);
    void previousLead;
  }

  return () => {
    stopping.abort();
    clearTimeout(reopenTimer);
    unwatch?.();
    stream?.close();
    channel.close();
  };
}
