import type { Db } from '../db/create-db.ts';
import { insertEmail, type NewEmail } from './mail.repository.ts';

export interface Outbox {
  /** Queues an e-mail; pass a transaction as `executor` to tie it to the change that causes it. */
  enqueue(email: NewEmail, executor?: Db): Promise<void>;
}

export function createOutbox(deps: { db: Db; now?: () => Date; onQueued?: () => void }): Outbox {
  const now = deps.now ?? (() => new Date());
  // The worker sends in `created_at` order. Two e-mails queued in the same millisecond (a sign-up's
  // verification and welcome e-mails) would otherwise be ordered by their random ids, so each one queued
  // here gets a time at least 1 ms after the previous one.
  let last = 0;
  const stamp = () => {
    last = Math.max(now().getTime(), last + 1);
    return new Date(last);
  };
  return {
    async enqueue(email, executor = deps.db) {
      await insertEmail(executor, email, stamp());
      deps.onQueued?.();
    },
  };
}
