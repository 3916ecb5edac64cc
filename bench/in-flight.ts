/**
 * The requests an app is still answering. Autocannon ends a run by dropping its connections, not by waiting
 * for their answers, so the app may still be working on a few when the run is over: the benchmark waits for
 * them before it closes the database under them.
 */
export function trackRequests<A extends unknown[], R>(fetch: (...args: A) => Promise<R> | R) {
  let active = 0;
  let idle: (() => void) | undefined;
  return {
    fetch: async (...args: A): Promise<R> => {
      active++;
      try {
        return await fetch(...args);
      } finally {
        if (--active === 0) idle?.();
      }
    },
    /** Resolves once no request is being answered. */
    settled: () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))),
  };
}
