/**
 * One job that talks to the server, run one at a time: the outbox's sending, one synced list's refresh, the
 * event stream. After the shape of Replicache's ConnectionLoop (rocicorp/mono, connection-loop.ts):
 *
 *   const loop = createLoop({ connectivity, run: async (signal) => ({ value: await pull(signal), next: { after: 'idle' } }) });
 *   await loop.kick(); // a run that starts after this call; kicks during a run share one more run after it
 *
 * - A run says what comes after it (`next`): nothing until the next kick (`idle`), another run at a time
 *   (`at`: a queued item's next try), one after a backoff (`backoff`: 1 s doubling to 60 s, spread by jitter so
 *   that clients do not all return at once, reset by a run that does not fail), or one when the network may be
 *   used again (`network`: the connectivity's window opened or the server answered, lib/connectivity.ts).
 * - A kick always runs now: only what the loop schedules by itself waits.
 * - `watchdogMs`: an idle loop kicks itself that often, so that a lost timer or a missed event never leaves work
 *   waiting for good (OFFLINE-ENGINE.md, "silent stalls"). `runTimeoutMs`: a run that has not settled by then is
 *   aborted through its signal and counts as failed, so one hung promise cannot stop the loop.
 * - A run that throws counts as failed (`backoff`) and the kick's promise rejects with its error.
 */
import type { Connectivity } from './connectivity.ts';

export type Next = { after: 'idle' } | { after: 'at'; at: number } | { after: 'backoff' } | { after: 'network' };

export interface RunOutcome<R> {
  value: R;
  next: Next;
}

export interface LoopOptions<R> {
  run(signal: AbortSignal): Promise<RunOutcome<R>>;
  connectivity?: Pick<Connectivity, 'subscribe'>;
  firstDelayMs?: number;
  maxDelayMs?: number;
  watchdogMs?: number | null;
  runTimeoutMs?: number | null;
  random?: () => number;
  now?: () => number;
}

export const firstDelayMs = 1_000;
export const maxDelayMs = 60_000;

/** The wait before try number `attempts` + 1 after `attempts` failures: doubling from `first` to `max`, then spread over its upper half. */
export function backoffMs(
  attempts: number,
  {
    first = firstDelayMs,
    max = maxDelayMs,
    random = Math.random,
  }: { first?: number; max?: number; random?: () => number } = {},
): number {
  const full = Math.min(first * 2 ** Math.max(0, attempts - 1), max);
  return Math.round(full * (0.5 + random() / 2));
}

class RunTimeout extends Error {
  constructor() {
    super('The run took too long and was abandoned.');
    this.name = 'RunTimeout';
  }
}

export function createLoop<R>(options: LoopOptions<R>) {
  const {
    connectivity,
    watchdogMs = null,
    runTimeoutMs = null,
    random = Math.random,
    now = () => Date.now(),
  } = options;
  const backoff = { first: options.firstDelayMs ?? firstDelayMs, max: options.maxDelayMs ?? maxDelayMs, random };
  let running: Promise<R> | null = null;
  let next: Promise<R> | null = null;
  let failures = 0;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let unsubscribe: (() => void) | undefined;
  let current: AbortController | undefined;

  const clearSchedule = () => {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    unsubscribe?.();
    unsubscribe = undefined;
  };

  /** A run at `at`, unless one is already due sooner. */
  function at(time: number): void {
    if (closed || time >= timerAt) return;
    clearTimeout(timer);
    timerAt = time;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        void kick().catch(() => undefined);
      },
      Math.max(0, time - now()),
    );
  }

  function whenNetwork(): void {
    if (closed || unsubscribe || !connectivity) return;
    unsubscribe = connectivity.subscribe(() => {
      unsubscribe?.();
      unsubscribe = undefined;
      void kick().catch(() => undefined);
    });
  }

  function schedule(after: Next): void {
    if (closed) return;
    switch (after.after) {
      case 'idle':
        failures = 0;
        if (watchdogMs !== null) at(now() + watchdogMs);
        return;
      case 'at':
        failures = 0;
        return at(after.at);
      case 'backoff':
        failures += 1;
        return at(now() + backoffMs(failures, backoff));
      case 'network':
        // No connectivity to wait for (a test, say): a slow retry instead.
        if (!connectivity) return at(now() + backoff.max);
        return whenNetwork();
    }
  }

  async function once(): Promise<R> {
    clearSchedule();
    const controller = new AbortController();
    current = controller;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const abandoned =
      runTimeoutMs === null
        ? null
        : new Promise<never>((_, reject) => {
            watchdog = setTimeout(() => {
              controller.abort(new RunTimeout());
              reject(new RunTimeout());
            }, runTimeoutMs);
          });
    try {
      const run = options.run(controller.signal);
      const outcome = await (abandoned ? Promise.race([run, abandoned]) : run);
      schedule(outcome.next);
      return outcome.value;
    } catch (error) {
      schedule({ after: 'backoff' });
      throw error;
    } finally {
      clearTimeout(watchdog);
      if (current === controller) current = undefined;
    }
  }

  /** A run that starts after this call: now if none is under way, or the one after it (shared by every such call). */
  function kick(): Promise<R> {
    if (closed) return Promise.reject(new Error('The loop is closed.'));
    if (!running) {
      const run: Promise<R> = once().finally(() => {
        if (running === run) running = null;
      });
      running = run;
      return run;
    }
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return kick();
      });
    return next;
  }

  return {
    kick,
    at,
    /** The run under way, if one is. */
    running: (): Promise<R> | null => running,
    /** Failed runs in a row (a run that does not fail resets it). */
    failures: () => failures,
    /** Forgets what was scheduled (a timer, a wait for the network); kicks still run. */
    clear: clearSchedule,
    /** Stops scheduling, aborts the run under way (through its signal) and refuses further kicks. */
    close(): void {
      closed = true;
      clearSchedule();
      current?.abort();
    },
  };
}

export type Loop<R> = ReturnType<typeof createLoop<R>>;
