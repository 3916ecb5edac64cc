import { useSyncExternalStore } from 'react';

/** Spec §2: Home's Sign Up button sets this flag; /signup sends visitors without it back to /. */
const key = 'visitedHome';

export const markVisitedHome = () => localStorage.setItem(key, 'true');
const hasVisitedHome = () => localStorage.getItem(key) === 'true';
const unchanging = () => () => {};

/**
 * Whether the flag is set. /signup is rendered at build time for the visitor who came through Home (true), and
 * hydrating that page must start from the same answer; the browser's own answer follows at once.
 */
export const useVisitedHome = () => useSyncExternalStore(unchanging, hasVisitedHome, () => true);
