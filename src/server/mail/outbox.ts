import type { Db } from '../db/create-db.ts';
import { insertEmail, type NewEmail } from './mail.repository.ts';

export interface Outbox {
  /** Queues an e-mail; pass a transaction as `executor` to tie it to the change that causes it. */
  enqueue(email: NewEmail, executor?: Db): Promise<void>;
}

export function createOutbox(deps: { db: Db; now?: () => Date; onQueued?: () => void }): Outbox {
  const now = deps.now ?? (() => new Date());
  return {
    async enqueue(email, executor = deps.db) {
      await insertEmail(executor, email, now());
      deps.onQueued?.();
    },
  };
}
