import type { Question, VoteValue } from '../../../common/qa.ts';
import type { AnswerRow, LocalPhoto } from './qa.sync.ts';

/**
 * How an item the user wrote stands in the outbox: shown on the post itself until the server has it. A refused
 * item carries the words as typed: the row may by then hold the server's copy of something else.
 */
export type PendingState =
  { state: 'waiting' } | { state: 'attention'; message: string; typed: { title?: string | undefined; text: string } };

/**
 * `html`: the server's rendering of the text, absent while the post waits to be sent (decision 0060); `previews`:
 * the thumbnails made on this device for a post still waiting to be sent (qa.sync.ts).
 */
export type AnswerView = AnswerRow & { pending?: PendingState | undefined; previews?: string[] };

/** A question as the board shows it: its answers (accepted first, then oldest first) and its outbox state. */
export type QuestionView = Omit<Question, 'answers' | 'version' | 'html'> & {
  html?: string | undefined;
  answers: AnswerView[];
  pending?: PendingState | undefined;
  previews?: string[];
};

/** What the board can do; each checks who is signed in and says the spec's message when nobody is. */
export interface QaActions {
  vote(question: QuestionView, value: VoteValue): void;
  /** Resolves once the answer is saved on the device (queued); rejects with a message the form shows. */
  answer(question: QuestionView, text: string, photos?: LocalPhoto[]): Promise<void>;
  accept(question: QuestionView, answerId: string | null): void;
  /** A tutor or the admin endorses an answer, or withdraws it (needs the connection). */
  endorse(question: QuestionView, answer: AnswerView, endorsed: boolean): void;
  deleteQuestion(question: QuestionView): void;
  deleteAnswer(question: QuestionView, answer: AnswerView): void;
  /** For an item that needs attention: send it again (edited), or drop it. */
  retry(target: { table: 'questions' | 'answers'; id: string }, edited?: { title?: string; text: string }): void;
  discard(target: { table: 'questions' | 'answers'; id: string }): void;
}
