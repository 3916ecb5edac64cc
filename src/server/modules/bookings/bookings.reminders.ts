import type { Deps } from '../../deps.ts';
import { sendDueReminders } from './bookings.usecases.ts';

/**
 * Looks for due session reminders every `everyMs` (a minute by default) in this process. Every process of a
 * deployment may run it: each reminder is claimed before it is queued, so it goes once.
 */
export function startBookingReminders(deps: Deps, everyMs = 60_000) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sendDueReminders(deps)
        .then(
          () => undefined,
          (error: unknown) => deps.logger.error({ err: error }, 'booking reminders failed'),
        )
        .finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
