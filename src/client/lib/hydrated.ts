import { startTransition, useEffect, useState } from 'react';
import { deviceMayHoldData } from './engine-wanted.ts';

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

/** This page arrived as the empty shell (the service worker's, for one) and is rendered here, not hydrated. */
let shellStart = false;

/** Called by main.tsx before it renders into the empty shell. */
export function markShellStart(): void {
  shellStart = true;
}

/**
 * Whether a page, while the session is still read from the device, should hold the place of what a signed-in
 * user sees: it began as the empty shell on a device that holds someone's data, most likely theirs. Never while
 * hydrating, whose HTML was rendered for a visitor while the session was being read, as here.
 */
export const awaitsStoredUser = (): boolean => shellStart && deviceMayHoldData();
