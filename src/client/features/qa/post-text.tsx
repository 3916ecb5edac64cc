import katexCss from 'katex/dist/katex.min.css?url';
import { lazy, memo, Suspense } from 'react';

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
 * A post's HTML from the pipeline, which sanitised it against a strict allowlist (no script, no event handler,
 * links only to http, https and mailto). KaTeX's style sheet (and, through it, its fonts) loads only where a post
 * has maths: React puts it in the head once, and shows the post when it has loaded.
 */
export function PostHtml({ html, className }: { html: string; className: string }) {
  return (
    <>
      {hasMaths(html) && <link rel="stylesheet" href={katexCss} precedence="katex" />}
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
