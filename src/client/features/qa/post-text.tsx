import katexCss from 'katex/dist/katex.min.css?url';
import mainFont from 'katex/dist/fonts/KaTeX_Main-Regular.woff2?url';
import mathItalicFont from 'katex/dist/fonts/KaTeX_Math-Italic.woff2?url';
import size1Font from 'katex/dist/fonts/KaTeX_Size1-Regular.woff2?url';
import size2Font from 'katex/dist/fonts/KaTeX_Size2-Regular.woff2?url';
import { lazy, memo, Suspense } from 'react';
import { preload } from 'react-dom';
import type { QuestionView } from './qa-view.ts';

/**
 * What a student or tutor wrote: Markdown with maths and code, as the board's one pipeline renders it
 * (common/post-html.ts, docs/decisions/0060). The server renders every post it sends (the API and the pages carry
 * `html`), so reading needs no renderer here: the page shows the server's HTML, and hydrates it as it is. Only a
 * post the server has not rendered (queued on this device, or stored before it sent HTML) and the forms' preview
 * load the pipeline (post-local.tsx), once, when first needed; meanwhile the text shows as typed.
 */

/** KaTeX writes its formulas in `<span class="katex">`: only a page with one needs KaTeX's style sheet. */
const hasMaths = (html: string) => html.includes('class="katex');

/**
 * KaTeX's fonts that most formulas use, by the class that shows a post uses them: for a post rendered on the device
 * (a preview), fetched with the style sheet rather than after it, so its first look is already in its own font.
 */
const katexFonts: [mark: string, font: string][] = [
  ['class="katex', mainFont],
  ['mathnormal', mathItalicFont],
  ['small-op', size1Font],
  ['size1', size1Font],
  ['large-op', size2Font],
  ['size2', size2Font],
];

/**
 * KaTeX's style sheet where any of `htmls` has maths; nothing otherwise. `inPlace`: the sheet is linked where this
 * is rendered, in the body, which holds up only what comes after it: the board's pages put it before their posts,
 * so that their heading and forms show without waiting for it (in the head, it held up the first paint by a round
 * trip). The fonts then load as the formulas need them, after the page's first paint: preloaded, they took the
 * bandwidth of a slow phone's first paint (Lighthouse's largest paint 1.5 s instead of 1.0). Otherwise React puts
 * the sheet in the head once with the fonts preloaded, and shows what it renders once the sheet has loaded (a
 * preview, a post rendered on the device).
 */
export function KatexSheet({ htmls, inPlace = false }: { htmls: string[]; inPlace?: boolean }) {
  if (!htmls.some(hasMaths)) return null;
  if (inPlace) return <link rel="stylesheet" href={katexCss} />;
  for (const [mark, font] of katexFonts)
    if (htmls.some((html) => html.includes(mark)))
      preload(font, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' });
  return <link rel="stylesheet" href={katexCss} precedence="katex" />;
}

/** The server's HTML of each post on `questions` (their answers too): what a page's `KatexSheet` looks at. */
export const htmlOf = (questions: QuestionView[]): string[] =>
  questions.flatMap((q) => [q.html ?? '', ...q.answers.map((a) => a.html ?? '')]);

/**
 * A post's HTML from the pipeline, which sanitised it against a strict allowlist (no script, no event handler,
 * links only to http, https and mailto). The page links KaTeX's style sheet (`KatexSheet`).
 */
export function PostHtml({ html, className }: { html: string; className: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The text as typed, until the pipeline has rendered it (or when it cannot load: offline before it was fetched). */
export function TypedText({ text, className }: { text: string; className: string }) {
  return <div className={`${className} break-words whitespace-pre-wrap`}>{text}</div>;
}

const LocalPost = lazy(() =>
  import('./post-local.tsx').catch(() => ({
    default: ({ text, className }: { text: string; className: string }) => (
      <TypedText text={text} className={className} />
    ),
  })),
);

/**
 * A post: the server's HTML, or its text rendered on this device. Parsing Markdown is costly on a slow phone: a
 * post is rendered again only when its text changes.
 */
export const PostText = memo(function PostText({
  text,
  html,
  className = '',
}: {
  text: string;
  html?: string | undefined;
  className?: string;
}) {
  const classes = `post-text text-slate-800 dark:text-slate-200 ${className}`;
  if (html !== undefined) return <PostHtml html={html} className={classes} />;
  return (
    <Suspense fallback={<TypedText text={text} className={classes} />}>
      <LocalPost text={text} className={classes} />
    </Suspense>
  );
});
