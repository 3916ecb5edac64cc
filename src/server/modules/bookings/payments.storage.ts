import type { PaymentKind, PaymentMethod } from '../../../common/payments.ts';
import type { BankMapping } from '../../../common/statements.ts';

/** The part of a payment, refund or waiver that went to one booking. */
export interface PaymentAllocation {
  bookingId: string;
  /** Positive, in cents. */
  amountCents: number;
}

/** A payment, refund or waiver as stored (common/payments.ts says what each is). */
export interface PaymentRecord {
  /** Made by whoever records it (the admin's device, the statement import), so that a repeat records nothing. */
  id: string;
  kind: PaymentKind;
  /** How the money came or went; null for a waiver. */
  method: PaymentMethod | null;
  /** Positive, in cents: the sum of `allocations`. */
  amountCents: number;
  /** `YYYY-MM-DD`, SAST: when the money moved, or the waiver was given. */
  paidOn: string;
  /** What the money quoted (a `TB-` reference, a statement line's description); empty when nothing. */
  reference: string;
  /** The admin's words: a waiver's or refund's reason, anything else worth keeping. */
  note: string;
  /** A bank statement line's content hash (`sha256`, hex); null for anything not read from a statement. */
  statementLineKey: string | null;
  recordedBy: { id: string | null; name: string };
  /** UTC ISO. */
  recordedAt: string;
  /** Each booking once; none for a package's payment. */
  allocations: PaymentAllocation[];
  /** The monthly package it pays (common/packages.ts), whole; absent or null for a payment to bookings. */
  packageId?: string | null;
}

/**
 * A bank statement line the admin chose not to record (a transfer of their own, a line not for a session), known
 * by the same content key a recorded line's payment holds (docs/decisions/0056).
 */
export interface IgnoredStatementLine {
  /** The line's content hash (`sha256`, hex). */
  key: string;
  ignoredBy: { id: string | null; name: string };
  /** UTC ISO. */
  ignoredAt: string;
}

/**
 * The payments, in their words (docs/decisions/0026): payments.repository.ts on SQL, payments.firestore.ts on
 * Firestore. A payment is recorded in the bookings' change transaction (payments.usecases.ts), with the sums on
 * each booking it goes to: after `beginChanges`, `find` (a repeat) and `findByStatementLine` with its other
 * reads, then `insert` with its writes.
 */
export interface PaymentsRepository {
  /** Undefined for an id no payment has. */
  find(id: string): Promise<PaymentRecord | undefined>;
  /** The payment recorded from this statement line; undefined when none was. */
  findByStatementLine(key: string): Promise<PaymentRecord | undefined>;
  /** Which of these statement lines (their keys) were recorded before. */
  recordedStatementLines(keys: readonly string[]): Promise<Set<string>>;
  /** Which of these statement lines (their keys) the admin ignored, each with who and when. */
  ignoredStatementLines(keys: readonly string[]): Promise<Map<string, IgnoredStatementLine>>;
  /** Remembers these lines as ignored; a line ignored before keeps who ignored it and when. */
  ignoreStatementLines(lines: readonly IgnoredStatementLine[]): Promise<void>;
  /** Takes these lines' ignores back; a line not ignored stays as it is. */
  unignoreStatementLines(keys: readonly string[]): Promise<void>;
  /** How each bank's statement is read, by bank name. */
  listBankMappings(): Promise<BankMapping[]>;
  /** Remembers how `mapping.bank`'s statements are read: one mapping per bank, its name's case aside. */
  saveBankMapping(mapping: BankMapping, at: string): Promise<void>;
  /** Stores a new payment and its allocations. A duplicate id or statement line throws. */
  insert(payment: PaymentRecord): Promise<void>;
  /** Every payment that went to any of these bookings, oldest first (then by id), each whole. */
  listForBookings(bookingIds: readonly string[]): Promise<PaymentRecord[]>;
  /** Every payment, refund and waiver recorded for any of these packages, oldest first (then by id), each whole. */
  listForPackages(packageIds: readonly string[]): Promise<PaymentRecord[]>;
  /** Payments paid from `from` to `to` (dates, both included), oldest first (then by id): the money's figures. */
  listPaidBetween(from: string, to: string): Promise<PaymentRecord[]>;
  /**
   * Replaces the name of whoever recorded payments or ignored statement lines (a rename, 'Deleted user');
   * `forget` takes their id off.
   */
  setRecorderName(userId: string, name: string, forget: boolean): Promise<void>;
}
