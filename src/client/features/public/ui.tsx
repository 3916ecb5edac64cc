import type { LucideIcon } from 'lucide-react';

/**
 * Shared type of the public pages: size and weight make the hierarchy (page title > section title > card
 * title > body). Body text stays regular weight.
 */
export const pageTitle =
  'text-3xl leading-tight font-bold tracking-tight text-balance text-slate-900 sm:text-5xl dark:text-white';
export const eyebrow = 'text-sm font-medium tracking-wide text-brand-800 uppercase dark:text-brand-200';
export const sectionTitle = 'text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-slate-100';
export const cardTitle = 'text-lg font-semibold text-slate-900 dark:text-slate-100';
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
