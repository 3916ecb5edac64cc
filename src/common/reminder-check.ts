/**
 * A session whose reminder did not reach its student (issue 38 §4), as the staff's dashboards flag it before the
 * session: `late`, the reminder is due and has not gone out (the reminder scan is not running); `undelivered`,
 * its e-mail failed for good and no push or WhatsApp message went either.
 */
export interface ReminderProblem {
  bookingId: string;
  moduleName: string;
  studentName: string;
  /** The session's date and time, SAST. */
  date: string;
  slot: string;
  reason: 'late' | 'undelivered';
  /** What each channel last said, e.g. `E-mail: 550 Mailbox unavailable`. */
  details: string[];
}

/** How long past its time a reminder may wait for the scan (every minute) before it is flagged late. */
export const reminderGraceMinutes = 10;
