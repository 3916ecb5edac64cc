import { startTransition, useEffect, useState } from 'react';

/** Whether this page's first render is over: from then on, what mounts renders its hydrated self at once. */
let firstRenderDone = false;

/**
 * False while a page rendered at build time is being hydrated (and when rendering it), true afterwards. What
 * loads lazily renders only then: a build-time render cannot wait for it, and hydrating a boundary it left
 * unfinished is an error (React #419).
 *
 * The switch is a transition, so the render it causes yields to the browser like the hydration did. An
 * external store (`useSyncExternalStore` with a server snapshot) would say the same, but React re-renders a
 * store that changed since hydration synchronously, in one long task on a slow phone. This relies on the
 * prerendered pages having no Suspense boundary with content, which hydrates after the rest (the build fails on
 * one, scripts/prerender.ts): it would read `true` where its HTML was rendered with `false`.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(firstRenderDone);
  useEffect(() => {
    firstRenderDone = true;
    startTransition(() => setHydrated(true));
  }, []);
  return hydrated;
}
