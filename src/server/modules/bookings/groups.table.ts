import type { BookingCategory } from '../../../common/bookings.ts';

/** A group session (issue 36): its seats are bookings whose `group_id` names it (bookings.table.ts). */
export interface GroupSessionsTable {
  id: string;
  module_name: string;
  module_category: BookingCategory;
  /** `YYYY-MM-DD` and `HH:MM`, SAST. */
  date: string;
  start: string;
  hours: number;
  seats: number;
  price_cents: number;
  /** The tutor who runs it; the id null once their account is deleted. */
  tutor_id: string | null;
  tutor_name: string;
  /** The seats taken: JSON of `GroupSeat[]` (groups.storage.ts), one per booking not cancelled. */
  taken: string;
  created_at: string;
}
