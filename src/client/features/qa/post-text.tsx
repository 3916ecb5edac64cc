import katexCss from 'katex/dist/katex.min.css?url';
import mainFont from 'katex/dist/fonts/KaTeX_Main-Regular.woff2?url';
import mathItalicFont from 'katex/dist/fonts/KaTeX_Math-Italic.woff2?url';
import size1Font from 'katex/dist/fonts/KaTeX_Size1-Regular.woff2?url';
import size2Font from 'katex/dist/fonts/KaTeX_Size2-Regular.woff2?url';
import { lazy, memo, Suspense } from 'react';
import { preload } from 'react-dom';

/**
 * What a student or tutor wrote: Markdown with maths and code, as the board's one pipeline renders it
 * (common/post-html.ts, docs/decisions/0060). The server renders every post it sends (the API and the pages carry
 * `html`), so reading needs no renderer here: the page shows the server's HTML, and hydrates it as it is. Only a
 * post the server has not rendered (queued on this device, or stored before it sent HTML) and the forms' preview
 * load the pipeline (post-local.tsx), once, when first needed; meanwhile the text shows as typed.
 */

/** KaTeX writes its formulas in `<span class="katex">`: only a post with one needs KaTeX's style sheet. */
const hasMaths = (html: string) => html.includes('class="katex');

/**
 * KaTeX's fonts that most formulas use, by the class that shows a post uses it: fetched with the style sheet, not
 * after it, so a formula is laid out once in its own font rather than again when the font arrives (a layout
 * shift). Its rarer fonts (blackboard bold, script, the largest delimiters) load when first used.
 */
const katexFonts: [mark: string, font: string][] = [
  ['class="katex', mainFont],
  ['mathnormal', mathItalicFont],
  ['small-op', size1Font],
  ['size1', size1Font],
  ['large-op', size2Font],
  ['size2', size2Font],
];

function KatexStyle({ html }: { html: string }) {
  for (const [mark, font] of katexFonts)
    if (html.includes(mark)) preload(font, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' });
  return <link rel="stylesheet" href={katexCss} precedence="katex" />;
}

/**
 * A post's HTML from the pipeline, which sanitised it against a strict allowlist (no script, no event handler,
 * links only to http, https and mailto). KaTeX's style sheet and fonts load only where a post has maths: React
 * puts them in the head once, and shows the post when the sheet has loaded.
 */
export function PostHtml({ html, className }: { html: string; className: string }) {
  return (
    <>
      {hasMaths(html) && <KatexStyle html={html} />}
      <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
    </>
  );
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
