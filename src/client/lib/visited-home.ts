import { useSyncExternalStore } from 'react';

/**
 * Spec §2: Home's Sign Up button sets this flag; /signup sends visitors without it back to /. The boot script of
 * the prerendered /signup (src/client/boot.ts) reads the same key and referrer, to do so before the app loads.
 */
const key = 'visitedHome';

export const markVisitedHome = () => localStorage.setItem(key, 'true');
/**
 * /login's "Create an account" link sets the flag when clicked, but a click before /login is hydrated (its
 * scripts load once it is painted, src/client/boot.ts) follows the link natively: the referrer tells.
 */
const cameFromLogin = () => document.referrer === `${location.origin}/login`;
const hasVisitedHome = () => localStorage.getItem(key) === 'true' || cameFromLogin();
const unchanging = () => () => {};

/**
 * Whether the flag is set. /signup is rendered at build time for the visitor who came through Home (true), and
 * hydrating that page must start from the same answer; the browser's own answer follows at once.
 */
export const useVisitedHome = () => useSyncExternalStore(unchanging, hasVisitedHome, () => true);
