import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Question } from '../../../common/qa.ts';
import { questionPath } from '../../../common/routes.ts';
import { boardOfModule } from './board-tags.tsx';
import { fetchQuestionPage, questionsTable } from './qa.sync.ts';

const shown = 5;

/**
 * A module's latest questions on the board, for its page (issue 39 §3): asked of the server; offline, the questions
 * of that module this device holds.
 */
export function ModuleQuestions({ slug, name }: { slug: string; name: string }) {
  const headingId = useId();
  const [questions, setQuestions] = useState<Pick<Question, 'id' | 'title' | 'answers'>[] | undefined>();

  useEffect(() => {
    let current = true;
    fetchQuestionPage({ module: slug })
      .then((page) => page.questions)
      .catch(async () => {
        const held = await questionsTable.orderBy('createdAt').reverse().toArray();
        return held.filter((q) => q.module?.slug === slug).map((q) => ({ ...q, answers: [] }));
      })
      .then((found) => current && setQuestions(found.slice(0, shown)))
      .catch(() => current && setQuestions([]));
    return () => {
      current = false;
    };
  }, [slug]);

  return (
    <section aria-labelledby={headingId} className="card mt-6">
      <h2 id={headingId} className="text-lg font-semibold">
        Latest questions on {name}
      </h2>
      {questions === undefined ? (
        <p role="status" className="mt-2 text-slate-700 dark:text-slate-300">
          Loading questions…
        </p>
      ) : questions.length === 0 ? (
        <p className="mt-2 text-slate-700 dark:text-slate-300">No questions about this module yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {questions.map((q) => (
            <li key={q.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
              <Link to={questionPath(q.id)} className="link inline-flex min-h-11 items-center break-words">
                {q.title}
              </Link>
              {q.answers.length > 0 && (
                <span className="text-sm text-slate-600 dark:text-slate-400">
                  {q.answers.length} {q.answers.length === 1 ? 'answer' : 'answers'}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <Link to={boardOfModule(slug)} className="link mt-2 inline-flex min-h-11 items-center">
        All questions on {name}
      </Link>
    </section>
  );
}
