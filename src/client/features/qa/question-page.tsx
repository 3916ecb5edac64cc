import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { qaMessages, type Question } from '../../../common/qa.ts';
import { questionPath } from '../../../common/routes.ts';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { useServedData } from '../../lib/page-data.tsx';
import { useSession } from '../../lib/session.tsx';
import { FollowButton } from './follow-button.tsx';
import { useQaActions, useQuestion } from './qa-data.ts';
import { htmlOf, KatexSheet } from './post-text.tsx';
import { QuestionCard } from './question-card.tsx';
import { SessionOfferPanel } from './session-offer.tsx';

/** What was served for /qa/<id> (server/modules/qa/qa.pages.ts): the question, or null when there is none. */
export interface ServedQuestion {
  question: Question | null;
}

/** How long a search result's snippet runs: search engines cut descriptions at about this length. */
const descriptionLength = 155;

/** The post's words without Markdown's marks, in one line, cut at a word: the page's description. */
function describe(text: string): string {
  const plain = text
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/[`*_>#~[\]]|\]\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= descriptionLength) return plain;
  const cut = plain.slice(0, descriptionLength - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), descriptionLength / 2))}…`;
}

function BackToBoard() {
  return (
    <Link to="/qa" className="link inline-flex min-h-11 items-center gap-2">
      <ArrowLeft aria-hidden size={18} />
      All questions
    </Link>
  );
}

/**
 * /qa/<id>: one question with its answers, at an address that can be shared and found by search engines. The
 * server renders it with the question (decision 0024); the board's engine keeps it fresh from then on, offline
 * too, and the same votes, answers and staff actions work here as on the board.
 */
export function QuestionPage() {
  const { id = '' } = useParams();
  const served = useServedData<ServedQuestion>();
  const { session } = useSession();
  const me = session.me;
  const found = useQuestion(id, served);
  const actions = useQaActions(me);

  let body: React.ReactNode;
  if (found.status === 'ready') {
    const { question } = found;
    body = (
      <>
        <PageMeta title={question.title} description={describe(question.text)} canonical={questionPath(question.id)} />
        {/* Held for the signed-in from the first render: what comes into it as it is read moves nothing. */}
        {me && (
          <div className="mb-3 flex flex-wrap items-center justify-end gap-3">
            {question.author.id !== me.id && (me.role === 'tutor' || me.role === 'admin') && (
              // Staff's offer, a line of its own on a phone (beside Follow it would not fit).
              <div className="flex min-h-11 basis-full items-center justify-end sm:basis-auto">
                <SessionOfferPanel question={question} me={me} />
              </div>
            )}
            <FollowButton questionId={question.id} />
          </div>
        )}
        <KatexSheet htmls={htmlOf([question])} inPlace />
        {me && question.author.id === me.id && <SessionOfferPanel question={question} me={me} />}
        <QuestionCard question={question} me={me} actions={actions} onItsPage />
      </>
    );
  } else if (found.status === 'missing') {
    body = (
      <div className="card sm:p-8">
        <PageMeta title="Question not found" description={qaMessages.notFound} />
        <h1 className="text-3xl font-bold">Question not found</h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          {qaMessages.notFound} It may have been removed, or the link may be mistyped.
        </p>
        <Link to="/qa" className="btn-primary mt-6">
          See all questions
        </Link>
      </div>
    );
  } else if (found.status === 'unavailable') {
    body = (
      <div className="card flex flex-col items-start gap-4">
        <PageMeta title="Community Q&A" description="A question from the community board." />
        <h1 className="text-2xl font-bold">Community Q&amp;A</h1>
        <Notice tone="error">
          This question could not be loaded. You appear to be offline; it appears here once you have opened it with a
          connection.
        </Notice>
        <button type="button" className="btn-secondary" onClick={found.retry}>
          Try again
        </button>
      </div>
    );
  } else {
    body = (
      <div aria-busy className="space-y-4">
        <PageMeta title="Community Q&A" description="A question from the community board." />
        <p role="status" className="text-slate-700 dark:text-slate-300">
          Loading the question…
        </p>
        <div aria-hidden className="card h-64 animate-pulse bg-slate-100 dark:bg-slate-800" />
      </div>
    );
  }

  return (
    <section className="container-page max-w-3xl py-6 sm:py-10">
      <BackToBoard />
      <div className="mt-4">{body}</div>
    </section>
  );
}
