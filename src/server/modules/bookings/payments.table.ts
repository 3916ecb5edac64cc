import type { Generated } from 'kysely';
import type { PaymentKind, PaymentMethod } from '../../../common/payments.ts';

/** A payment, refund or waiver (db/migrations/0022-payments.ts). */
export interface PaymentsTable {
  id: string;
  kind: PaymentKind;
  /** Null for a waiver. */
  method: PaymentMethod | null;
  /** Positive, in cents. */
  amount_cents: number;
  /** `YYYY-MM-DD`, SAST: when the money moved (or the waiver was given). */
  paid_on: string;
  reference: string;
  note: string;
  /** A bank statement line's content hash; null for anything not read from a statement. Unique. */
  statement_line_key: string | null;
  /** Null once the account is deleted. */
  recorded_by_id: string | null;
  recorded_by_name: string;
  recorded_at: string;
  /** The package it pays (db/migrations/0025-packages.ts); null for a payment to bookings. */
  package_id: Generated<string | null>;
}

/** What part of a payment went to which booking. */
export interface PaymentAllocationsTable {
  payment_id: string;
  booking_id: string;
  amount_cents: number;
}

/** A bank statement line the admin ignored (db/migrations/0024-ignored-statement-lines.ts). */
export interface IgnoredStatementLinesTable {
  /** The line's content hash, as a payment's `statement_line_key`. */
  line_key: string;
  /** Null once the account is deleted. */
  ignored_by_id: string | null;
  ignored_by_name: string;
  ignored_at: string;
}

/** How one bank's statement is read (db/migrations/0023-bank-mappings.ts). */
export interface BankMappingsTable {
  /** The bank's name, lower-cased. */
  bank_key: string;
  /** JSON: common/statements.ts `BankMapping`. */
  mapping: string;
  updated_at: string;
}
