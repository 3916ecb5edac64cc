/**
 * Every page path the client knows. The server answers other paths with the 404 page and status 404;
 * the client's router uses the same list.
 */
export const publicPaths = ['/', '/home', '/signup', '/login', '/verify_login', '/change-password', '/about', '/testimonials', '/privacy-policy', '/qa'] as const;
export const signedInPaths = ['/offers', '/profile', '/booking', '/student-dashboard', '/tutor-dashboard', '/admin-dashboard'] as const;
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
