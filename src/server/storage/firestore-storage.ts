import type { Firestore } from 'firebase-admin/firestore';
import { createError } from '../http/errors.ts';
import type { FirestoreConnection } from './firestore/connect.ts';
import { isClosedTransaction, transact, type FirestoreContext } from './firestore/context.ts';
import { createPositions, type Positions, type PositionsOptions } from './firestore/positions.ts';
import { makeRepositories, repositoryNames } from './repositories.ts';
import type { Repositories, Storage } from './storage.ts';

/**
 * The Firestore engine behind the repositories (docs/decisions/0026, 0027): every feature's repository made
 * from a FirestoreContext, outside any transaction (`repos`) or on one (`transaction`).
 */

/** What every repository of one engine shares besides its context: the collections' versions (0027). */
export interface FirestoreEngineParts {
  positions: Positions;
}

/** A feature's `create<Feature>FirestoreRepository`. A factory that needs no shared part takes `ctx` alone. */
export type FirestoreRepositoryFactory<R> = (ctx: FirestoreContext, parts: FirestoreEngineParts) => R;

/**
 * The features' factories. Each is optional while the features move to Firestore one by one (issue 21): a
 * missing one makes a repository that refuses every call by name, and `missingRepositories` lets start-up
 * refuse the engine as a whole (server.ts) rather than serve a product that half works.
 */
export type FirestoreRepositoryFactories = {
  [K in keyof Repositories]?: FirestoreRepositoryFactory<Repositories[K]>;
};

/** How many times Firestore runs a contended transaction before giving up (its SDK's default is 5). */
export const transactionAttempts = 10;

/** The features whose repository the engine does not have yet, in `Repositories`' order. */
export function missingRepositories(factories: FirestoreRepositoryFactories): (keyof Repositories)[] {
  return repositoryNames.filter((name) => !factories[name]);
}

export function createFirestoreStorage(
  connection: Pick<FirestoreConnection, 'firestore' | 'close'>,
  options: {
    factories: FirestoreRepositoryFactories;
    positions?: PositionsOptions;
    /** Tries of a contended transaction (`transactionAttempts`; tests lower it to see contention). */
    maxAttempts?: number;
  },
): Storage {
  const maxAttempts = options.maxAttempts ?? transactionAttempts;
  const db = connection.firestore;
  const parts: FirestoreEngineParts = { positions: createPositions(db, options.positions) };
  const reposOn = (ctx: FirestoreContext): Repositories =>
    makeRepositories((name) => {
      const factory = options.factories[name];
      return factory ? factory(ctx, parts) : lacking(name);
    });

  return {
    kind: 'firestore',
    repos: reposOn({ db }),
    async transaction(work) {
      try {
        return await transact(db, (tx) => work(reposOn({ db, tx })), { maxAttempts });
      } catch (error) {
        throw isContention(error) ? contentionError(error) : error;
      }
    },
    ping: () => probe(db),
    close: () => connection.close(),
  };
}

/**
 * A repository the engine lacks: any method call fails with its name (start-up refuses such an engine first;
 * this is for tests and tools that build the storage with a few features).
 */
function lacking(name: string): never {
  return new Proxy(
    {},
    {
      get(_, method) {
        // Promise resolution and inspection ask for `then` and symbols: the object is not a promise.
        if (method === 'then' || typeof method === 'symbol') return undefined;
        return () => {
          throw new Error(`the Firestore engine lacks the ${name} repository (${name}.${method})`);
        };
      },
    },
  ) as never;
}

/** gRPC's ABORTED: the transaction lost to others on every attempt. */
const aborted = 10;

/**
 * Contention that outlasted every attempt: ABORTED, or the emulator's "Transaction lock timeout" (which it
 * reports with other codes), or a commit whose transaction the emulator had closed (context.ts). Not the
 * request's fault, and gone in a moment: a 503 that says to retry.
 */
export function isContention(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === aborted ||
    (typeof message === 'string' && /transaction lock timeout/i.test(message)) ||
    isClosedTransaction(error)
  );
}

function contentionError(cause: unknown) {
  const error = createError({
    code: 'storage.busy',
    message: 'Too many changes are being saved at once. Please try again in a moment.',
    status: 503,
  });
  error.cause = cause;
  return error;
}

/**
 * One read, as start-up's probe (connect.ts): the health check's "does the engine answer". The client retries
 * an unreachable host for a long time on its own; the check answers within `pingTimeoutMs` all the same.
 */
const pingTimeoutMs = 5_000;
async function probe(db: Firestore): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), pingTimeoutMs)));
  const answered = db
    .doc('syncCounters/probe')
    .get()
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
