import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * False while a page rendered at build time is being hydrated (and when rendering it), true afterwards. What
 * loads lazily renders only then: a build-time render cannot wait for it, and hydrating a boundary it left
 * unfinished is an error (React #419).
 */
export const useHydrated = () =>
  useSyncExternalStore(
    unchanging,
    () => true,
    () => false,
  );
