import type { Logger } from 'pino';

/** Background work run when woken and every `pollMs`: one run at a time, one more if woken meanwhile. */
export interface PolledRun {
  /** Runs now (or joins the run under way, and runs once more after it); resolves with what it did. */
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
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const isStopped = () => stopped;

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = work(isStopped)
      .catch((error: unknown) => {
        options.logger.error({ err: error }, `${options.what} failed`);
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void runOnce();
        }
      });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void runOnce().finally(schedule), options.pollMs);
    timer.unref();
  }
  schedule();

  return {
    runOnce,
    wake: () => void runOnce(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
