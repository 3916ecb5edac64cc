import type { Position, Stamp } from '../../../common/positions.ts';
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
  /** The catalogue module's slug it is tagged with; null for "Other" (a session offered on it books that module). */
  moduleSlug: string | null;
  /** Anonymous to classmates: what it causes (an accepted answer's notice) must not name the asker either. */
  anonymous: boolean;
  /** Set on a deleted question: a tombstone, so incremental sync can report it. */
  deletedAt: string | null;
  /** The board's version of the question's last change: what a change to it must go above (`takeStamps`). */
  version: number;
}

/** An answer as the board's rules check it. */
export interface AnswerRecord {
  id: string;
  questionId: string;
  /** Null once the author's account is deleted. */
  userId: string | null;
  text: string;
  /** Endorsed by a tutor or the admin (issue 39 §3). */
  endorsed: boolean;
}

/**
 * A post's HTML as the board's pipeline rendered it when it was posted (qa.rendering.ts, decision 0064), and the
 * pipeline's version then (common/post-html.ts `postHtmlVersion`).
 */
export interface StoredHtml {
  html: string;
  version: number;
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
  /** The catalogue module's slug it is tagged with; null for "Other". */
  moduleSlug: string | null;
  /** Posted anonymously to classmates: `author` is still the real one, which the usecases show only to some. */
  anonymous: boolean;
  /** Its text's HTML kept when posted; null when none was (a post from before, imported, or too long to keep). */
  storedHtml: StoredHtml | null;
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
  endorsed: boolean;
  /** As a question's. */
  storedHtml: StoredHtml | null;
}

export interface NewQuestion {
  id: string;
  /** Null for a question imported from the old site whose author's account is gone. */
  userId: string | null;
  title: string;
  text: string;
  /** Title and text lower-cased (the usecases' `toSearchText`), what `listPage`'s search looks in. */
  searchText: string;
  /** The catalogue module's slug; null or absent for "Other". */
  moduleSlug?: string | null;
  /** Anonymous to classmates (issue 39 §3); absent: not. */
  anonymous?: boolean;
  /** The text's HTML to keep; null or absent: none (the post is rendered when read). */
  storedHtml?: StoredHtml | null;
  createdAt: string;
  stamp: Stamp;
  /**
   * The old site's up and down counts (the Firebase import), whose voters are unknown: the question starts
   * with them, and votes cast here add to them (migration 0008).
   */
  importedVotes?: { upvotes: number; downvotes: number };
}

export interface NewAnswer {
  id: string;
  questionId: string;
  /** Null for an answer imported from the old site whose author's account is gone. */
  userId: string | null;
  text: string;
  /** As a new question's. */
  storedHtml?: StoredHtml | null;
  createdAt: string;
}

/** A vote as stored: up (1) or down (-1); withdrawing one removes it. */
export interface StoredVote {
  questionId: string;
  value: 1 | -1;
}

/** A photo of a post, as a list names it: which post it is on (answerId null: the question's). */
export interface PhotoRef {
  id: string;
  questionId: string;
  answerId: string | null;
}

/** A photo to store with its post, in the post's transaction; the bytes are checked already (qa.photos.ts). */
export interface NewPhoto extends PhotoRef {
  userId: string;
  /** Its place among the post's photos, from 0. */
  position: number;
  contentType: string;
  bytes: Uint8Array;
  thumbType: string;
  thumb: Uint8Array;
  createdAt: string;
}

/** One size of a stored photo, and the post it is on (who may see it follows the post). */
export interface StoredPhoto extends PhotoRef {
  contentType: string;
  bytes: Uint8Array;
}

/** A photo the user posted, for the data export. */
export interface OwnPhoto extends PhotoRef {
  contentType: string;
  size: number;
  createdAt: string;
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
  moduleSlug: string | null;
  anonymous: boolean;
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

/** A page of the board's changes since a position (`listChangedSince`). */
export interface BoardChanges {
  /** The questions changed (deleted ones too), in the order the engine numbers them. */
  questions: BoardQuestion[];
  /** What the answer reflects: every change it covers is in it or in an earlier answer (the next `since`). */
  position: Position;
  /** The limit cut the answer: ask again from `position` for the rest. */
  more: boolean;
}

/**
 * The Q&A board's storage, in the board's words (docs/decisions/0026): questions, answers and one vote per
 * user and question. Each engine implements it: qa.repository.ts on SQL, qa.firestore.ts on Firestore.
 *
 * Every transaction that changes the board has one shape, which both engines can run (Firestore allows no
 * read after a write, and may run the transaction again): `beginChanges()` first, then its reads, then
 * `takeStamps` (after every read), then its writes, each given a stamp. On SQL `beginChanges` locks the
 * board's counter: changes commit one after another in version order, and a check followed by a write (a
 * client id already used, the rate limit) cannot race another writer. On Firestore the transaction's reads
 * guard the same checks, and the stamps come from sharded counters (docs/decisions/0027).
 */
/** A user's posts on the board, by id (`QaRepository.listPostsBy`). */
export interface PostsBy {
  questionIds: string[];
  answers: { id: string; questionId: string }[];
  /** The answers the user endorsed (a tutor or the admin): the endorsement stays, without who made it. */
  endorsedAnswerIds: string[];
}

export interface QaRepository {
  /**
   * The first call of every transaction that changes the board: SQL holds the board from here to the end (on
   * SQLite, from the transaction's start: it holds the database's write lock).
   */
  beginChanges(): Promise<void>;
  /**
   * `count` new stamps for the documents this transaction writes, in order. Call it after every read of the
   * transaction and before its writes; `above` are the versions the questions it changes hold now (read in
   * this transaction; a question it creates has none), which each stamp goes above.
   */
  takeStamps(count: number, above?: readonly number[]): Promise<Stamp[]>;
  /** The board's committed position: every change it covers has committed. Does not wait for a writer. */
  readPosition(): Promise<Position>;

  findQuestion(id: string): Promise<QuestionRecord | undefined>;
  findAnswer(id: string): Promise<AnswerRecord | undefined>;
  /** How many questions and answers the user posted after `since` (an ISO time), for the rate limit. */
  countPostsSince(userId: string, since: string): Promise<number>;
  /** The user's vote on the question, 0 when none: read before `setVote`, in its transaction. */
  findVote(questionId: string, userId: string): Promise<1 | -1 | 0>;
  /** The versions of these questions, in the same order (0 for one that does not exist). */
  versionsOf(questionIds: readonly string[]): Promise<number[]>;

  insertQuestion(question: NewQuestion): Promise<void>;
  insertAnswer(answer: NewAnswer): Promise<void>;
  /** The counts the question brought from the old site (`NewQuestion.importedVotes`); undefined without it. */
  importedVotesOf(questionId: string): Promise<{ upvotes: number; downvotes: number } | undefined>;
  /**
   * An imported question brought up to date with the old site (a later run of the Firebase import): its title,
   * text and search text, and its old-site counts, replacing `before` (what `importedVotesOf` read in this
   * transaction); votes cast here stay added to them. HTML kept for the old text is dropped.
   */
  updateImportedQuestion(
    questionId: string,
    changes: Pick<NewQuestion, 'title' | 'text' | 'searchText'> & {
      importedVotes: { upvotes: number; downvotes: number };
    },
    before: { upvotes: number; downvotes: number },
    stamp: Stamp,
  ): Promise<void>;
  /** An imported answer's text brought up to date (HTML kept for the old one dropped); the import gives its question a new stamp. */
  updateImportedAnswer(answerId: string, text: string): Promise<void>;
  /** Gives the question the stamp of the change just made to it, its answers or its votes. */
  setVersion(questionId: string, stamp: Stamp): Promise<void>;
  /**
   * Sets (1, -1) or withdraws (0) the user's vote on the question, replacing `before` (what `findVote` read in
   * this transaction), and counts the question's votes again, so its counts always equal the stored votes plus
   * those it brought from the old site (migration 0008).
   */
  setVote(questionId: string, userId: string, value: 1 | -1 | 0, before: 1 | -1 | 0): Promise<void>;
  setAcceptedAnswer(questionId: string, answerId: string | null): Promise<void>;
  /** Endorses the answer (by this tutor or admin, at this time), or withdraws its endorsement (null). */
  setEndorsement(answerId: string, endorsement: { userId: string; at: string } | null): Promise<void>;
  /** Leaves the question as a tombstone (deleted at `at`), so every client learns it went. */
  markQuestionDeleted(questionId: string, at: string): Promise<void>;
  /** Deletes the answer, and un-accepts it if it was the question's accepted one (as read in this transaction). */
  deleteAnswer(question: QuestionRecord, answerId: string): Promise<void>;

  /**
   * A page of the board, newest first (by creation time, then id), after `after`, without deleted questions.
   * `search`, already lower-cased like `NewQuestion.searchText`, keeps the questions whose title or text
   * contains it as it is (`%` and `_` are plain characters). `moduleSlug` keeps the questions tagged with that
   * module, or with none ("Other") when null; undefined keeps all.
   */
  listPage(options: {
    search?: string;
    moduleSlug?: string | null;
    after?: BoardPosition;
    limit: number;
  }): Promise<BoardQuestion[]>;
  /** At most `limit` questions changed since the position (deleted ones too), and the answer's position. */
  listChangedSince(since: Position, limit: number): Promise<BoardChanges>;
  /** The question as the board shows it, deleted or not. */
  findBoardQuestion(id: string): Promise<BoardQuestion | undefined>;
  /** The answers to these questions, oldest first. */
  listAnswers(questionIds: readonly string[]): Promise<BoardAnswer[]>;
  findBoardAnswer(id: string): Promise<BoardAnswer | undefined>;
  /** The live anonymous questions, or those of one asker (`userId`), in no order: for `revealed` (usecases). */
  listAnonymous(userId?: string): Promise<BoardQuestion[]>;
  /** The user's votes on these questions (those without one are left out). */
  votesOn(userId: string, questionIds: readonly string[]): Promise<StoredVote[]>;

  /** The user's questions, deleted ones too, oldest first. */
  listQuestionsBy(userId: string): Promise<OwnQuestion[]>;
  /** The user's answers, oldest first. */
  listAnswersBy(userId: string): Promise<OwnAnswer[]>;
  /** Every vote the user cast, by question id. */
  listVotesBy(userId: string): Promise<StoredVote[]>;
  /** What the user posted: the questions they asked, and their answers with the question each is on. */
  listPostsBy(userId: string): Promise<PostsBy>;
  /**
   * Leaves the user's posts (`posts`, as `listPostsBy` read them in this transaction) without an author: they
   * read "Deleted user" from now on, and hold nothing that ties them to the person or to each other; the answers
   * they endorsed stay endorsed, by nobody named; and nothing counts the user's posts for the rate limit any more.
   */
  forgetAuthor(userId: string, posts: PostsBy): Promise<void>;
  /**
   * Withdraws `votes`, every vote the user cast (`listVotesBy`, read in this transaction), and counts those
   * questions' votes again (as `setVote` does).
   */
  withdrawVotes(userId: string, votes: readonly StoredVote[]): Promise<void>;

  /** Stores a post's photos (written after the post itself, in its transaction). */
  insertPhotos(photos: readonly NewPhoto[]): Promise<void>;
  /** The photos of these questions and of their answers, each post's in order. */
  listPhotos(questionIds: readonly string[]): Promise<PhotoRef[]>;
  /** One size of the photo, or undefined when there is none. */
  findPhoto(id: string, size: 'full' | 'thumb'): Promise<StoredPhoto | undefined>;
  /** The photos the user posted, oldest first. */
  listPhotosBy(userId: string): Promise<OwnPhoto[]>;
  /** Deletes these photos (as `listPhotos` or `listPhotosBy` read them in this transaction), bytes and all. */
  deletePhotos(photos: readonly PhotoRef[]): Promise<void>;
}
