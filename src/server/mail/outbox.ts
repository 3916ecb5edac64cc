import type { Db } from '../db/create-db.ts';
import type { Mail } from '../deps.ts';
import { insertEmail } from './mail.repository.ts';

/**
 * The e-mail outbox (docs/decisions/0010-mail-queue-in-the-database.md): `enqueue` writes a row through `db`, and the worker is woken once the row
 * is visible. `bind(trx, …)` gives the same outbox writing through a transaction, whose wake-up `withTransaction`
 * sends after the commit (woken earlier, the worker would find nothing to send).
 */
export function createOutbox(deps: { db: Db; now?: () => Date; onQueued?: () => void }): Mail {
  const now = deps.now ?? (() => new Date());
  // The worker sends in `created_at` order. Two e-mails queued in the same millisecond (a sign-up's
  // verification and welcome e-mails) would otherwise be ordered by their random ids, so each one queued
  // here gets a time at least 1 ms after the previous one. Bound copies share the clock.
  let last = 0;
  const stamp = () => {
    last = Math.max(now().getTime(), last + 1);
    return new Date(last);
  };
  const wake = () => deps.onQueued?.();
  const make = (db: Db, onQueued: () => void): Mail => ({
    async enqueue(email) {
      await insertEmail(db, email, stamp());
      onQueued();
    },
    bind: make,
    wake,
  });
  return make(deps.db, wake);
}
