import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useHydrated } from '../lib/hydrated.ts';

export interface Section<Id extends string> {
  id: Id;
  label: string;
  content: ReactNode;
}

/** The key that moves from tab `index` of `count`, to which tab (WAI-ARIA tabs: arrows wrap, Home and End). */
function tabAfterKey(key: string, index: number, count: number): number | undefined {
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

/**
 * Sections of a page a person switches between: tabs (WAI-ARIA Authoring Practices "Tabs", selection follows
 * focus). Every panel stays mounted, only hidden: what was typed in one section is still there after a look at
 * another. On a page rendered at build time the tabs take clicks once hydrated, as its forms do.
 */
export function SectionTabs<Id extends string>({
  label,
  sections,
  selected,
  onSelect,
}: {
  label: string;
  sections: readonly Section<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}) {
  const baseId = useId();
  const hydrated = useHydrated();
  const tabs = useRef(new Map<Id, HTMLButtonElement>());
  const tabId = (id: Id) => `${baseId}-${id}-tab`;
  const panelId = (id: Id) => `${baseId}-${id}-panel`;

  const onKeyDown = (event: KeyboardEvent) => {
    // From the tab that has the focus, not the selected one: two presses before the page draws again go two tabs.
    const focused = sections.findIndex((s) => tabs.current.get(s.id) === event.target);
    const next = tabAfterKey(
      event.key,
      focused >= 0 ? focused : sections.findIndex((s) => s.id === selected),
      sections.length,
    );
    if (next === undefined) return;
    event.preventDefault();
    const target = sections[next]!.id;
    onSelect(target);
    tabs.current.get(target)?.focus();
  };

  return (
    <>
      <div
        role="tablist"
        aria-label={label}
        // More than three tabs do not fit side by side on a 360-px phone: they wrap there, each as wide as its label
        // and the rows filled (five make two rows, not three of two).
        className={`mt-6 flex ${sections.length > 3 ? 'flex-wrap' : ''} gap-1 rounded-xl border border-slate-200 bg-slate-100 p-1 sm:inline-flex dark:border-slate-800 dark:bg-slate-900`}
        onKeyDown={onKeyDown}
      >
        {sections.map(({ id, label: tabLabel }) => {
          const current = id === selected;
          return (
            <button
              key={id}
              ref={(button) => {
                if (button) tabs.current.set(id, button);
                else tabs.current.delete(id);
              }}
              type="button"
              role="tab"
              id={tabId(id)}
              aria-selected={current}
              aria-controls={panelId(id)}
              tabIndex={current ? 0 : -1}
              disabled={!hydrated}
              onClick={() => onSelect(id)}
              className={`min-h-11 ${sections.length > 3 ? 'flex-auto' : 'flex-1'} rounded-lg px-2 py-2 font-semibold transition-colors sm:flex-none sm:px-4 ${
                current
                  ? 'bg-white text-brand-800 shadow-sm dark:bg-slate-700 dark:text-white'
                  : 'text-slate-700 hover:bg-white/60 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
              }`}
            >
              {tabLabel}
            </button>
          );
        })}
      </div>
      {sections.map(({ id, content }) => (
        <div key={id} role="tabpanel" id={panelId(id)} aria-labelledby={tabId(id)} hidden={id !== selected}>
          {content}
        </div>
      ))}
    </>
  );
}
