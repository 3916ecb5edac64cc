import type { Db } from '../db/create-db.ts';
import type { FieldPrints, ImportLedgerRepository, LedgerEntry, LedgerKind } from './import-ledger.storage.ts';

/** Ids per statement: well under SQLite's and PostgreSQL's limits on bound values. */
const chunk = 500;

/** The import's ledger on SQLite and PostgreSQL (`imported_records`). */
export function createImportLedgerRepository(db: Db): ImportLedgerRepository {
  return {
    async find(kind, oldIds) {
      const found = new Map<string, LedgerEntry>();
      const ids = [...new Set(oldIds)];
      for (let i = 0; i < ids.length; i += chunk) {
        const rows = await db
          .selectFrom('imported_records')
          .selectAll()
          .where('kind', '=', kind)
          .where('old_id', 'in', ids.slice(i, i + chunk))
          .execute();
        for (const row of rows)
          found.set(row.old_id, {
            kind: row.kind as LedgerKind,
            oldId: row.old_id,
            ourId: row.our_id,
            old: JSON.parse(row.old_prints) as FieldPrints,
            ours: JSON.parse(row.our_prints) as FieldPrints,
            importedAt: row.imported_at,
          });
      }
      return found;
    },

    async save(entries) {
      for (let i = 0; i < entries.length; i += chunk) {
        const rows = entries.slice(i, i + chunk).map((e) => ({
          kind: e.kind,
          old_id: e.oldId,
          our_id: e.ourId,
          old_prints: JSON.stringify(e.old),
          our_prints: JSON.stringify(e.ours),
          imported_at: e.importedAt,
        }));
        await db
          .insertInto('imported_records')
          .values(rows)
          .onConflict((oc) =>
            oc.columns(['kind', 'old_id']).doUpdateSet((eb) => ({
              our_id: eb.ref('excluded.our_id'),
              old_prints: eb.ref('excluded.old_prints'),
              our_prints: eb.ref('excluded.our_prints'),
              imported_at: eb.ref('excluded.imported_at'),
            })),
          )
          .execute();
      }
    },
  };
}
