import type { Generated } from 'kysely';

export interface QuestionsTable {
  id: string;
  /** Null once the author's account is deleted. */
  user_id: string | null;
  title: string;
  text: string;
  /** Title and text lower-cased (by `toSearchText`), for the board's case-insensitive search. */
  search: string;
  created_at: string;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  /** The counts a question brought from the old site, whose voters are unknown (migration 0008). */
  imported_upvotes: Generated<number>;
  imported_downvotes: Generated<number>;
  accepted_answer_id: string | null;
  version: number;
  /** Set on a deleted question (a tombstone, so incremental sync can report it). */
  deleted_at: string | null;
}

export interface AnswersTable {
  id: string;
  question_id: string;
  user_id: string | null;
  text: string;
  created_at: string;
}

export interface QuestionVotesTable {
  question_id: string;
  user_id: string;
  value: 1 | -1;
}
