import type { DocumentReference, Query, QuerySnapshot } from 'firebase-admin/firestore';
import type { FirestoreContext } from './context.ts';

/** Runs a query, in the transaction when there is one (a read: before the transaction's first write). */
export function query<T>(ctx: FirestoreContext, q: Query<T>): Promise<QuerySnapshot<T>> {
  return ctx.tx ? ctx.tx.get(q) : q.get();
}

/**
 * Deletes what a query finds now, in the transaction when there is one. The query itself runs outside it: the
 * deletions of a person's records are called after other parts' writes in the account's deletion, where
 * Firestore allows no read. A record another process adds between this look and the commit stays (on SQL the
 * DELETE takes it too); the account it belongs to is gone by then, so nothing reaches it any more.
 */
export async function deleteFound(ctx: FirestoreContext, ...queries: Query[]): Promise<number> {
  const found = await Promise.all(queries.map((q) => q.get()));
  const refs = new Map<string, DocumentReference>();
  for (const snapshot of found) for (const doc of snapshot.docs) refs.set(doc.ref.path, doc.ref);
  await deleteAll(ctx, [...refs.values()]);
  return refs.size;
}

/** Firestore's most writes in one batch. */
const batchLimit = 500;

/** Deletes these documents: in the transaction when there is one, else in batches (each atomic on its own). */
export async function deleteAll(ctx: FirestoreContext, refs: readonly DocumentReference[]): Promise<void> {
  if (ctx.tx) {
    for (const ref of refs) ctx.tx.delete(ref);
    return;
  }
  for (let i = 0; i < refs.length; i += batchLimit) {
    const batch = ctx.db.batch();
    for (const ref of refs.slice(i, i + batchLimit)) batch.delete(ref);
    await batch.commit();
  }
}

/** gRPC's codes as firebase-admin reports them: a `create` of a document that exists; an `update` of one that does not. */
export const alreadyExists = 6;
export const notFound = 5;
export const hasCode = (error: unknown, code: number) => (error as { code?: unknown } | null)?.code === code;
