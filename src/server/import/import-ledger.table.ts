/** The Firebase import's ledger (migration 0013; import-ledger.storage.ts says what it holds). */
export interface ImportedRecordsTable {
  kind: string;
  old_id: string;
  our_id: string;
  /** JSON: field name → fingerprint of the old site's value. */
  old_prints: string;
  /** JSON: field name → fingerprint of our value. */
  our_prints: string;
  imported_at: string;
}
