/**
 * Every page path the client knows. The server answers other paths with the 404 page and status 404;
 * the client's router uses the same list.
 */
export const publicPaths = [
  '/',
  '/home',
  '/signup',
  '/login',
  '/verify_login',
  '/change-password',
  '/about',
  '/testimonials',
  '/privacy-policy',
  '/qa',
] as const;
export const signedInPaths = [
  '/offers',
  '/profile',
  '/booking',
  '/student-dashboard',
  '/tutor-dashboard',
  '/admin-dashboard',
] as const;
/**
 * Public pages rendered to HTML at build time, and the file each is written to; every other page path gets
 * `shellFile`, the app with nothing rendered in it, which the browser fills in.
 */
export const prerenderedPages = {
  '/': 'index.html',
  '/about': 'about.html',
  '/testimonials': 'testimonials.html',
  '/privacy-policy': 'privacy-policy.html',
  '/login': 'login.html',
  '/signup': 'signup.html',
} as const;
export const shellFile = 'shell.html';

/** Paths with a parameter, as patterns. */
export const patternPaths = [/^\/modules\/[a-z0-9-]+$/] as const;

export function isKnownPagePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return (
    (publicPaths as readonly string[]).includes(path) ||
    (signedInPaths as readonly string[]).includes(path) ||
    patternPaths.some((p) => p.test(path))
  );
}
