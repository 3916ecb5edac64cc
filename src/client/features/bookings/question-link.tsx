import { MessageCircleQuestion, X } from 'lucide-react';
import { Link } from 'react-router-dom';

/**
 * The board question a booking draft is linked to (issue 39 §4): a tutor offered the session on it, and the
 * request carries it, so the tutor sees what it is about and can post a summary there afterwards.
 */
export function DraftQuestionLink({ questionId, onRemove }: { questionId: string; onRemove(): void }) {
  return (
    <p className="flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm dark:border-brand-800 dark:bg-brand-900/40">
      <span className="flex min-w-0 grow basis-60 items-start gap-2">
        <MessageCircleQuestion aria-hidden size={18} className="mt-0.5 shrink-0" />
        <span>
          Linked to{' '}
          <Link to={`/qa/${questionId}`} className="link">
            your question on the board
          </Link>
          : your tutor sees it with the request.
        </span>
      </span>
      <button type="button" className="btn-secondary ml-auto" onClick={onRemove}>
        <X aria-hidden size={16} />
        Remove the link
      </button>
    </p>
  );
}
