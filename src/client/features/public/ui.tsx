import type { LucideIcon } from 'lucide-react';

/** Shared look of the public pages' sections. */
export const sectionTitle = 'text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-slate-100';
export const sectionIntro = 'mt-2 max-w-2xl text-slate-700 dark:text-slate-300';
export const bodyText = 'text-slate-700 dark:text-slate-300';

/** The tinted square that holds a card's icon. */
export function IconBadge({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-900/50 dark:text-brand-200">
      <Icon aria-hidden size={22} />
    </span>
  );
}
