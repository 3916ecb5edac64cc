import type { CollectionReference } from 'firebase-admin/firestore';
import { readAll, type FirestoreContext } from '../storage/firestore/context.ts';
import type { ImportLedgerRepository, LedgerEntry } from './import-ledger.storage.ts';

/**
 * The import's ledger on Firestore (docs/firestore-layout.md, "The Firebase import"):
 * `importedRecords/{kind}:{old id}` (the id `encodeURIComponent`-ed), read by key in the import's
 * transaction and written with its records. The fingerprints are JSON text, as on SQL: nothing queries them.
 */
interface EntryDoc {
  kind: string;
  oldId: string;
  ourId: string;
  old: string;
  ours: string;
  importedAt: string;
}

export function createImportLedgerFirestoreRepository(ctx: FirestoreContext): ImportLedgerRepository {
  const entries = ctx.db.collection('importedRecords') as CollectionReference<EntryDoc>;
  const refOf = (kind: string, oldId: string) => entries.doc(`${kind}:${encodeURIComponent(oldId)}`);

  return {
    async find(kind, oldIds) {
      const found = await readAll(
        ctx,
        [...new Set(oldIds)].map((id) => refOf(kind, id)),
      );
      const out = new Map<string, LedgerEntry>();
      for (const snapshot of found) {
        const doc = snapshot.data();
        if (!doc) continue;
        out.set(doc.oldId, {
          kind,
          oldId: doc.oldId,
          ourId: doc.ourId,
          old: JSON.parse(doc.old) as LedgerEntry['old'],
          ours: JSON.parse(doc.ours) as LedgerEntry['ours'],
          importedAt: doc.importedAt,
        });
      }
      return out;
    },

    async save(list) {
      const docs = list.map((e) => ({
        ref: refOf(e.kind, e.oldId),
        doc: {
          kind: e.kind,
          oldId: e.oldId,
          ourId: e.ourId,
          old: JSON.stringify(e.old),
          ours: JSON.stringify(e.ours),
          importedAt: e.importedAt,
        },
      }));
      if (ctx.tx) {
        for (const { ref, doc } of docs) ctx.tx.set(ref, doc);
        return;
      }
      // Outside a transaction (the contract test): batches of Firestore's 500 writes.
      for (let i = 0; i < docs.length; i += 500) {
        const batch = ctx.db.batch();
        for (const { ref, doc } of docs.slice(i, i + 500)) batch.set(ref, doc);
        await batch.commit();
      }
    },
  };
}
