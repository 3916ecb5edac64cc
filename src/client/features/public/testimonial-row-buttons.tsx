import { ArrowDown, ArrowUp, Eye, EyeOff, Pencil } from 'lucide-react';
import type { Ref } from 'react';

/** "Shown" or "Hidden": colour and words, never colour alone. */
export function VisibilityLabel({ hidden }: { hidden: boolean }) {
  const tone = hidden
    ? 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100'
    : 'bg-brand-50 text-brand-900 dark:bg-brand-900 dark:text-brand-50';
  return <span className={`rounded-full px-3 py-1 text-sm font-medium ${tone}`}>{hidden ? 'Hidden' : 'Shown'}</span>;
}

/**
 * A testimonial's controls, each named by its label and described by the testimonial's heading (`describedBy`),
 * so a screen reader hears "Move up, Thandiwe Mokoena · COMP102". Two columns on a phone, without their icons
 * (with them "Move down" took two lines at 360 px), one row wider up.
 */
export function TestimonialRowButtons({
  describedBy,
  busy,
  first,
  last,
  hidden,
  editButton,
  onMove,
  onEdit,
  onToggle,
}: {
  describedBy: string;
  busy: boolean;
  first: boolean;
  last: boolean;
  hidden: boolean;
  editButton: Ref<HTMLButtonElement>;
  onMove: (by: -1 | 1) => void;
  onEdit: () => void;
  onToggle: () => void;
}) {
  const common = { type: 'button', 'aria-describedby': describedBy } as const;
  return (
    <div className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:gap-3">
      <button {...common} className="btn-secondary" disabled={busy || first} onClick={() => onMove(-1)}>
        <ArrowUp aria-hidden size={18} className="hidden sm:block" />
        Move up
      </button>
      <button {...common} className="btn-secondary" disabled={busy || last} onClick={() => onMove(1)}>
        <ArrowDown aria-hidden size={18} className="hidden sm:block" />
        Move down
      </button>
      <button {...common} ref={editButton} className="btn-secondary" disabled={busy} onClick={onEdit}>
        <Pencil aria-hidden size={18} className="hidden sm:block" />
        Edit
      </button>
      <button {...common} className={hidden ? 'btn-secondary' : 'btn-danger'} disabled={busy} onClick={onToggle}>
        {hidden ? (
          <Eye aria-hidden size={18} className="hidden sm:block" />
        ) : (
          <EyeOff aria-hidden size={18} className="hidden sm:block" />
        )}
        {hidden ? 'Show' : 'Hide'}
      </button>
    </div>
  );
}
