import { Search } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { qaMessages, type QuestionPage } from '../../../common/qa.ts';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { awaitsStoredUser } from '../../lib/engine-wanted.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { useServedData } from '../../lib/page-data.tsx';
import { useSession } from '../../lib/session.tsx';
import { AskForm } from './ask-form.tsx';
import type { ModuleChoice } from './ask-choices.tsx';
import { ModuleFilter } from './module-filter.tsx';
import { useQaActions, useQaBoard } from './qa-data.ts';
import { htmlOf, KatexSheet } from './post-text.tsx';
import { QuestionCard, StrandedAnswers } from './question-card.tsx';

/**
 * /qa (spec §2 Q&A board, §5, §6): visitors read; signed-in users ask, answer and vote, online or not (what they
 * write waits on the device and is sent when the connection returns). Others' posts appear live. Each question
 * links to its own address (/qa/<id>, question-page.tsx).
 */
export function QaPage({ modules = [] }: { modules?: readonly ModuleChoice[] }) {
  const { session } = useSession();
  const me = session.me;
  const [search, setSearch] = useState('');
  // The module filter lives in the address (`/qa?module=<slug>`), which a question's tag and a module's page link to.
  const [params, setParams] = useSearchParams();
  const module = params.get('module') ?? undefined;
  // Typing stays responsive on a slow phone: the list filters a beat behind the keystrokes.
  const query = useDeferredValue(search.trim());
  // A visitor's board arrives rendered with its first page (decision 0024).
  const board = useQaBoard(query, useServedData<QuestionPage>(), module);
  const actions = useQaActions(me);
  const hydrated = useHydrated();
  // When the list changes, React renders it in the background, yielding to the browser: on a slow phone the
  // board's cards are the costliest render, first when the device's copy replaces the one the server rendered
  // with (the same questions), and the old list stays on screen meanwhile (decision 0024). The stranded answers
  // wait with the cards: one of them moves there from its deleted question's card, never shown in both.
  const { questions, stranded } = useDeferredValue(board.posts);
  const cards = useMemo(
    () => questions.map((question) => <QuestionCard key={question.id} question={question} me={me} actions={actions} />),
    [questions, me, actions],
  );
  const htmls = useMemo(() => htmlOf(questions), [questions]);

  return (
    <section className="container-page max-w-3xl py-10">
      <PageMeta
        title="Community Q&A"
        description="Ask questions about programming, IT, statistics and maths, and answer other students."
      />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Community Q&amp;A</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">Ask, answer and vote. Tutors answer here too.</p>

      <div className="mt-6">
        <AskForm
          signedIn={me !== undefined}
          settling={session.status === 'loading' && awaitsStoredUser()}
          onAsk={actions.ask}
          modules={modules}
        />
      </div>

      <div role="search" className="relative mt-8">
        <label htmlFor="qa-search" className="sr-only">
          Search questions
        </label>
        <Search
          aria-hidden
          size={20}
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
        />
        <input
          id="qa-search"
          type="search"
          className="input pl-10"
          placeholder="Search questions"
          // Rendered at build time for signed-in users (docs/decisions/0013): typing counts once hydrated.
          disabled={!hydrated}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>

      <ModuleFilter
        modules={modules}
        value={module}
        disabled={!hydrated}
        onChange={(slug) => setParams(slug ? { module: slug } : {}, { replace: true })}
      />

      {board.status === 'stale' && (
        <Notice tone="offline" className="mt-4">
          You are offline. Showing the questions as they were when you last had a connection; what you post is sent when
          it returns.
        </Notice>
      )}

      {/* Before the posts, after the heading and the forms, which show without waiting for it. */}
      <KatexSheet htmls={htmls} inPlace />
      <div className="mt-6 space-y-4" aria-busy={board.status === 'loading'}>
        <StrandedAnswers answers={stranded} actions={actions} />
        {board.status === 'loading' ? (
          <>
            <p role="status" className="text-slate-700 dark:text-slate-300">
              Loading questions…
            </p>
            {[0, 1, 2].map((i) => (
              <div key={i} aria-hidden className="card h-40 animate-pulse bg-slate-100 dark:bg-slate-800" />
            ))}
          </>
        ) : board.status === 'unavailable' ? (
          <div className="card flex flex-col items-start gap-4">
            <Notice tone="error">
              The questions could not be loaded. You appear to be offline; they appear here once you have opened this
              page with a connection.
            </Notice>
            <button type="button" className="btn-secondary" onClick={board.retry}>
              Try again
            </button>
          </div>
        ) : questions.length === 0 ? (
          <p role="status" className="card text-slate-700 dark:text-slate-300">
            {board.searching ? 'Searching…' : qaMessages.empty}
          </p>
        ) : (
          cards
        )}
      </div>

      {board.hasMore && questions.length > 0 && (
        <div className="mt-6 flex justify-center">
          <button type="button" className="btn-secondary" disabled={board.loadingMore} onClick={board.loadMore}>
            {board.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </section>
  );
}
