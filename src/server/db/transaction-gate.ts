import { createBusyError } from '../http/errors.ts';

/**
 * PostgreSQL: at most `atOnce` transactions of this process hold a connection of the pool at the same time; the
 * others wait here, in order, for at most `waitMs`, and are then refused with 503 before they begin (decision
 * 0042). A collection's writes take its counter's row lock first and so run one after another (versions.ts): ten
 * of them at once held all ten connections of the pool, nine waiting for that lock, and every read queued behind
 * them for a connection (issue 33: 63 requests a second at saturation, votes unanswered after 30 s).
 */
export function transactionGate(atOnce: number, waitMs: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: { begin: () => void; timer: NodeJS.Timeout }[] = [];

  const end = () => {
    const next = waiting.shift();
    if (!next) {
      running -= 1;
      return;
    }
    // The place passes on to the next in line: `running` stays as it is.
    clearTimeout(next.timer);
    next.begin();
  };

  const turn = () =>
    new Promise<void>((resolve, reject) => {
      const place = {
        begin: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(place), 1);
          reject(createBusyError());
        }, waitMs),
      };
      waiting.push(place);
    });

  return async (work) => {
    if (running < atOnce) running += 1;
    else await turn();
    try {
      return await work();
    } finally {
      end();
    }
  };
}
