/**
 * Whether background requests (synced lists, the outbox, the event stream) may use the network: one state for
 * all of them, so that a phone without data pays for one failed request per window, not one per list.
 *
 *   online ──── 2 requests in a row get no answer (a phone on a network without data) ───► unreachable
 *     ▲   ◄──── the browser says offline ─────────────────────────────────────────────────► offline
 *     └──────── a request is answered (any status: the server is there) ◄──── the probe ────┘
 *
 * Online, every request goes. Otherwise `admit` lets one request through per window (the probe: whichever
 * background request asks first, so it does useful work), 30 s at first, doubling to 4 min while probes fail
 * (the browser saying it is offline starts a window: it has just said so, so nothing is tried at once);
 * the others wait until `subscribe`rs are told the window opened or the server answered. The browser saying it
 * is back lets one request of each page go at once (`browserOnline`: every tab hears it, and another tab's probe
 * tells this one nothing), as does the user asking (`tryNow`). The window is kept in
 * `store` (localStorage), so starting the app again offline does not probe again before it ends.
 */
export type ConnectivityState = 'online' | 'offline' | 'unreachable';

export interface ConnectivityOptions {
  /** What the browser says: `navigator.onLine`. */
  browserOnline?: () => boolean;
  now?: () => number;
  /** Where the probe window outlives the page (localStorage); none keeps it in memory. */
  store?: Pick<Storage, 'getItem' | 'setItem'> | null;
  storeKey?: string;
}

export const firstWindowMs = 30_000;
export const maxWindowMs = 240_000;
/** Requests in a row without an answer before the server counts as unreachable (one may be a blip). */
export const failuresToQuiet = 2;

interface ProbeWindow {
  /** When the last probe went. */
  at: number;
  /** Probes in a row that got no answer: the window after the last is 30 s, doubled for each before it. */
  failed: number;
}

const windowAfter = (failed: number) => Math.min(firstWindowMs * 2 ** Math.max(0, failed - 1), maxWindowMs);

export function createConnectivity({
  browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false,
  now = () => Date.now(),
  store = null,
  storeKey = 'tutorbook:probe',
}: ConnectivityOptions = {}) {
  /** The server answered the last request (or nothing says otherwise yet): requests go freely. */
  let reachable = true;
  /** What the browser said when last asked: its word counts when it changes, and evidence counts after it. */
  let browserWord = browserOnline();
  let failures = 0;
  let lastFailureAt = -Infinity;
  let window = readWindow();
  /**
   * The browser said it is back and this page has not probed since: its next request goes at once, whatever
   * window another tab has just started (each tab hears the browser, and each must learn for itself).
   */
  let probeOnReturn = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const watchers = new Set<(state: ConnectivityState) => void>();
  let told: ConnectivityState | undefined;

  function readWindow(): ProbeWindow {
    try {
      const kept = JSON.parse(store?.getItem(storeKey) ?? 'null') as Partial<ProbeWindow> | null;
      if (typeof kept?.at === 'number' && typeof kept.failed === 'number' && kept.at <= now())
        return { at: kept.at, failed: Math.min(Math.max(0, kept.failed), 10) };
    } catch {
      // Unreadable or unavailable (a private window): the window starts afresh.
    }
    return { at: -Infinity, failed: 0 };
  }

  function keepWindow() {
    try {
      store?.setItem(storeKey, JSON.stringify(window));
    } catch {
      // Storage full or refused: the window lasts as long as the page.
    }
  }

  const tell = () => {
    for (const listener of [...listeners]) listener();
    changed();
  };

  /** The state's watchers hear of each change of it once. */
  const changed = () => {
    const now = state();
    if (now === told) return;
    told = now;
    for (const watcher of [...watchers]) watcher(now);
  };

  /** Wakes the waiting requests when the next probe may go. */
  function armTimer() {
    clearTimeout(timer);
    timer = undefined;
    if (reachable || listeners.size === 0) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        tell();
      },
      Math.max(0, nextProbeAt() - now()),
    );
    (timer as { unref?: () => void }).unref?.();
  }

  const nextProbeAt = () => window.at + windowAfter(window.failed);

  /**
   * The browser says it is offline (its event, or found so): nothing goes but the probes, the first a window
   * from now, as it has just said so; a window an earlier start of the app began goes on.
   */
  function goneOffline(): void {
    reachable = false;
    failures = 0;
    if (window.at === -Infinity) {
      window = { at: now(), failed: 0 };
      keepWindow();
    }
    armTimer();
    changed();
  }

  /**
   * Whether requests go freely. The browser's word counts when it changes, even without its event: the event may
   * have come before this page listened (a page that started offline and loads its engine as the connection
   * returns), and waiting for the next window would keep the user's queue back for half a minute. A request
   * answered after that counts more (the browser was wrong).
   */
  const isReachable = () => {
    const word = browserOnline();
    if (word !== browserWord) {
      browserWord = word;
      if (!word && reachable) goneOffline();
      else if (word && !reachable) probeOnReturn = true;
    }
    return reachable;
  };

  const state = (): ConnectivityState => (isReachable() ? 'online' : browserOnline() ? 'unreachable' : 'offline');

  if (!browserWord) goneOffline();

  return {
    state,
    nextProbeAt,
    /** Whether a background request may go now; offline or unreachable, true once per window. */
    admit(): boolean {
      if (isReachable()) return true;
      if (probeOnReturn) {
        probeOnReturn = false;
        window = { at: now(), failed: window.failed };
        keepWindow();
        return true;
      }
      // Another tab may have probed meanwhile: one probe per window for the whole browser.
      const kept = readWindow();
      if (kept.at > window.at) window = kept;
      const time = now();
      if (time < nextProbeAt()) return false;
      window = { at: time, failed: window.failed };
      keepWindow();
      return true;
    },
    /** The server answered a request (whatever it said). */
    succeeded(): void {
      failures = 0;
      probeOnReturn = false;
      if (reachable) return;
      reachable = true;
      window = { at: -Infinity, failed: 0 };
      keepWindow();
      armTimer();
      tell();
    },
    /** A request got no answer (a network error, a timeout); `startedAt`: when it left, if known. */
    failed(startedAt?: number): void {
      // Requests already on their way when the last failure came fail with it: one event, not evidence twice.
      if (startedAt !== undefined && startedAt < lastFailureAt) return;
      lastFailureAt = now();
      failures += 1;
      if (reachable) {
        if (failures < failuresToQuiet) return;
        reachable = false;
        window = { at: now(), failed: 1 };
      } else window = { at: window.at, failed: window.failed + 1 };
      keepWindow();
      armTimer();
      changed();
    },
    /** The browser says the connection is back: one probe at once. */
    browserOnline(): void {
      browserWord = true;
      window = { at: -Infinity, failed: 0 };
      keepWindow();
      if (reachable) return;
      probeOnReturn = true;
      tell();
    },
    /** The browser says it is offline: nothing goes but the probes. */
    browserOffline(): void {
      browserWord = false;
      if (reachable) goneOffline();
    },
    /** The user asked to try now ("Try now"): the next background request goes, whatever the window says. */
    tryNow(): void {
      if (reachable) return tell();
      window = { at: -Infinity, failed: window.failed };
      tell();
    },
    /** `watcher` hears each change of the state (for the page: "Offline", "Can't reach the server"). */
    watch(watcher: (state: ConnectivityState) => void): () => void {
      told ??= state();
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
    /** `listener` runs whenever requests may go again: the server answered, or a probe may go. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      armTimer();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) armTimer();
      };
    },
  };
}

export type Connectivity = ReturnType<typeof createConnectivity>;
