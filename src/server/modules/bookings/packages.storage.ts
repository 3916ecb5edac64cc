import type { PackageOffer, PackageRecord } from '../../../common/packages.ts';
import type { PaymentTotals } from '../../../common/payments.ts';

/** A package a student bought, as stored: what the API sends but its payments' list (common/packages.ts). */
export type { PackageRecord };

/**
 * The monthly packages, in their words (docs/decisions/0026, 0054): packages.repository.ts on SQL,
 * packages.firestore.ts on Firestore. A package's hours are drawn, and its money recorded, in the bookings' change
 * transaction (bookings.packages.ts): `find` or `ofStudent` with its other reads, `update` with its writes. On SQL
 * the bookings' lock orders those transactions; on Firestore each writes the package's document, so of two that
 * read it, one runs again and finds the hours the other took.
 */
export interface PackagesRepository {
  /** Every offer, still offered or not, in no order. */
  listOffers(): Promise<PackageOffer[]>;
  /** Undefined for an id no offer has. */
  findOffer(id: string): Promise<PackageOffer | undefined>;
  /** Stores an offer new or changed, whole. */
  saveOffer(offer: PackageOffer): Promise<void>;
  /** Undefined for an id no package has. */
  find(id: string): Promise<PackageRecord | undefined>;
  /** Whether a package holds this reference; read in the change's transaction, it stays free until the insert. */
  isReferenceTaken(reference: string): Promise<boolean>;
  /**
   * The packages holding these payment references (a bank statement's `TB-…-P`), in no order; a reference nobody
   * holds is left out. Many at once: a statement's every package in a few reads.
   */
  findByPaymentReferences(references: readonly string[]): Promise<PackageRecord[]>;
  /** Stores a new package; a duplicate id or reference throws. */
  insert(pkg: PackageRecord): Promise<void>;
  /** The student's packages, newest first (then by id); in a change's transaction, read with its other reads. */
  ofStudent(studentId: string): Promise<PackageRecord[]>;
  /** Every package, newest first (then by id), at most `limit` (the admin's list). */
  list(limit: number): Promise<PackageRecord[]>;
  /** Sets what sessions took, or the money's sums; the package must have been read in this transaction. */
  update(id: string, change: { usedMinutes?: number; payments?: PaymentTotals }): Promise<void>;
  /** The student's name and address on their packages (a rename; 'Deleted user' and no id on deletion). */
  setStudent(userId: string, student: { name: string; email?: string }, forget: boolean): Promise<void>;
}
