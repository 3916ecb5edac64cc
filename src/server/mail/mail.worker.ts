import type { Logger } from 'pino';
import type { OutboxRepository } from './mail.storage.ts';
import type { MailTransport } from './mail.transports.ts';

export const maxEmailAttempts = 10;
/** How long the delivery log keeps an e-mail once it is sent or given up (the Privacy Policy says 90 days). */
export const emailRetentionMs = 90 * 24 * 60 * 60_000;
const retentionSweepEveryMs = 60 * 60_000;

/** 30 s, 1 min, 2 min, … capped at one hour; `undefined` once the attempts are used up. */
export function nextAttemptDelayMs(attemptsSoFar: number): number | undefined {
  if (attemptsSoFar + 1 >= maxEmailAttempts) return undefined;
  return Math.min(30_000 * 2 ** attemptsSoFar, 60 * 60_000);
}

export interface MailWorker {
  /** Sends everything that is due now; resolves when done. */
  runOnce(): Promise<number>;
  /** Asks for a run soon (after an e-mail was queued). */
  wake(): void;
  stop(): Promise<void>;
}

export function createMailWorker(deps: {
  /** The outbox outside any transaction: each claim and mark stands alone. */
  outbox: OutboxRepository;
  transport: MailTransport;
  from: string;
  logger: Logger;
  now?: () => Date;
  pollMs?: number;
}): MailWorker {
  const now = deps.now ?? (() => new Date());
  const pollMs = deps.pollMs ?? 5_000;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = -Infinity;

  async function sendDue(): Promise<number> {
    if (now().getTime() - lastSweep >= retentionSweepEveryMs) {
      lastSweep = now().getTime();
      await deps.outbox.deleteFinishedBefore(new Date(lastSweep - emailRetentionMs));
    }
    let sent = 0;
    for (;;) {
      const ids = await deps.outbox.findDue(now(), 20);
      if (ids.length === 0) return sent;
      for (const id of ids) {
        const email = await deps.outbox.claim(id, now(), 60_000);
        if (!email) continue;
        const { attempts, ...message } = email;
        try {
          await deps.transport.send({ ...message, from: deps.from });
          await deps.outbox.markSent(email.id, now());
          sent++;
        } catch (error) {
          const delay = nextAttemptDelayMs(attempts);
          const reason = error instanceof Error ? error.message : String(error);
          deps.logger.warn({ emailId: email.id, attempt: attempts + 1, err: reason }, 'e-mail send failed');
          await deps.outbox.markAttemptFailed(email.id, {
            error: reason,
            nextAttemptAt: delay === undefined ? undefined : new Date(now().getTime() + delay),
          });
        }
      }
      if (ids.length < 20) return sent;
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = sendDue()
      .catch((error: unknown) => {
        deps.logger.error({ err: error }, 'mail worker run failed');
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
    timer = setTimeout(() => {
      void runOnce().finally(schedule);
    }, pollMs);
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
