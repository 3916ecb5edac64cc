import {
  DocumentReference,
  type DocumentSnapshot,
  type Firestore,
  type ReadWriteTransactionOptions,
  type Transaction,
} from 'firebase-admin/firestore';

/**
 * Where a Firestore repository works: the database, and the transaction of the usecase when there is one
 * (Storage.transaction). Made once per transaction, as the SQL repositories are made on a Kysely transaction.
 */
export interface FirestoreContext {
  db: Firestore;
  tx?: Transaction;
}

/**
 * Runs `work` in the usecase's transaction, or in one of its own outside any (a repository method that reads
 * then writes is atomic either way). Inside, a read never sees the transaction's own writes (see `transact`).
 */
export function atomically<T>(ctx: FirestoreContext, work: (inner: InTransaction) => Promise<T>): Promise<T> {
  return ctx.tx ? work(ctx as InTransaction) : transact(ctx.db, (tx) => work({ db: ctx.db, tx }));
}

export type InTransaction = Required<FirestoreContext>;

/**
 * Firestore's `runTransaction`, with the writes held until `work` is done (docs/decisions/0028). The SDK sends
 * a transaction's writes with its commit anyway, but refuses any read after the first write; held back, they
 * let steps that each read then write follow one another in one transaction (an account's deletion erases
 * the board's part, then the bookings', then the account). A read still cannot see a write made before it, so
 * reading a document this transaction has already written is refused, by its path, rather than answered with
 * the old version. (A query cannot be told apart that way; each step's contract test runs on both engines.)
 */
export function transact<T>(
  db: Firestore,
  work: (tx: Transaction) => Promise<T>,
  options?: ReadWriteTransactionOptions,
): Promise<T> {
  return db.runTransaction(async (sdk) => {
    const held = new HeldWrites(sdk);
    const result = await work(held.transaction);
    held.apply();
    return result;
  }, options);
}

type Write = (sdk: Transaction) => unknown;

/** A Transaction whose reads go straight to the SDK's and whose writes wait for `apply`. */
class HeldWrites {
  readonly #sdk: Transaction;
  readonly #writes: Write[] = [];
  readonly #written = new Set<string>();
  readonly transaction: Transaction;

  constructor(sdk: Transaction) {
    this.#sdk = sdk;
    const hold =
      (method: 'create' | 'set' | 'update' | 'delete') =>
      (ref: DocumentReference, ...rest: unknown[]) => {
        this.#written.add(ref.path);
        this.#writes.push((tx) => (tx[method] as (...args: unknown[]) => unknown)(ref, ...rest));
        return this.transaction;
      };
    const view = {
      get: (target: unknown) => {
        if (target instanceof DocumentReference) this.#refuseWritten([target]);
        return retriedWhenClosed(sdk.get(target as DocumentReference));
      },
      getAll: (...args: DocumentReference[]) => {
        this.#refuseWritten(args.filter((arg) => arg instanceof DocumentReference));
        return retriedWhenClosed(sdk.getAll(...args));
      },
      create: hold('create'),
      set: hold('set'),
      update: hold('update'),
      delete: hold('delete'),
    };
    // The repositories use these six; any other method of Transaction is not there and fails at once.
    this.transaction = view as unknown as Transaction;
  }

  /** The writes, in the order they were made, on the SDK's transaction: they commit with it. */
  apply() {
    for (const write of this.#writes) write(this.#sdk);
  }

  #refuseWritten(refs: readonly DocumentReference[]) {
    const again = refs.find((ref) => this.#written.has(ref.path));
    if (again) throw new Error(`${again.path} is read after this transaction wrote it: read it before any write`);
  }
}

/** Reads one document, in the transaction when there is one. */
export function read<T>(ctx: FirestoreContext, ref: DocumentReference<T>): Promise<DocumentSnapshot<T>> {
  return ctx.tx ? ctx.tx.get(ref) : ref.get();
}

/** Reads several documents at once (one round trip), in the transaction when there is one. */
export function readAll<T>(ctx: FirestoreContext, refs: DocumentReference<T>[]): Promise<DocumentSnapshot<T>[]> {
  if (refs.length === 0) return Promise.resolve([]);
  const all = refs as DocumentReference[];
  return (ctx.tx ? ctx.tx.getAll(...all) : ctx.db.getAll(...all)) as Promise<DocumentSnapshot<T>[]>;
}

/** gRPC's ABORTED, which the SDK's runTransaction tries again (after its backoff). */
const aborted = 10;

/**
 * Whether Firestore closed the transaction under a read: Google's backend says "transaction has expired" (the
 * SDK tries that again), the emulator "Transaction is invalid or closed" when another transaction took the
 * locks this one waited for (seen when one user posts from several devices at once, whose posts all count
 * the same rate limit) or it outlived its time, and the SDK does not try that again: a 500 for a request
 * that a second try serves.
 */
export const isClosedTransaction = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 3 && typeof message === 'string' && /transaction is invalid or closed/i.test(message);
};

/** A read whose transaction Firestore closed fails as ABORTED, so the SDK runs the transaction again. */
function retriedWhenClosed<T>(read: Promise<T>): Promise<T> {
  return read.catch((error: unknown) => {
    if (!isClosedTransaction(error)) throw error;
    throw Object.assign(new Error(`Firestore closed the transaction: ${(error as Error).message}`, { cause: error }), {
      code: aborted,
    });
  });
}
