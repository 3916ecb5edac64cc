/**
 * What kind of old record an entry of the import's ledger is about: the collections the report counts.
 */
export type LedgerKind = 'users' | 'modules' | 'questions' | 'answers' | 'bookings' | 'enrolments';

/** A short fingerprint of each field the import carries: field name → hash of its value (import/changes.ts). */
export type FieldPrints = Record<string, string>;

/**
 * One old record as the Firebase import last left it (docs/decisions/0037): which record of ours it became,
 * and for each field it carries, a fingerprint of the old site's value then and of ours then. The next run
 * compares both with what it finds, so it knows which side changed what since.
 */
export interface LedgerEntry {
  kind: LedgerKind;
  /** The old site's id (a Firebase uid, a document id). */
  oldId: string;
  /** The id of our record (the same as `oldId`, except an account or module that was here before). */
  ourId: string;
  old: FieldPrints;
  ours: FieldPrints;
  /** UTC ISO: the run that wrote the entry. */
  importedAt: string;
}

/**
 * The Firebase import's ledger (docs/decisions/0026, 0037): one entry per old record it brought in, on every
 * engine (`imported_records` on SQL, `importedRecords` on Firestore). Fingerprints only, never the values.
 */
export interface ImportLedgerRepository {
  /** The entries of these old records of one kind, by old id (those without one are left out). */
  find(kind: LedgerKind, oldIds: readonly string[]): Promise<Map<string, LedgerEntry>>;
  /** Stores the entries, each replacing the one with its kind and old id. */
  save(entries: readonly LedgerEntry[]): Promise<void>;
}
