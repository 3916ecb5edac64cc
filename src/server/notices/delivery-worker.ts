import type { Logger } from 'pino';
import type { DeliveryChannel } from '../../common/notices.ts';
import { nextAttemptDelayMs } from '../mail/mail.worker.ts';
import { createPolledRun, type PolledRun } from './polled-run.ts';
import type { DeliveriesRepository, DeliveryRecord } from './notices.storage.ts';

/** What one send came to: sent (with the provider's id for the message), or not, and whether to try again. */
export type ChannelOutcome =
  { sent: true; providerId?: string } | { sent: false; gone?: true; retry: boolean; reason: string };

/** A channel's sender: push to a device, or a WhatsApp template message to a number. */
export interface ChannelSender {
  channel: DeliveryChannel;
  send(delivery: DeliveryRecord): Promise<ChannelOutcome>;
  /** Sends at once, at most. */
  atOnce: number;
}

export type DeliveryWorker = PolledRun;

/** How long a sender holds a delivery it claimed: well over a send's time-out. */
const leaseMs = 60_000;
const batchSize = 50;

/**
 * Sends a channel's due deliveries (docs/decisions/0059), as the mail worker sends e-mails: each claimed first, so
 * that it goes once whatever the number of processes; a failure tried again after 30 s, 1 min, 2 min, … (the mail
 * worker's backoff) up to its last attempt, then failed for good, where the admin sees it; a device or number that
 * is no more (`gone`) is not tried again.
 */
export function createDeliveryWorker(deps: {
  deliveries: DeliveriesRepository;
  sender: ChannelSender;
  logger: Logger;
  now?: () => Date;
  pollMs?: number;
}): DeliveryWorker {
  const now = deps.now ?? (() => new Date());
  const { sender } = deps;

  async function sendOne(id: string): Promise<boolean> {
    const delivery = await deps.deliveries.claim(id, now(), leaseMs);
    if (!delivery) return false;
    let outcome: ChannelOutcome;
    try {
      outcome = await sender.send(delivery);
    } catch (error) {
      outcome = { sent: false, retry: true, reason: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.sent) {
      await deps.deliveries.markSent(id, now(), outcome.providerId);
      return true;
    }
    const delay = outcome.retry && !outcome.gone ? nextAttemptDelayMs(delivery.attempts) : undefined;
    deps.logger.warn(
      { deliveryId: id, channel: sender.channel, attempt: delivery.attempts + 1, err: outcome.reason },
      `${sender.channel} delivery failed`,
    );
    await deps.deliveries.markAttemptFailed(id, {
      error: outcome.reason,
      nextAttemptAt: delay === undefined ? undefined : new Date(now().getTime() + delay),
      ...(outcome.gone ? { gone: true } : {}),
    });
    return false;
  }

  async function sendDue(isStopped: () => boolean): Promise<number> {
    let sent = 0;
    const tried = new Set<string>();
    for (;;) {
      if (isStopped()) return sent;
      const due = (await deps.deliveries.findDue(sender.channel, now(), batchSize)).filter((id) => !tried.has(id));
      if (due.length === 0) return sent;
      for (let i = 0; i < due.length; i += sender.atOnce) {
        const group = due.slice(i, i + sender.atOnce);
        for (const id of group) tried.add(id);
        const went = await Promise.all(group.map(sendOne));
        sent += went.filter(Boolean).length;
      }
    }
  }

  return createPolledRun(sendDue, {
    pollMs: deps.pollMs ?? 5_000,
    logger: deps.logger,
    what: `${sender.channel} worker run`,
  });
}
