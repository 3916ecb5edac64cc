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
  /** The catalogue module's slug; null for "Other" (migration 0029). */
  module_slug: string | null;
  /** 1: anonymous to classmates (migration 0029). */
  anonymous: Generated<number>;
  /** The text's HTML kept when posted, and the pipeline's version that made it; null: none (migration 0031). */
  html: string | null;
  html_version: number | null;
}

export interface AnswersTable {
  id: string;
  question_id: string;
  user_id: string | null;
  text: string;
  created_at: string;
  /** Who endorsed it (a tutor or the admin) and when; null when nobody did (migration 0029). */
  endorsed_by: string | null;
  endorsed_at: string | null;
  /** As a question's (migration 0031). */
  html: string | null;
  html_version: number | null;
}

export interface QuestionVotesTable {
  question_id: string;
  user_id: string;
  value: 1 | -1;
}

/** A photo of a question (answer_id null) or an answer, with its thumbnail (migration 0028). */
export interface PostPhotosTable {
  id: string;
  question_id: string;
  answer_id: string | null;
  /** Who posted it; the account's deletion deletes it. */
  user_id: string | null;
  /** Its place among the post's photos, from 0. */
  position: number;
  content_type: string;
  bytes: Uint8Array;
  thumb_type: string;
  thumb: Uint8Array;
  created_at: string;
}
