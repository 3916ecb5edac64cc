import type { DocumentReference, DocumentSnapshot, Firestore, Transaction } from 'firebase-admin/firestore';

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
 * then writes is atomic either way). Inside, every read must come before the first write (Firestore's rule).
 */
export function atomically<T>(ctx: FirestoreContext, work: (inner: InTransaction) => Promise<T>): Promise<T> {
  return ctx.tx ? work(ctx as InTransaction) : ctx.db.runTransaction((tx) => work({ db: ctx.db, tx }));
}

export type InTransaction = Required<FirestoreContext>;

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
