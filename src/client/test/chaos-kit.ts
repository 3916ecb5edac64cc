// Test support for app/offline-chaos.test.ts: what a browser gives the app (its network with a cookie jar, its
// localStorage, its IndexedDB, a page that reloads), for running the app's own engine and features in Node against
// the real server. Nothing of the app is replaced: these are the browser's parts.
// Before Dexie is imported: it takes IndexedDB from the global scope when it loads. The database outlives every
// "page" (module graph), as a browser's does.
import 'fake-indexeddb/auto';
import { vi } from 'vitest';
import type { Me } from '../../common/session.ts';

const realFetch = globalThis.fetch.bind(globalThis);

/** What a browser's fetch rejects with when the network is gone or the request is dropped: a TypeError. */
const networkError = () => new TypeError('Failed to fetch');

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/** One request the server may have received, from the browser's side. */
export interface WriteStarted {
  method: string;
  path: string;
}

/**
 * A browser for one origin: a cookie jar, the `Origin` header a browser sends with every write (the server
 * refuses cookie-carrying writes without it), relative URLs resolved against the origin, and a network that can go
 * away. Going offline fails every new request as a browser does (TypeError, which the app's fetch reads as "offline")
 * and drops the ones in flight: the server may have done what they asked, and its answer is lost.
 */
export function createBrowser(origin: string) {
  const cookies = new Map<string, string>();
  let online = true;
  /** Requests in flight, each with the controller that drops it. */
  const inFlight = new Map<AbortController, { write: boolean; tab: number }>();
  const writeWaiters = new Set<(write: WriteStarted) => void>();
  /** Run once the answer to a write has arrived (the server did the work), before the page would get it. */
  const answerWaiters = new Set<(write: WriteStarted) => Promise<void>>();
  let answersToLose = 0;
  /** Ids whose next write (its URL or its body names them) loses its answer. */
  const losesAnswer = new Set<string>();
  let lostAnswers = 0;
  let tabs = 0;

  /** The fetch of one tab (page): closing it, as a reload does, drops its requests in flight. */
  function openTab() {
    const tab = (tabs += 1);
    let closed = false;
    async function tabFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
      if (input instanceof Request) throw new Error('The app passes URLs to fetch; a Request is not handled here.');
      if (closed || !online) throw networkError();
      const url = new URL(input instanceof URL ? input.href : input, origin);
      if (url.origin !== origin) throw new Error(`Only ${origin} is reachable from this page, not ${url.origin}.`);
      const method = (init.method ?? 'GET').toUpperCase();
      const write = method !== 'GET' && method !== 'HEAD';
      const headers = new Headers(init.headers);
      if (write) headers.set('origin', origin);
      if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      const drop = new AbortController();
      inFlight.set(drop, { write, tab });
      const started: WriteStarted = { method, path: url.pathname };
      const sent = typeof init.body === 'string' ? init.body : '';
      if (write) for (const waiter of [...writeWaiters]) waiter(started);
      try {
        const signal = init.signal ? AbortSignal.any([init.signal, drop.signal]) : drop.signal;
        const response = await realFetch(url, { ...init, headers, signal });
        for (const line of response.headers.getSetCookie()) storeCookie(cookies, line);
        // The whole answer arrives here, or none of it: a drop while its body was on its way loses it.
        const body = nullBodyStatuses.has(response.status) ? null : await response.arrayBuffer();
        // An answer lost on its way back (a connection reset, a mobile network dropping out): the page sees a
        // network error for work the server has done.
        const hook: ((write: WriteStarted) => Promise<void>) | undefined = write
          ? answerWaiters.values().next().value
          : undefined;
        const named = write ? [...losesAnswer].find((id) => url.pathname.includes(id) || sent.includes(id)) : undefined;
        if (hook || named !== undefined || (write && answersToLose > 0)) {
          if (hook) {
            answerWaiters.delete(hook);
            await hook(started);
          } else if (named !== undefined) losesAnswer.delete(named);
          else answersToLose -= 1;
          lostAnswers += 1;
          throw networkError();
        }
        return new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (error) {
        // The page's own cancel (or its timeout) stays what it is; anything else is the network failing.
        if (init.signal?.aborted) throw init.signal.reason;
        throw error instanceof TypeError ? error : networkError();
      } finally {
        inFlight.delete(drop);
      }
    }
    /**
     * The tab's EventSource, as the HTML spec has it (https://html.spec.whatwg.org/multipage/server-sent-events.html):
     * the cookie jar, `Last-Event-ID` when it reconnects, the server's `retry:` as the wait, a lost connection (the
     * network gone, the server killed) reconnecting, and an answer that is no event stream closing it for good.
     */
    class TabEventSource extends EventTarget {
      static readonly CONNECTING = 0;
      static readonly OPEN = 1;
      static readonly CLOSED = 2;
      readonly url: string;
      readonly withCredentials = false;
      readyState = TabEventSource.CONNECTING;
      private lastEventId = '';
      private retryMs = 3000;
      private connection?: AbortController;
      private timer?: ReturnType<typeof setTimeout>;

      constructor(url: string | URL) {
        super();
        this.url = new URL(url, origin).href;
        setTimeout(() => void this.connect(), 0);
      }

      close(): void {
        this.readyState = TabEventSource.CLOSED;
        clearTimeout(this.timer);
        this.connection?.abort();
      }

      private async connect(): Promise<void> {
        if (this.readyState === TabEventSource.CLOSED) return;
        if (closed || !online) return this.reconnect();
        const connection = (this.connection = new AbortController());
        inFlight.set(connection, { write: false, tab });
        try {
          const headers = new Headers({ accept: 'text/event-stream', 'cache-control': 'no-cache' });
          if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
          if (this.lastEventId) headers.set('last-event-id', this.lastEventId);
          const response = await realFetch(this.url, { headers, signal: connection.signal });
          for (const line of response.headers.getSetCookie()) storeCookie(cookies, line);
          if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
            await response.body?.cancel();
            this.readyState = TabEventSource.CLOSED;
            this.dispatchEvent(new Event('error'));
            return;
          }
          this.readyState = TabEventSource.OPEN;
          this.dispatchEvent(new Event('open'));
          await this.read(response.body!);
        } catch {
          // A lost connection: reconnected below.
        } finally {
          inFlight.delete(connection);
        }
        this.reconnect();
      }

      private reconnect(): void {
        if (this.readyState === TabEventSource.CLOSED) return;
        this.readyState = TabEventSource.CONNECTING;
        this.dispatchEvent(new Event('error'));
        this.timer = setTimeout(() => void this.connect(), this.retryMs);
      }

      private async read(body: ReadableStream<Uint8Array>): Promise<void> {
        const decoder = new TextDecoder();
        let buffer = '';
        let data = '';
        let type = '';
        const reader = body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          buffer += decoder.decode(chunk.value, { stream: true });
          let end: number;
          while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
            const line = buffer.slice(0, end);
            buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
            if (line === '') {
              if (data !== '' && this.readyState !== TabEventSource.CLOSED) {
                const init = { data: data.slice(0, -1), lastEventId: this.lastEventId, origin };
                this.dispatchEvent(new MessageEvent(type || 'message', init));
              }
              [data, type] = ['', ''];
              continue;
            }
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') data += `${value}\n`;
            else if (field === 'event') type = value;
            else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
            else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
          }
        }
      }
    }

    return {
      fetch: tabFetch as typeof fetch,
      EventSource: TabEventSource as unknown as typeof EventSource,
      close() {
        closed = true;
        for (const [drop, request] of inFlight) if (request.tab === tab) drop.abort(networkError());
      },
    };
  }

  return {
    origin,
    cookies,
    openTab,
    isOnline: () => online,
    setOnline(value: boolean) {
      online = value;
      if (!online) for (const drop of inFlight.keys()) drop.abort(networkError());
    },
    /** The answers to the next `count` writes are lost on their way back. */
    loseAnswers(count: number) {
      answersToLose += count;
    },
    /** The answer to the next write that names `id` (in its URL or its body) is lost on its way back. */
    loseAnswerTo(id: string) {
      losesAnswer.add(id);
    },
    lostAnswers: () => lostAnswers,
    /**
     * Runs `then` once the answer to the next write has arrived, and loses that answer: `then` can kill the server
     * after it committed, before the page heard. Returns the cancel.
     */
    onNextAnswer(then: (write: WriteStarted) => Promise<void>): () => void {
      answerWaiters.add(then);
      return () => void answerWaiters.delete(then);
    },
    /** Calls `then` as the next write request starts (its request is on its way); returns the cancel. */
    onNextWrite(then: (write: WriteStarted) => void): () => void {
      const once = (write: WriteStarted) => {
        writeWaiters.delete(once);
        then(write);
      };
      writeWaiters.add(once);
      return () => void writeWaiters.delete(once);
    },
  };
}

export type Browser = ReturnType<typeof createBrowser>;

function storeCookie(jar: Map<string, string>, line: string) {
  const [pair = '', ...attributes] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq < 1) return;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  const expired = attributes.some((a) => {
    const [k = '', v = ''] = a.split('=').map((s) => s.trim());
    if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
    if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
    return false;
  });
  if (expired || value === '') jar.delete(name);
  else jar.set(name, value);
}

/** The browser's localStorage (Node 24 has none without a flag): kept across reloads, like IndexedDB. */
/** A Web Storage stand-in over a map (Node has none without flags). */
function storageOver(map: Map<string, string>): Storage {
  return {
    get length() {
      return map.size;
    },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
  };
}

/** The browser's localStorage, and the tab's sessionStorage (the log-in flag, offline/device-mark.ts). */
export function installLocalStorage(): Map<string, string> {
  const map = new Map<string, string>();
  vi.stubGlobal('localStorage', storageOver(map));
  vi.stubGlobal('sessionStorage', storageOver(new Map()));
  return map;
}

/** Deletes the app's database between runs (every connection to it closed first). */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`${name} was not deleted`));
  });
}

/** What the pages' live streams heard: change notices, and resyncs. */
export interface LiveHeard {
  changes: number;
  resyncs: number;
}

/**
 * One page of the app: a fresh module graph (what loading or reloading the page gives), with the app's own
 * composition (app/offline-setup.ts: every feature's tables, sources and mutations, then the engine over the app's
 * database), its session logic and its live stream (`live: false` leaves the stream out, as if it were between
 * reconnects). The page's fetch and EventSource are the browser's, through this tab.
 */
export async function openPage(
  browser: Browser,
  { heard = { changes: 0, resyncs: 0 }, live = true }: { heard?: LiveHeard; live?: boolean } = {},
) {
  vi.resetModules();
  const tab = browser.openTab();
  vi.stubGlobal('fetch', tab.fetch);
  vi.stubGlobal('EventSource', tab.EventSource);
  // The page's window, for the events the engine and the live stream listen to (`online`, `focus`).
  const window = new EventTarget();
  vi.stubGlobal('window', window);
  const { sessionStore } = await import('../app/offline-setup.ts');
  const engine = await import('../offline/engine.ts');
  const qa = await import('../features/qa/qa.sync.ts');
  const bookings = await import('../features/bookings/bookings.sync.ts');
  const bookingRules = await import('../features/bookings/booking-rules.ts');
  const catalogue = await import('../features/catalogue/catalogue.sync.ts');
  const { authApi } = await import('../features/auth/auth-api.ts');
  const { apiFetch, readJson } = await import('../lib/api.ts');
  const { localDb } = await import('../offline/db.ts');
  const { loggingInKey } = await import('../lib/device-mark.ts');
  const { startLiveEvents } = await import('../offline/live-events.ts');
  await sessionStore;
  const { identity } = engine.engine;
  // As app/offline-setup.ts does in a browser (it skips it where there is no document, as here).
  await identity.restore();
  let stopLive: (() => void) | undefined;
  const me = (): Me | undefined => {
    const current = identity.current();
    return current.state === 'signed-in' || current.state === 'ended' ? current.me : undefined;
  };

  /**
   * app/data-sync.tsx once the session is known: the engine runs (for whom the identity names), and the live
   * stream with it. A signed-in tab fetches what a notice names only if it holds the stream (`fetchesHere`); here
   * it is the only tab.
   */
  function startEngineAndStream() {
    engine.startEngine();
    if (!live) return;
    stopLive ??= startLiveEvents({
      connectivity: engine.engine.connectivity,
      onChange: (table, ids, leading, version) => {
        heard.changes += 1;
        if (leading) void engine.refreshSources(table, { ids, version });
      },
      onResync: (leading) => {
        heard.resyncs += 1;
        if (leading) void engine.reconnected();
      },
    });
  }

  /** lib/session.tsx `refresh`: asks the server who is signed in; offline (or the server down) keeps what it knew. */
  async function refreshSession(): Promise<Me | undefined> {
    let user: Me | null;
    try {
      ({ user } = (await readJson(await apiFetch('/api/session'))) as { user: Me | null });
    } catch {
      await identity.settle();
      return me();
    }
    if (user) await identity.named(user);
    else await identity.nobody();
    return user ?? undefined;
  }

  const page = {
    tab,
    engine,
    qa,
    bookings,
    bookingRules,
    catalogue,
    localDb,
    me,

    /**
     * As the page starts: app/offline-setup.ts has restored whose data this is (from the device's record), the
     * session asks the server, and app/data-sync.tsx starts the engine.
     */
    async start(): Promise<void> {
      if (me()) startEngineAndStream();
      await refreshSession();
      if (me()) startEngineAndStream();
    },

    /** The login form: better-auth's sign-in over HTTP (the cookie goes to the jar), then the session names the user. */
    async logIn(email: string, password: string): Promise<Me> {
      sessionStorage.setItem(loggingInKey, '1');
      await authApi.signIn({ email, password });
      const user = await refreshSession();
      if (!user) throw new Error('Logged in, but the server names nobody.');
      startEngineAndStream();
      return user;
    },

    /**
     * The browser's `online` event: the engine's listener (backoff reset, sources refreshed, queue sent), the live
     * stream's (catch up, reopen a stream that gave up), and the session's (ask the server again: lib/session.tsx).
     */
    async backOnline(): Promise<void> {
      window.dispatchEvent(new Event('online'));
      await refreshSession();
    },

    /** The page goes away (a reload, a closed tab): its engine and requests stop, its database connection closes. */
    close(): void {
      stopLive?.();
      engine.stopEngine();
      identity.close();
      localDb.close();
      tab.close();
    },
  };
  return page;
}

export type Page = Awaited<ReturnType<typeof openPage>>;

/** A small seeded PRNG (mulberry32): the same seed, the same sequence of choices. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    /** A whole number from `min` to `max`, both included. */
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('Nothing to pick from.');
      return items[int(0, items.length - 1)]!;
    },
    /** A version 4 UUID made of the seed's numbers, so a rerun of the seed sends the same ids. */
    uuid(): string {
      const hex = Array.from({ length: 32 }, () => int(0, 15).toString(16));
      hex[12] = '4';
      hex[16] = (8 + int(0, 3)).toString(16);
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
  };
}

export type Random = ReturnType<typeof createRandom>;

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
