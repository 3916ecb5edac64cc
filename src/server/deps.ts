import type { Logger } from 'pino';
import type { Env } from './env.ts';
import { accessTable, type ChangeNotice, type EventPublisher } from './events/events.ts';
import type { NewEmail, OutboxRepository } from './mail/mail.storage.ts';
import type { Repositories, Storage } from './storage/storage.ts';

export interface Clock {
  now(): Date;
}

/** Queues an e-mail in the outbox (inside `withTransaction`, the transaction's: it goes if the change commits). */
export interface Mail {
  /** Queues the e-mails, in this order, in one write where the engine can. */
  enqueue(...emails: NewEmail[]): Promise<void>;
  /** The same outbox queueing through `outbox` (a transaction's) and calling `onQueued` instead of waking the worker. */
  bind(outbox: OutboxRepository, onQueued: () => void): Mail;
  /** Wakes the mail worker (after a commit). */
  wake(): void;
}

/**
 * What the server wires once (DESIGN "Server dependencies"). A usecase takes the part of it it uses (`Uses`,
 * below) and, where the server decides who may do what, the signed-in user (`me`); it never reads the request.
 */
export interface Deps {
  storage: Storage;
  /** Each feature's repository: on the storage itself, or inside `withTransaction` on the transaction. */
  repos: Repositories;
  clock: Clock;
  events: EventPublisher;
  mail: Mail;
  config: Env;
  logger: Logger;
}

/**
 * What one usecase uses of `Deps`, named in its signature (CONVENTIONS §13): `R`, the repositories it reads
 * and writes (`repos.<feature>`, also inside its transaction), and `S`, the services, e.g.
 * `Uses<'bookings' | 'accounts', 'clock' | 'mail'>`. A test builds only those; a caller passes its `deps`.
 */
export type Uses<R extends keyof Repositories = never, S extends Exclude<keyof Deps, 'repos'> = never> = {
  repos: Pick<Repositories, R>;
} & Pick<Deps, S>;

/** What `withTransaction` needs of a usecase's dependencies: the storage; the events and outbox, if it uses them. */
export type TransactionDeps = { repos: Partial<Repositories> } & Pick<Deps, 'storage'> &
  Partial<Pick<Deps, 'events' | 'mail'>>;

/**
 * Runs `work` in one storage transaction (Storage.transaction says how to write it). Inside, `tx.repos` *is*
 * the transaction: never use the outer `deps` there (on SQLite, with one connection, that
 * waits forever). The notices it publishes and the e-mails it queues wake their listeners only after the
 * commit; on a rollback, or when the engine runs `work` again, the earlier attempt's are dropped. `tx` offers
 * what `deps` does, no more (a usecase's `Uses<…>`).
 */
export async function withTransaction<D extends TransactionDeps, T>(deps: D, work: (tx: D) => Promise<T>): Promise<T> {
  let notices: ChangeNotice[] = [];
  let mailQueued = false;
  const { mail } = deps;
  const result = await deps.storage.transaction((repos) => {
    notices = [];
    mailQueued = false;
    return work({
      ...deps,
      repos,
      events: { publish: (notice: ChangeNotice) => void notices.push(notice) },
      ...(mail && {
        mail: mail.bind(repos.outbox, () => {
          mailQueued = true;
        }),
      }),
    });
  });
  for (const notice of notices) deps.events?.publish(notice);
  if (mailQueued) mail?.wake();
  // An access notice (a role taken away, an account deleted) is acted on by every process before the change is
  // answered (docs/decisions/0040); other notices are not waited for.
  if (notices.some((notice) => notice.table === accessTable)) await deps.events?.settled?.();
  return result;
}
