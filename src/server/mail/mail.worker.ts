import type { Logger } from 'pino';
import type { DueEmail, OutboxRepository } from './mail.storage.ts';
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

/**
 * How long a sender holds an e-mail it claimed, so that no other process sends it meanwhile: well over the
 * 10 s an EmailJS send may take (nodemailer's own SMTP time-outs are longer: decision 0041).
 */
const leaseMs = 60_000;
/** Due e-mails looked up at a time. */
const batchSize = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  const { atOnce, minIntervalMs } = deps.transport.pace;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  // An e-mail was queued in this process since the due ones were looked up: it may have to go first.
  let woken = false;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = -Infinity;
  // When the latest e-mail was taken up, and when its send was to start (performance.now()), across runs: a
  // provider's rate limit does not start again with a run.
  let lastTaken = -Infinity;
  let lastSend = -Infinity;

  /** Waits for this send's turn: `minIntervalMs` after the send before, however long each claim took. */
  async function turn() {
    const at = Math.max(performance.now(), lastSend + minIntervalMs);
    lastSend = at;
    if (at > performance.now()) await sleep(at - performance.now());
  }

  /** Claims one e-mail and sends it; true when it went. A refusal is a failed attempt; storage errors throw. */
  async function sendOne(id: string): Promise<boolean> {
    const email = await deps.outbox.claim(id, now(), leaseMs);
    if (!email) return false;
    const { attempts, ...message } = email;
    await turn();
    try {
      await deps.transport.send({ ...message, from: deps.from });
    } catch (error) {
      const delay = nextAttemptDelayMs(attempts);
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ emailId: email.id, attempt: attempts + 1, err: reason }, 'e-mail send failed');
      await deps.outbox.markAttemptFailed(email.id, {
        error: reason,
        nextAttemptAt: delay === undefined ? undefined : new Date(now().getTime() + delay),
      });
      return false;
    }
    await deps.outbox.markSent(email.id, now());
    return true;
  }

  /**
   * Sends what is due, in the queue's order (the kinds someone waits for first), up to the transport's
   * `atOnce` at a time and its starts `minIntervalMs` apart, one at a time to each address (so a person's
   * e-mails arrive in the order they were queued). The due e-mails are looked up again when those found are
   * started, and as soon as one is queued here, so that a verification e-mail queued behind twenty booking
   * e-mails goes next. Each e-mail is claimed before it is sent: senders in other processes never send it too.
   */
  async function sendDue(): Promise<number> {
    if (now().getTime() - lastSweep >= retentionSweepEveryMs) {
      lastSweep = now().getTime();
      await deps.outbox.deleteFinishedBefore(new Date(lastSweep - emailRetentionMs));
    }
    const sending = new Map<string, Promise<void>>();
    const addresses = new Set<string>();
    // Each e-mail is tried once a run: one that fails waits for its retry's time and a later run.
    const tried = new Set<string>();
    let due: DueEmail[] = [];
    let sent = 0;
    let failure: { error: unknown } | undefined;

    function start({ id, to }: DueEmail) {
      lastTaken = performance.now();
      tried.add(id);
      addresses.add(to);
      const done = sendOne(id)
        .then(
          (went) => {
            if (went) sent++;
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => {
          sending.delete(id);
          addresses.delete(to);
        });
      sending.set(id, done);
    }

    for (;;) {
      if (failure || stopped) {
        await Promise.all(sending.values());
        if (failure) throw failure.error;
        return sent;
      }
      if (woken || due.length === 0) {
        woken = false;
        due = (await deps.outbox.findDue(now(), batchSize)).filter((e) => !tried.has(e.id));
      }
      const next = sending.size < atOnce ? due.findIndex((e) => !addresses.has(e.to)) : -1;
      if (next === -1) {
        // Nothing more to start now: done, or wait for a send to end.
        if (sending.size === 0) return sent;
        await Promise.race(sending.values());
        continue;
      }
      // Taken up (claimed) no earlier than its turn: one queued meanwhile that must go first still can.
      const wait = Math.max(lastTaken, lastSend) + minIntervalMs - performance.now();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      start(due.splice(next, 1)[0]!);
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
    wake() {
      woken = true;
      void runOnce();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
