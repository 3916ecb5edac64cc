import type { BookingCategory } from '../../../common/bookings.ts';
import type { LateCancelCount } from '../../../common/packages.ts';

/** An offer of the admin's (db/migrations/0025-packages.ts). */
export interface PackageOffersTable {
  id: string;
  /** JSON: common/packages.ts `PackageOffer`. */
  offer: string;
}

/** A package a student bought. */
export interface PackagesTable {
  id: string;
  offer_id: string;
  name: string;
  category: BookingCategory;
  module_name: string | null;
  minutes: number;
  used_minutes: number;
  price_cents: number;
  /** 1 when unused hours carry over to the next month. */
  carry_over: number;
  late_cancel: LateCancelCount;
  /** Null once the student's account is deleted. */
  student_id: string | null;
  student_name: string;
  student_email: string;
  /** `YYYY-MM`; sessions dated up to `valid_until` draw from it. */
  month: string;
  valid_until: string;
  payment_reference: string;
  paid_cents: number;
  refunded_cents: number;
  waived_cents: number;
  created_at: string;
}
