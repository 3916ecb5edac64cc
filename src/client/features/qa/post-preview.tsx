import { useEffect, useState } from 'react';
import { PostText } from './post-text.tsx';

/** The preview follows the typing a moment behind: a long post takes milliseconds to render on a slow phone. */
const settleMs = 200;

/**
 * What a post will look like once posted (issue 39): its text through the board's own pipeline, loaded when there
 * is first something to show (post-text.tsx), so the preview is what every reader will see. `label` names it for
 * a screen reader, one per form on the page.
 */
export function PostPreview({ text, label, empty }: { text: string; label: string; empty?: string }) {
  const [shown, setShown] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setShown(text), settleMs);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <section
      aria-label={label}
      className="min-w-0 rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3 dark:border-slate-600 dark:bg-slate-950"
    >
      <p aria-hidden className="mb-1 text-sm font-semibold text-slate-600 dark:text-slate-400">
        Preview
      </p>
      {shown.trim() ? (
        <PostText text={shown.trim()} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>
      )}
    </section>
  );
}
