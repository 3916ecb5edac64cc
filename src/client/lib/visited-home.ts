/** Spec §2: Home's Sign Up button sets this flag; /signup sends visitors without it back to /. */
const key = 'visitedHome';

export const markVisitedHome = () => localStorage.setItem(key, 'true');
export const hasVisitedHome = () => localStorage.getItem(key) === 'true';
