import type { Deps } from '../deps.ts';
import type { EventBus } from '../events/events.ts';
import { createDeliveryWorker, type ChannelSender, type DeliveryWorker } from './delivery-worker.ts';
import { createBadgeCounter } from './badge.ts';
import { createNoticeDispatcher, type NoticeDispatcher } from './dispatcher.ts';
import { createNoticeEmailer } from './notice-email.ts';
import { deliveriesTable, noticesTable } from './notify.ts';

/** The delivery log of push and WhatsApp is kept as long as the mail log (the Privacy Policy: 90 days). */
const retentionMs = 90 * 24 * 60 * 60_000;

export interface NoticeServices {
  dispatcher: NoticeDispatcher;
  workers: Map<string, DeliveryWorker>;
  /** Dispatches what waits, then sends every channel's due deliveries (tests, and a benchmark's end). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The notices' background work in this process (docs/decisions/0059): the dispatcher and a delivery worker per
 * configured channel, woken by the bus when a change wrote notices (in any process) or the admin sent a delivery
 * again, and by their own polls otherwise.
 */
export function startNotices({
  deps,
  bus,
  senders,
  pollMs,
}: {
  deps: Deps;
  bus: EventBus;
  senders: readonly ChannelSender[];
  pollMs?: number;
}): NoticeServices {
  const { repos, logger, clock } = deps;
  const workers = new Map(
    senders.map((sender) => [
      sender.channel,
      // Woken by the bus for what is new; the poll finds retries come due (30 s and more after a failure).
      createDeliveryWorker({
        deliveries: repos.noticeDeliveries,
        sender,
        logger,
        now: clock.now,
        pollMs: pollMs ?? 30_000,
      }),
    ]),
  );
  const dispatcher = createNoticeDispatcher({
    repos,
    events: deps.events,
    logger,
    channels: senders.map((s) => s.channel),
    onDeliveries: (channel) => workers.get(channel)?.wake(),
    email: createNoticeEmailer(deps.mail, deps.config.publicUrl),
    badge: createBadgeCounter(repos),
    now: clock.now,
    // Every process hears of new notices on the bus: the poll is for one a process missed (it restarted).
    pollMs: pollMs ?? 60_000,
  });
  const unsubscribe = bus.subscribe((message) => {
    if (message.type === 'resync') return dispatcher.wake();
    if (message.event.table === noticesTable && message.event.ids.length > 0) dispatcher.wake();
    if (message.event.table === deliveriesTable) for (const worker of workers.values()) worker.wake();
  });
  const sweep = setInterval(() => {
    void repos.noticeDeliveries
      .deleteFinishedBefore(new Date(clock.now().getTime() - retentionMs))
      .catch((error: unknown) => logger.error({ err: error }, 'notice deliveries sweep failed'));
  }, 60 * 60_000);
  sweep.unref();
  return {
    dispatcher,
    workers,
    async flush() {
      await dispatcher.runOnce();
      await Promise.all([...workers.values()].map((w) => w.runOnce()));
    },
    async stop() {
      unsubscribe();
      clearInterval(sweep);
      await dispatcher.stop();
      for (const worker of workers.values()) await worker.stop();
    },
  };
}
