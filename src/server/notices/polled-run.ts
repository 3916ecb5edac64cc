import type { Logger } from 'pino';

/** Background work run when woken and every `pollMs`: one run at a time, one more if woken meanwhile. */
export interface PolledRun {
  /** Runs now, or once more after the run under way; resolves with what that run did. */
  runOnce(): Promise<number>;
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The dispatcher's and the delivery workers' loop (the mail worker's, without its own wake-up rules): `work` runs
 * when woken and every `pollMs`, never twice at once; a failed run is logged as `what` and counts as nothing done.
 * `isStopped` lets `work` end early once `stop` is called.
 */
export function createPolledRun(
  work: (isStopped: () => boolean) => Promise<number>,
  options: { pollMs: number; logger: Logger; what: string },
): PolledRun {
  let running: Promise<number> | undefined;
  // The run asked for while one was under way: one, however often it is asked for.
  let queued: Promise<number> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const isStopped = () => stopped;

  function start(): Promise<number> {
    running = work(isStopped)
      .catch((error: unknown) => {
        options.logger.error({ err: error }, `${options.what} failed`);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  /**
   * A run asked for during another starts when that one ends, and is what the caller waits for: the run under way
   * may have looked before what the caller wrote (a flush would otherwise return with it not done).
   */
  function runOnce(): Promise<number> {
    if (!running) return start();
    queued ??= running.then(() => {
      queued = undefined;
      return stopped ? 0 : runOnce();
    });
    return queued;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void runOnce().finally(schedule), options.pollMs);
    timer.unref();
  }
  schedule();

  return {
    runOnce,
    // After what woke it: a change's answer goes out before the work it caused starts (on SQLite, whose calls do not
    // wait for I/O, a dispatch started at once held a 500-follower answer's response for 150 ms; bench/notices.ts).
    wake: () => void setImmediate(() => void runOnce()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
