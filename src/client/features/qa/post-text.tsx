import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';

/**
 * What a student or tutor wrote, as Markdown: paragraphs, lists, links, emphasis, inline code and code blocks
 * (students ask about Java and Python). react-markdown builds React elements, never HTML strings: raw HTML in
 * a post is shown as the text it is, and its URL filter drops `javascript:` and other unsafe links. Headings,
 * images and tables become plain text: a post is a message, not a page.
 */
const allowedElements = ['p', 'br', 'ul', 'ol', 'li', 'a', 'em', 'strong', 'code', 'pre', 'blockquote', 'hr', 'del'];

const components: Components = {
  // Links people post lead off the site: opened in a new tab, with no referrer and no ranking credit.
  a: ({ href, children }) => (
    <a href={href} className="link break-words" target="_blank" rel="nofollow ugc noopener noreferrer">
      {children}
    </a>
  ),
  // Focusable, so a keyboard can scroll a long line of code sideways.
  pre: ({ children }) => (
    <pre
      tabIndex={0}
      className="my-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm leading-relaxed text-slate-100 dark:bg-black"
    >
      {children}
    </pre>
  ),
  code: ({ className, children }) => (
    // A fenced block's code carries a `language-…` class; inline code does not.
    <code
      className={className ? 'font-mono' : 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-slate-800'}
    >
      {children}
    </code>
  ),
  ul: ({ children }) => <ul className="my-2 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="my-2 list-decimal space-y-1 pl-6">{children}</ol>,
  p: ({ children }) => <p className="my-2 break-words first:mt-0 last:mb-0">{children}</p>,
  blockquote: ({ children }) => (
    <blockquote className="my-2 border-l-4 border-slate-300 pl-3 text-slate-700 dark:border-slate-600 dark:text-slate-300">
      {children}
    </blockquote>
  ),
};

/**
 * Parsing Markdown is the board's costliest render on a slow phone: a post is parsed again only when its text
 * changes, not each time the board re-renders (its rows read from IndexedDB after the server's, a vote, a search).
 */
export const PostText = memo(function PostText({ text, className = '' }: { text: string; className?: string }) {
  return (
    <div className={`text-slate-800 dark:text-slate-200 ${className}`}>
      <Markdown allowedElements={allowedElements} unwrapDisallowed components={components}>
        {text}
      </Markdown>
    </div>
  );
});
