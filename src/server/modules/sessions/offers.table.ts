/** A session offered on a board question (issue 39 §4): one per tutor and question. */
export interface SessionOffersTable {
  question_id: string;
  tutor_id: string;
  /** The tutor's name as it is now (a rename reaches it, as a booking's copy does: docs/decisions/0025). */
  tutor_name: string;
  created_at: string;
}
