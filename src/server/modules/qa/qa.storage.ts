import type { Role } from '../../../common/roles.ts';

/** Who posted, as the board names them; a post whose author's account is gone has none (null). */
export interface PostAuthor {
  id: string;
  name: string;
  role: Role;
}

/** A question as the board's rules check it: who asked, what, and whether it is still there. */
export interface QuestionRecord {
  id: string;
  /** Null once the asker's account is deleted. */
  userId: string | null;
  title: string;
  text: string;
  acceptedAnswerId: string | null;
  /** Set on a deleted question: a tombstone, so incremental sync can report it. */
  deletedAt: string | null;
}

/** An answer as the board's rules check it. */
export interface AnswerRecord {
  id: string;
  questionId: string;
  /** Null once the author's account is deleted. */
  userId: string | null;
  text: string;
}

/** A question as the board shows it, before its answers and the reader's vote are added. */
export interface BoardQuestion {
  id: string;
  title: string;
  text: string;
  author: PostAuthor | null;
  createdAt: string;
  upvotes: number;
  downvotes: number;
  acceptedAnswerId: string | null;
  /** The board's version of the question's last change. */
  version: number;
  deletedAt: string | null;
}

/** An answer as the board shows it. */
export interface BoardAnswer {
  id: string;
  questionId: string;
  text: string;
  author: PostAuthor | null;
  createdAt: string;
}

export interface NewQuestion {
  id: string;
  userId: string;
  title: string;
  text: string;
  /** Title and text lower-cased (the usecases' `toSearchText`), what `listPage`'s search looks in. */
  searchText: string;
  createdAt: string;
  version: number;
}

export interface NewAnswer {
  id: string;
  questionId: string;
  userId: string;
  text: string;
  createdAt: string;
}

/** A vote as stored: up (1) or down (-1); withdrawing one removes it. */
export interface StoredVote {
  questionId: string;
  value: 1 | -1;
}

/** The user's own questions, answers and votes, for the data export. */
export interface OwnQuestion {
  id: string;
  title: string;
  text: string;
  createdAt: string;
  upvotes: number;
  downvotes: number;
  acceptedAnswerId: string | null;
  deletedAt: string | null;
}

export interface OwnAnswer {
  id: string;
  questionId: string;
  text: string;
  createdAt: string;
}

/** Where a page of the board starts: after the question with this creation time and id (newest first). */
export interface BoardPosition {
  createdAt: string;
  id: string;
}

/**
 * The Q&A board's storage, in the board's words (docs/decisions/0026): questions, answers and one vote per
 * user and question. Each engine implements it: qa.repository.ts on SQL.
 *
 * Every change to the board takes versions first (`takeVersions`), inside its transaction: that is the
 * board's serialisation point, so changes commit one after another in version order and a check followed by a
 * write (a client id already used, the rate limit) cannot race another writer.
 */
export interface QaRepository {
  /**
   * Reserves `count` new versions of the board and returns the first; the others follow it. Holds the board
   * until the transaction ends (db/versions.ts says why), so call it first in every transaction that changes
   * the board. `count` 0 only takes the hold.
   */
  takeVersions(count: number): Promise<number>;
  /** The board's committed version: every change at or below it has committed. Does not wait for a writer. */
  readVersion(): Promise<number>;

  findQuestion(id: string): Promise<QuestionRecord | undefined>;
  findAnswer(id: string): Promise<AnswerRecord | undefined>;
  /** How many questions and answers the user posted after `since` (an ISO time), for the rate limit. */
  countPostsSince(userId: string, since: string): Promise<number>;

  insertQuestion(question: NewQuestion): Promise<void>;
  insertAnswer(answer: NewAnswer): Promise<void>;
  /** Gives the question the version of the change just made to it, its answers or its votes. */
  setVersion(questionId: string, version: number): Promise<void>;
  /**
   * Sets (1, -1) or withdraws (0) the user's vote on the question, and counts the question's votes again, so
   * its counts always equal the stored votes plus those it brought from the old site (migration 0008).
   */
  setVote(questionId: string, userId: string, value: 1 | -1 | 0): Promise<void>;
  setAcceptedAnswer(questionId: string, answerId: string | null): Promise<void>;
  /** Leaves the question as a tombstone (deleted at `at`), so every client learns it went. */
  markQuestionDeleted(questionId: string, at: string): Promise<void>;
  /** Deletes the answer, and un-accepts it if it was the question's accepted one. */
  deleteAnswer(questionId: string, answerId: string): Promise<void>;

  /**
   * A page of the board, newest first (by creation time, then id), after `after`, without deleted questions.
   * `search`, already lower-cased like `NewQuestion.searchText`, keeps the questions whose title or text
   * contains it as it is (`%` and `_` are plain characters).
   */
  listPage(options: { search?: string; after?: BoardPosition; limit: number }): Promise<BoardQuestion[]>;
  /** Questions changed after `version` (deleted ones too), in the order they changed. */
  listChangedSince(version: number, limit: number): Promise<BoardQuestion[]>;
  /** The question as the board shows it, deleted or not. */
  findBoardQuestion(id: string): Promise<BoardQuestion | undefined>;
  /** The answers to these questions, oldest first. */
  listAnswers(questionIds: readonly string[]): Promise<BoardAnswer[]>;
  findBoardAnswer(id: string): Promise<BoardAnswer | undefined>;
  /** The user's votes on these questions (those without one are left out). */
  votesOn(userId: string, questionIds: readonly string[]): Promise<StoredVote[]>;

  /** The user's questions, deleted ones too, oldest first. */
  listQuestionsBy(userId: string): Promise<OwnQuestion[]>;
  /** The user's answers, oldest first. */
  listAnswersBy(userId: string): Promise<OwnAnswer[]>;
  /** Every vote the user cast, by question id. */
  listVotesBy(userId: string): Promise<StoredVote[]>;
  /** The questions the user asked or answered, in no particular order. */
  listQuestionIdsPostedOn(userId: string): Promise<string[]>;
  /**
   * Withdraws every vote the user cast, counts those questions' votes again (as `setVote` does) and returns
   * their ids.
   */
  withdrawVotesOf(userId: string): Promise<string[]>;
}
