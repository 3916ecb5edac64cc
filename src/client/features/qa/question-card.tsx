import { MessageSquare, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { questionPath } from '../../../common/routes.ts';
import type { Me } from '../../../common/session.ts';
import { AnswerForm } from './answer-form.tsx';
import { PostText } from './post-text.tsx';
import { PostPhotos } from './post-photos.tsx';
import { AcceptedBadge, Byline, NeedsAttention, VoteButtons } from './post-parts.tsx';
import { AnonymousMark, EndorsedBadge, ModuleTag, shownAuthor } from './board-tags.tsx';
import { orderAnswers } from '../../../common/qa.ts';
import type { AnswerView, QaActions, QuestionView } from './qa-view.ts';

/**
 * One question with its votes, answers and answer form. On the board its title links to the question's own
 * address; `onItsPage`: this is that page, and the title its heading.
 */
export function QuestionCard({
  question,
  me,
  actions,
  onItsPage = false,
}: {
  question: QuestionView;
  me: Me | undefined;
  actions: QaActions;
  onItsPage?: boolean;
}) {
  const titleId = useId();
  const isAdmin = me?.role === 'admin';
  const isStaff = me?.role === 'tutor' || isAdmin;
  const isAsker = me !== undefined && (question.revealed?.mine === true || question.author.id === me.id);
  const count = question.answers.length;
  // The accepted answer first, then the endorsed ones, then the rest oldest first (common/qa.ts, issue 39 §3).
  const answers = orderAnswers(question.answers, question.acceptedAnswerId);
  const target = { table: 'questions', id: question.id } as const;

  return (
    <article id={`q-${question.id}`} aria-labelledby={titleId} className="card">
      {onItsPage ? (
        <h1 id={titleId} className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
          {question.title}
        </h1>
      ) : (
        <h2 id={titleId} className="text-lg font-semibold break-words sm:text-xl">
          <Link to={questionPath(question.id)} className="hover:underline focus-visible:underline">
            {question.title}
          </Link>
        </h2>
      )}
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <ModuleTag module={question.module} />
        <Byline
          author={shownAuthor(question.author, question.revealed)}
          createdAt={question.createdAt}
          pending={question.pending}
        />
        {question.revealed && <AnonymousMark mine={question.revealed.mine} />}
      </div>
      <PostText text={question.text} html={question.html} className="mt-3" />
      <PostPhotos photos={question.photos} previews={question.previews} of="the question" />
      {question.pending?.state === 'attention' && (
        <NeedsAttention
          message={question.pending.message}
          title={question.pending.typed.title ?? question.title}
          text={question.pending.typed.text}
          onRetry={(edited) => actions.retry(target, edited)}
          onDiscard={() => actions.discard(target)}
        />
      )}

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <VoteButtons
          upvotes={question.upvotes}
          downvotes={question.downvotes}
          myVote={question.myVote}
          title={question.title}
          onVote={(value) => actions.vote(question, value)}
        />
        <span className="inline-flex items-center gap-1 text-sm text-slate-700 dark:text-slate-300">
          <MessageSquare aria-hidden size={16} /> {count} {count === 1 ? 'answer' : 'answers'}
        </span>
        {isAdmin && !question.pending && (
          <button
            type="button"
            className="btn-secondary ml-auto text-red-700 dark:text-red-400"
            onClick={() => actions.deleteQuestion(question)}
          >
            <Trash2 aria-hidden size={18} /> Delete question
          </button>
        )}
      </div>

      {answers.length > 0 && (
        <section
          aria-label={`Answers to "${question.title}"`}
          className="mt-4 border-t border-slate-200 pt-2 dark:border-slate-800"
        >
          <ol className="divide-y divide-slate-200 dark:divide-slate-800">
            {answers.map((answer) => (
              <AnswerItem
                key={answer.id}
                question={question}
                answer={answer}
                accepted={answer.id === question.acceptedAnswerId}
                canAccept={isAsker && !question.pending && !answer.pending}
                canEndorse={isStaff && !answer.pending}
                canDelete={isAdmin && !answer.pending}
                actions={actions}
              />
            ))}
          </ol>
        </section>
      )}
      <AnswerForm
        questionTitle={question.title}
        signedIn={me !== undefined}
        onAnswer={(text, photos) => actions.answer(question, text, photos)}
      />
    </article>
  );
}

function AnswerItem(props: {
  question: QuestionView;
  answer: AnswerView;
  accepted: boolean;
  canAccept: boolean;
  canEndorse: boolean;
  canDelete: boolean;
  actions: QaActions;
}) {
  const { question, answer, accepted, canAccept, canEndorse, canDelete, actions } = props;
  const endorsed = answer.endorsed === true;
  const target = { table: 'answers', id: answer.id } as const;
  return (
    <li className={`py-3 ${accepted ? '-mx-2 rounded-lg bg-emerald-50 px-2 dark:bg-emerald-950' : ''}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Byline
          author={shownAuthor(answer.author, answer.byAsker ? question.revealed : undefined)}
          createdAt={answer.createdAt}
          pending={answer.pending}
        />
        {accepted && <AcceptedBadge />}
        {endorsed && <EndorsedBadge />}
      </div>
      <PostText text={answer.text} html={answer.html} className="mt-2" />
      <PostPhotos photos={answer.photos} previews={answer.previews} of={`the answer by ${answer.author.name}`} />
      {answer.pending?.state === 'attention' && (
        <NeedsAttention
          message={answer.pending.message}
          text={answer.pending.typed.text}
          onRetry={(edited) => actions.retry(target, edited)}
          onDiscard={() => actions.discard(target)}
        />
      )}
      {(canAccept || canEndorse || canDelete) && (
        <div className="mt-2 flex flex-wrap gap-2">
          {canAccept && (
            <button
              type="button"
              className="btn-secondary"
              onClick={() => actions.accept(question, accepted ? null : answer.id)}
            >
              {accepted ? 'Unmark accepted' : 'Accept this answer'}
            </button>
          )}
          {canEndorse && (
            <button
              type="button"
              className="btn-secondary"
              onClick={() => actions.endorse(question, answer, !endorsed)}
            >
              {endorsed ? 'Withdraw endorsement' : 'Endorse'}
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              className="btn-secondary text-red-700 dark:text-red-400"
              onClick={() => actions.deleteAnswer(question, answer)}
            >
              <Trash2 aria-hidden size={18} /> Delete answer
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The user's answers whose question was deleted while they waited to be sent: they cannot go anywhere, but what
 * was written stays on show, to copy or discard, until the user says so.
 */
export function StrandedAnswers({ answers, actions }: { answers: AnswerView[]; actions: QaActions }) {
  const titleId = useId();
  if (answers.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="card">
      <h2 id={titleId} className="text-lg font-semibold sm:text-xl">
        Your answers to removed questions
      </h2>
      <ol className="divide-y divide-slate-200 dark:divide-slate-800">
        {answers.map((answer) => (
          <li key={answer.id} className="py-3">
            <Byline author={answer.author} createdAt={answer.createdAt} pending={answer.pending} />
            {answer.pending?.state === 'attention' ? (
              <NeedsAttention
                message={answer.pending.message}
                text={answer.pending.typed.text}
                onDiscard={() => actions.discard({ table: 'answers', id: answer.id })}
              />
            ) : (
              <PostText text={answer.text} html={answer.html} className="mt-2" />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
