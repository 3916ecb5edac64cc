import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { qaLimits, telling, type SimilarQuestion } from '../../../common/qa.ts';
import { questionPath } from '../../../common/routes.ts';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { answersTable, questionsTable } from './qa.sync.ts';

/**
 * The questions most like the title being typed, with their answer counts (issue 39 §3): asked of the server a
 * moment after the typing stops; offline, looked for among the questions this device holds, by the same words.
 */
export function SimilarQuestions({ title }: { title: string }) {
  const [found, setFound] = useState<{ title: string; questions: SimilarQuestion[] }>({ title: '', questions: [] });
  const headingId = useId();
  const trimmed = title.trim();
  const ready = trimmed.length >= qaLimits.similarMinChars;

  useEffect(() => {
    if (!ready) return;
    let current = true;
    const timer = setTimeout(() => {
      void lookUp(trimmed).then((questions) => current && setFound({ title: trimmed, questions }));
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [trimmed, ready]);

  const questions = ready ? found.questions : [];
  if (questions.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <h3 id={headingId} className="text-sm font-semibold">
        Already asked? Similar questions
      </h3>
      <ul className="mt-1 space-y-1 text-sm">
        {questions.map((q) => (
          <li key={q.id} className="flex flex-wrap items-baseline gap-x-2">
            <Link to={questionPath(q.id)} className="link inline-flex min-h-11 items-center break-words sm:min-h-0">
              {q.title}
            </Link>
            <span className="text-slate-600 dark:text-slate-400">
              {q.answerCount} {q.answerCount === 1 ? 'answer' : 'answers'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

async function lookUp(title: string): Promise<SimilarQuestion[]> {
  try {
    const response = await client.api.questions.similar.$get({ query: { title } });
    return (await readJson(response)).questions;
  } catch {
    return onDevice(title);
  }
}

/** Offline: the device's questions ranked by how many of the title's telling words they hold, as the server does. */
async function onDevice(title: string): Promise<SimilarQuestion[]> {
  const words = telling(title);
  if (words.length === 0) return [];
  const held = await questionsTable.toArray();
  const scored = held
    .map((q) => {
      const text = `${q.title}\n${q.text}`.toLowerCase();
      return { q, score: words.filter((w) => text.includes(w)).length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.q.createdAt < b.q.createdAt ? 1 : -1))
    .slice(0, qaLimits.similarMax);
  return Promise.all(
    scored.map(async ({ q }) => ({
      id: q.id,
      title: q.title,
      answerCount: await answersTable.where('questionId').equals(q.id).count(),
      module: q.module ?? null,
    })),
  );
}
