import { CircleCheck, Clock, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useId, useState } from 'react';
import { qaLimits, type Author, type VoteValue } from '../../../common/qa.ts';
import { TextareaField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { formatSastDateTime } from '../../../common/sast.ts';
import type { PendingState } from './qa-view.ts';

const badgeClass = 'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold';

/** "Tutor" / "Admin" next to staff names: students need to know which answer to trust (DESIGN). */
export function RoleBadge({ role }: { role: Author['role'] }) {
  if (role === 'tutor')
    return (
      <span className={`${badgeClass} bg-brand-100 text-brand-900 dark:bg-brand-900 dark:text-brand-100`}>Tutor</span>
    );
  if (role === 'admin')
    return (
      <span className={`${badgeClass} bg-indigo-100 text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100`}>
        Admin
      </span>
    );
  return null;
}

export function AcceptedBadge() {
  return (
    <span className={`${badgeClass} bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100`}>
      <CircleCheck aria-hidden size={14} /> Accepted answer
    </span>
  );
}

/** Who wrote it and when; an item still in the outbox says so instead of pretending it is posted. */
export function Byline({
  author,
  createdAt,
  pending,
}: {
  author: Author;
  createdAt: string;
  pending?: PendingState | undefined;
}) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
      <span className="font-medium text-slate-800 dark:text-slate-200">{author.name}</span>
      <RoleBadge role={author.role} />
      <span aria-hidden>·</span>
      <time dateTime={createdAt}>{formatSastDateTime(createdAt)}</time>
      {pending?.state === 'waiting' && (
        <span className={`${badgeClass} bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100`}>
          <Clock aria-hidden size={14} /> Waiting to send
        </span>
      )}
    </p>
  );
}

/**
 * ▲/▼ with their counts. Your own vote is pressed; pressing it again withdraws it, the other arrow switches it
 * (one vote per user, DESIGN).
 */
export function VoteButtons(props: {
  upvotes: number;
  downvotes: number;
  myVote: VoteValue;
  title: string;
  onVote: (value: VoteValue) => void;
}) {
  const { upvotes, downvotes, myVote, title, onVote } = props;
  const button = 'btn min-w-16 border px-3 tabular-nums';
  const on = 'border-brand-700 bg-brand-50 text-brand-900 dark:border-brand-300 dark:bg-brand-900 dark:text-brand-50';
  const off =
    'border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800';
  return (
    <div className="flex gap-2" role="group" aria-label={`Votes for "${title}"`}>
      <button
        type="button"
        className={`${button} ${myVote === 1 ? on : off}`}
        aria-pressed={myVote === 1}
        aria-label={`Upvote, ${upvotes} ${upvotes === 1 ? 'vote' : 'votes'}`}
        onClick={() => onVote(myVote === 1 ? 0 : 1)}
      >
        <ThumbsUp aria-hidden size={18} /> <span aria-hidden>▲ {upvotes}</span>
      </button>
      <button
        type="button"
        className={`${button} ${myVote === -1 ? on : off}`}
        aria-pressed={myVote === -1}
        aria-label={`Downvote, ${downvotes} ${downvotes === 1 ? 'vote' : 'votes'}`}
        onClick={() => onVote(myVote === -1 ? 0 : -1)}
      >
        <ThumbsDown aria-hidden size={18} /> <span aria-hidden>▼ {downvotes}</span>
      </button>
    </div>
  );
}

/**
 * A post the server refused (OFFLINE-ENGINE rule 5): its message, and the text kept to edit and send again, or
 * discard. Nothing the user wrote is lost until they say so. Without `onRetry` there is nowhere to send it.
 */
export function NeedsAttention(props: {
  message: string;
  title?: string | undefined;
  text: string;
  onRetry?: (edited: { title?: string; text: string }) => void;
  onDiscard: () => void;
}) {
  const [title, setTitle] = useState(props.title);
  const [text, setText] = useState(props.text);
  const titleId = useId();
  return (
    <div className="mt-3 space-y-3 rounded-lg border border-red-200 p-3 dark:border-red-900">
      <Notice tone="error">Not sent: {props.message}</Notice>
      {title !== undefined && (
        <div>
          <label htmlFor={titleId} className="mb-1 block font-medium">
            Title
          </label>
          <input
            id={titleId}
            className="input"
            value={title}
            maxLength={qaLimits.titleMax}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
      )}
      <TextareaField
        label="Text"
        rows={4}
        value={text}
        maxLength={qaLimits.textMax}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="flex flex-wrap gap-2">
        {props.onRetry && (
          <button
            type="button"
            className="btn-primary"
            onClick={() => props.onRetry?.(title === undefined ? { text } : { title, text })}
          >
            Send again
          </button>
        )}
        <button type="button" className="btn-secondary" onClick={props.onDiscard}>
          Discard
        </button>
      </div>
    </div>
  );
}
