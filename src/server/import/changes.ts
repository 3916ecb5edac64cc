import { createHash } from 'node:crypto';
import type { FieldPrints, LedgerEntry } from './import-ledger.storage.ts';

/**
 * Which side changed what since the last import (docs/decisions/0037), as a pure rule: the import reads the
 * old site's record, ours, and the ledger's entry for it, and this says which fields to take from the old site
 * and which of those were changed here too. The ledger keeps fingerprints of both sides' values per field as
 * the import last left them, never the values.
 */

/** A record's fields the import carries, by name; values are anything JSON can hold. */
export type Fields = Record<string, unknown>;

/** A short, stable fingerprint of a value (72 bits of SHA-256: collisions are not a concern at this size). */
export const fingerprint = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url')
    .slice(0, 12);

export const printsOf = (fields: Fields): FieldPrints =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, fingerprint(value)]));

export interface Comparison {
  /** The fields whose old-site value is to be taken: changed there since the last import. */
  fromOld: string[];
  /** Of those, the ones changed here too since then: the old site's value wins, and the record is reported. */
  bothSides: string[];
  /** No ledger entry (imported before the ledger existed): the values were compared directly. */
  untracked: boolean;
}

/**
 * Compares one record. `old`: the old site's values now, in its own terms (what the ledger's `old` prints were
 * made of); `ours`: our values now (the ledger's `ours`); `mapped`: the old site's values as ours would hold
 * them, for a record without an entry, whose sides can only be compared with each other. There, a field that
 * differs is taken from the old site (the live site until the freeze), and counts as changed on both sides if
 * it is one that can change here (`changeableHere`): nobody can tell which side it was. A field missing from an
 * entry (added to the import after it was written) is compared the same way.
 */
export function compareRecord(args: {
  entry: Pick<LedgerEntry, 'old' | 'ours'> | undefined;
  old: Fields;
  ours: Fields;
  mapped: Fields;
  changeableHere: readonly string[];
}): Comparison {
  const { entry, old, ours, mapped, changeableHere } = args;
  const names = new Set([...Object.keys(mapped), ...Object.keys(ours), ...Object.keys(entry?.old ?? {})]);
  const fromOld: string[] = [];
  const bothSides: string[] = [];
  for (const name of names) {
    let oldChanged: boolean;
    let oursChanged: boolean;
    if (entry && name in entry.old) {
      oldChanged = fingerprint(old[name]) !== entry.old[name];
      oursChanged = name in entry.ours && fingerprint(ours[name]) !== entry.ours[name];
    } else {
      oldChanged = fingerprint(mapped[name]) !== fingerprint(ours[name]);
      oursChanged = oldChanged && changeableHere.includes(name);
    }
    // Changed there to what ours already is (both sides made the same change): nothing to take or name.
    if (!oldChanged || fingerprint(mapped[name]) === fingerprint(ours[name])) continue;
    fromOld.push(name);
    if (oursChanged) bothSides.push(name);
  }
  return { fromOld, bothSides, untracked: entry === undefined };
}

/** Whether the entry to save differs from the one stored (a run that changes nothing writes nothing). */
export function entryChanged(stored: LedgerEntry | undefined, next: Omit<LedgerEntry, 'importedAt'>): boolean {
  if (!stored || stored.ourId !== next.ourId) return true;
  const same = (a: FieldPrints, b: FieldPrints) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  return !same(stored.old, next.old) || !same(stored.ours, next.ours);
}
