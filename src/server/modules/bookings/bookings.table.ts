import type { Generated } from 'kysely';
import type { BookingCategory, BookingStatus } from '../../../common/bookings.ts';
import type { Role } from '../../../common/roles.ts';

export interface BookingsTable {
  id: string;
  /** Null once the student's account is deleted. */
  user_id: string | null;
  student_name: string;
  student_email: string;
  module_name: string;
  module_category: BookingCategory;
  price_cents_per_hour: number;
  total_cents: number;
  /** `YYYY-MM-DD`, SAST. */
  date: string;
  /** `HH:MM`, SAST. */
  slot1: string;
  slot2: string;
  slot3: string;
  confirmed_slot: string | null;
  /** UTC ISO: the confirmed slot's start, else the earliest requested slot's. */
  starts_at: string;
  hours: number;
  concepts: string;
  status: BookingStatus;
  /** 0 or 1. */
  late_cancellation: number;
  payment_reference: string;
  reminder_sent_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  /** Who confirmed it or was named by the admin (null until then; set null when their account goes). */
  tutor_id: string | null;
  /** Their name as it is now (a rename reaches it); 'Deleted user' once their account is deleted. */
  tutor_name: string | null;
  /** A weekly series' id (its first session's), this session's place from 0, and the count; null for one session. */
  series_id: string | null;
  series_index: number | null;
  series_count: number | null;
  /** A seat's group session (groups.table.ts); null for a session of one. */
  group_id: string | null;
  /** The sums of the payments, refunds and waivers recorded against it (payments.table.ts), in cents. */
  paid_cents: Generated<number>;
  refunded_cents: Generated<number>;
  waived_cents: Generated<number>;
  /** What the session took from a monthly package: JSON of common/package-draw.ts `PackageDraw`; null if nothing. */
  package_draw: Generated<string | null>;
  /** The board question it was booked from (issue 39 §4) and its title then; null for none. */
  question_id: Generated<string | null>;
  question_title: Generated<string | null>;
  /** The tutor's notes after the session: JSON of common/session-notes.ts `SessionNotes`; null until written. */
  session_notes: Generated<string | null>;
  /** When the student agreed to a summary on her question, and when it was posted; null before. */
  summary_consent_at: Generated<string | null>;
  summary_posted_at: Generated<string | null>;
}

/** One change to a booking: the request itself (from null), a confirmation, a status, a cancellation. */
export interface BookingChangesTable {
  id: string;
  booking_id: string;
  /** The booking's version after the change. */
  version: number;
  at: string;
  by_user_id: string | null;
  by_name: string;
  by_role: Role | null;
  from_status: BookingStatus | null;
  to_status: BookingStatus;
  slot: string | null;
  /** A move's `BookingMove` as JSON; null for every other change. */
  move: string | null;
  /** Money recorded (`BookingChange['payment']`) as JSON; null for every other change. */
  payment: string | null;
}
