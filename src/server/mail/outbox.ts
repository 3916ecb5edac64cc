import type { Mail } from '../deps.ts';
import type { OutboxRepository } from './mail.storage.ts';

/**
 * The e-mail outbox (docs/decisions/0010-mail-queue-in-the-database.md): `enqueue` queues the e-mail in `repo`,
 * and the worker is woken once it is visible. `bind(tx.repos.outbox, …)` gives the same outbox queueing inside a
 * transaction, whose wake-up `withTransaction` sends after the commit (woken earlier, the worker would find
 * nothing to send).
 */
export function createOutbox(deps: { repo: OutboxRepository; now?: () => Date; onQueued?: () => void }): Mail {
  const now = deps.now ?? (() => new Date());
  // The worker sends in `created_at` order (after the kinds someone waits for, decision 0041). Two e-mails
  // queued in the same millisecond would otherwise be ordered by their random ids, so each one queued here
  // gets a time at least 1 ms after the previous one. Bound copies share the clock.
  let last = 0;
  const stamp = () => {
    last = Math.max(now().getTime(), last + 1);
    return new Date(last);
  };
  const wake = () => deps.onQueued?.();
  const make = (repo: OutboxRepository, onQueued: () => void): Mail => ({
    async enqueue(...emails) {
      await repo.enqueueAll(emails.map((email) => ({ email, now: stamp() })));
      onQueued();
    },
    bind: make,
    wake,
  });
  return make(deps.repo, wake);
}
