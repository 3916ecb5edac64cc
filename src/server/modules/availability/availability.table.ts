export interface TutorAvailabilityTable {
  /** The tutor's user id (`users.id`); the row goes with the account. */
  tutor_id: string;
  /** JSON text: seven lists of `{ start, end }`, Monday first (`Availability.weekly`). */
  weekly: string;
  /** JSON text: a list of `YYYY-MM-DD`. */
  days_off: string;
  buffer_minutes: number;
  updated_at: string;
}
