import type { ComponentProps } from 'react';
import { useHydrated } from '../lib/hydrated.ts';

/**
 * A form on a page rendered at build time: its controls take input only once the page is hydrated. Before
 * that, a click would submit it natively (a GET, with the password in the address) and React could reset what
 * was typed. `className` lays out the controls.
 */
export function HydratedForm({ className, children, ...props }: ComponentProps<'form'>) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className={`min-w-0 ${className ?? ''}`}>
        {children}
      </fieldset>
    </form>
  );
}
