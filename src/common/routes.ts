import { roles, type Role } from './roles.ts';

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
  '/availability',
  '/notifications',
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

/**
 * Signed-in pages rendered at build time too, once for each role that may open them, for a stand-in user
 * (common/page-user.ts). The server fills in the user whose session a request carries and sends the page;
 * a visitor, or a role the page is not for, gets `shellFile`. Written beside the served folder, in
 * `signedInPagesDir`, never served as files (docs/decisions/0013-signed-in-pages-rendered-at-build-time.md).
 */
export const signedInPages = {
  '/offers': roles,
  '/qa': roles,
  '/student-dashboard': roles,
  '/tutor-dashboard': ['tutor'],
  '/admin-dashboard': ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type SignedInPagePath = keyof typeof signedInPages;
/** Relative to the built client's folder. */
export const signedInPagesDir = '../pages';
export const signedInPageFile = (pagePath: SignedInPagePath, role: Role) => `${pagePath.slice(1)}.${role}.html`;

/**
 * Pages the server renders for each request, because what they show changes more often than the site is built:
 * the Q&A board and each question's own address. The build writes each one's page around an empty root (its
 * template) into `signedInPagesDir`; the server renders the app into it with the board's data
 * (docs/decisions/0024-the-board-rendered-per-request.md).
 */
export const requestRenderedPages = { board: 'qa.template.html', question: 'qa-question.template.html' } as const;
export type RequestRenderedPage = keyof typeof requestRenderedPages;
/** The server build of the app (src/client/entry-server.tsx), relative to the built client's folder. */
export const ssrEntryFile = '../ssr/entry-server.js';

/** A question's own address: shared, and found by search engines. */
export const questionPath = (id: string) => `/qa/${encodeURIComponent(id)}`;

/** Paths with a parameter, as patterns. */
export const patternPaths = [/^\/modules\/[a-z0-9-]+$/, /^\/qa\/[^/]+$/] as const;

export function isKnownPagePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return (
    (publicPaths as readonly string[]).includes(path) ||
    (signedInPaths as readonly string[]).includes(path) ||
    patternPaths.some((p) => p.test(path))
  );
}
