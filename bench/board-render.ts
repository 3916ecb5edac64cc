import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import katex from 'katex';
import type { ServedPageData } from '../src/common/page-html.ts';
import { createPostRenderer } from '../src/common/post-html.ts';
import type { Question, QuestionPage } from '../src/common/qa.ts';
import { recordResults, type Measurement } from './results.ts';

/**
 * The board's page with maths and code, rendered on the server (issue 39 §1), a report (always exits 0). Needs
 * `npm run build` (it runs the app's server build, dist/ssr, as the server does), in production mode. A page of
 * 20 questions with an answer each, with maths and code (a formula in the sentence, one on its own line, a Java
 * block; the answer a formula and Python), beside the same page in plain words as long:
 * A. each post's HTML known, as the server reads it: kept with the post when it was posted (decision 0064), or
 *    rendered once by this process (qa.rendering.ts): the page rendered by React. Goal: median under 20 ms; B the
 *    same for the plain page.
 * C. its 40 posts with no HTML kept (posted before 0064, imported, or too long to keep) and new to the process
 *    (after a restart): each through the pipeline (common/post-html.ts), then the page; D the same, plain.
 * Interleaved, one of each per round, so that a busy moment of the machine falls on all alike.
 */

const warmUp = 50;
const rounds = 300;
const goalMs = 20;
const loadAtStart = os.loadavg()[0]!.toFixed(1);

// React's production build, as the server runs: chosen when react-dom/server is first imported.
process.env.NODE_ENV = 'production';
const entry = path.resolve(import.meta.dirname, '../dist/ssr/entry-server.js');
if (!existsSync(entry)) throw new Error('dist/ssr/entry-server.js is missing: run `npm run build` first');
const { renderPage } = (await import(pathToFileURL(entry).href)) as {
  renderPage: (pathname: string, user: undefined, served: ServedPageData) => Promise<string>;
};

const withMaths = (n: number) =>
  `For assignment ${n}, the mean is $\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i$ and its variance:\n\n` +
  `$$\n\\sigma^2 = \\frac{1}{n-1}\\sum_{i=1}^{n} (x_i - \\bar{x})^2\n$$\n\n` +
  'My Java sums it like this:\n\n```java\ndouble total = 0;\nfor (int i = 0; i < xs.length; i++) {\n' +
  '    total += xs[i]; // the sum\n}\nreturn total / xs.length;\n```\n\nWhy is mine off by one?';
const answerWithMaths = (n: number) =>
  `Divide by $n-1$, not $n$ (question ${n}): in Python,\n\n\`\`\`python\ndef variance(xs):\n` +
  '    m = sum(xs) / len(xs)\n    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)\n```';
/** Plain words as long as `text`. */
const plainAs = (text: string, n: number) =>
  `Question ${n} in plain words. `.repeat(Math.ceil(text.length / 28)).slice(0, text.length);

function page(kind: 'maths' | 'plain', round: number): QuestionPage {
  const author = { id: crypto.randomUUID(), name: 'Thandi Mokoena', role: 'student' as const };
  const questions = Array.from({ length: 20 }, (_, i): Question => {
    // New texts each round: the pipeline's work is measured, not a cache.
    const n = round * 100 + i;
    const [text, answer] =
      kind === 'maths'
        ? [withMaths(n), answerWithMaths(n)]
        : [plainAs(withMaths(n), n), plainAs(answerWithMaths(n), n)];
    const id = crypto.randomUUID();
    return {
      id,
      title: `Question ${n} about the variance`,
      text,
      html: '',
      author,
      createdAt: new Date(Date.UTC(2026, 11, 1, 8, i)).toISOString(),
      upvotes: i,
      downvotes: 0,
      acceptedAnswerId: null,
      answers: [
        {
          id: crypto.randomUUID(),
          questionId: id,
          text: answer,
          html: '',
          author: { ...author, name: 'Lerato Tutor', role: 'tutor' },
          createdAt: new Date(Date.UTC(2026, 11, 1, 9, i)).toISOString(),
        },
      ],
      myVote: 0,
      version: n,
    };
  });
  return { questions, nextCursor: null };
}

const postHtml = createPostRenderer(katex);
/** The posts through the pipeline (each new), then the page: what the server does for a page of new posts. */
function withPipeline(board: QuestionPage): QuestionPage {
  return {
    ...board,
    questions: board.questions.map((q) => ({
      ...q,
      html: postHtml(q.text),
      answers: q.answers.map((a) => ({ ...a, html: postHtml(a.text) })),
    })),
  };
}
const renderBoard = (board: QuestionPage) =>
  renderPage('/qa', undefined, { path: '/qa', origin: 'http://localhost', data: board });

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

type Kind = 'maths' | 'plain';
const times = {
  known: { maths: [] as number[], plain: [] as number[] },
  new: { maths: [] as number[], plain: [] as number[] },
};
const bytes = { maths: 0, plain: 0 };
for (let round = 0; round < warmUp + rounds; round++) {
  for (const kind of ['maths', 'plain'] as const) {
    const board = page(kind, round);
    let known: QuestionPage | undefined;
    let html = '';
    const fresh = await timed(async () => (html = await renderBoard((known = withPipeline(board)))));
    const kept = await timed(() => renderBoard(known!));
    if (round < warmUp) continue;
    times.new[kind].push(fresh);
    times.known[kind].push(kept);
    bytes[kind] = html.length;
  }
}

const quantile = (values: number[], q: number) =>
  [...values].sort((x, y) => x - y)[Math.floor(q * (values.length - 1))]!;
const ms = (value: number) => ({ value: Number(value.toFixed(2)), unit: 'ms' });
const stat = (when: 'known' | 'new', kind: Kind) => ({
  median: quantile(times[when][kind], 0.5),
  p99: quantile(times[when][kind], 0.99),
});
const rows = [
  ['A. maths and code, posts rendered before', stat('known', 'maths'), bytes.maths],
  ['B. plain words, posts rendered before', stat('known', 'plain'), bytes.plain],
  ['C. maths and code, posts new to the process', stat('new', 'maths'), bytes.maths],
  ['D. plain words, posts new to the process', stat('new', 'plain'), bytes.plain],
] as const;
console.log(
  `The board's page of 20 questions and 20 answers, rendered on the server, ${rounds} rounds (after ${warmUp})\n`,
);
console.log(`${'page'.padEnd(46)} median ms  p99 ms  HTML KB`);
for (const [name, { median, p99 }, size] of rows)
  console.log(
    `${name.padEnd(46)} ${median.toFixed(2).padStart(9)}  ${p99.toFixed(2).padStart(6)}  ${(size / 1024).toFixed(0).padStart(7)}`,
  );
const [a, b, c, d] = rows.map((row) => row[1]);
const met = a!.median < goalMs;
console.log(
  `\nA ÷ B (medians) ${(a!.median / b!.median).toFixed(2)}, C ÷ D ${(c!.median / d!.median).toFixed(2)}; ` +
    `A's median ${a!.median.toFixed(2)} ms (goal < ${goalMs} ms): ${met ? 'PASS' : 'FAIL'}`,
);

const measurements: Measurement[] = [
  {
    goal: `The board's page with maths < ${goalMs} ms`,
    measured:
      '20 questions and 20 answers with maths and code, each post with its HTML (kept when posted, or rendered before by the process), median',
    figure: ms(a!.median),
    reference: { what: 'the same page in plain words as long', figure: ms(b!.median) },
    ratio: a!.median / b!.median,
    target: `median < ${goalMs} ms`,
    met,
    also: `p99 ${a!.p99.toFixed(2)} and ${b!.p99.toFixed(2)} ms; ${(bytes.maths / 1024).toFixed(0)} KB of HTML against ${(bytes.plain / 1024).toFixed(0)}`,
  },
  {
    measured:
      'the same page with 40 posts that have no HTML kept (from before decision 0064, or imported), new to the process: the pipeline, then React, median',
    figure: ms(c!.median),
    reference: { what: 'the plain page, posts new', figure: ms(d!.median) },
    ratio: c!.median / d!.median,
    also: `p99 ${c!.p99.toFixed(2)} and ${d!.p99.toFixed(2)} ms`,
  },
];
await recordResults(import.meta.filename, measurements, {
  conditions:
    `${rounds} interleaved rounds of each (after ${warmUp} to warm up), in one process without HTTP, the server ` +
    `build in production mode; load average ${loadAtStart} at the start.`,
});
