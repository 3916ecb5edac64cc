import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { wantEngine } from '../lib/engine-wanted.ts';
import { RequireRole, RequireUser } from './guards.tsx';
import type { LoginNoticeHandle } from './login-notice.tsx';
import { BareLayout, RootLayout } from './root-layout.tsx';

type Load = () => Promise<Record<string, unknown>>;

/**
 * A page that does not read the device's database before it is hydrated: code-split, it loads its own chunk and
 * nothing else first (/testimonials loads the engine once hydrated: testimonials-route.tsx).
 */
const publicPage = (load: Load, name: string): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load())[name] as React.ComponentType }),
});

/**
 * A page that reads IndexedDB: its chunk, and the offline engine with every feature's tables declared
 * (offline-setup.ts), since the database must not open before they are; the engine runs from then on.
 */
const page = (load: Load, name: string): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    wantEngine();
    const [loaded] = await Promise.all([load(), import('./offline-setup.ts')]);
    return { Component: loaded[name] as React.ComponentType };
  },
});

/** What a visitor sent away from a page for signed-in people is told (login-notice.tsx). */
const loginNotice = (text: string): Pick<RouteObject, 'handle'> => ({
  handle: { loginNotice: text } satisfies LoginNoticeHandle,
});

const home = publicPage(() => import('../features/public/home-page.tsx'), 'HomePage');

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Pages load lazily; the layout is there at once, so nothing else is needed meanwhile.
    HydrateFallback: () => null,
    children: [
      { path: '/', ...home },
      { path: '/home', ...home },
      { path: '/about', ...publicPage(() => import('../features/public/about-page.tsx'), 'AboutPage') },
      // Rendered at build time like the others; once hydrated, it reads the device's copy of the admin's list.
      { path: '/testimonials', ...publicPage(() => import('./testimonials-route.tsx'), 'TestimonialsRoute') },
      { path: '/privacy-policy', ...publicPage(() => import('../features/public/privacy-page.tsx'), 'PrivacyPage') },
      { path: '/signup', ...publicPage(() => import('../features/auth/signup-page.tsx'), 'SignupPage') },
      { path: '/login', ...publicPage(() => import('../features/auth/login-page.tsx'), 'LoginPage') },
      // Visitors read the board (spec §6, DESIGN); asking, answering and voting say 'Please log in…'.
      { path: '/qa', ...page(() => import('./qa-route.tsx'), 'QaRoute') },
      // A question's own address, to share; the server renders it (docs/decisions/0024).
      { path: '/qa/:id', ...page(() => import('../features/qa/question-page.tsx'), 'QuestionPage') },
      {
        path: '/change-password',
        ...page(() => import('../features/auth/change-password-page.tsx'), 'ChangePasswordPage'),
      },
      {
        element: <RequireUser />,
        children: [
          {
            path: '/offers',
            ...page(() => import('./offers-route.tsx'), 'OffersRoute'),
            ...loginNotice('Log in to see the courses.'),
          },
          {
            path: '/modules/:slug',
            ...page(() => import('./module-route.tsx'), 'ModuleRoute'),
            ...loginNotice('Log in to see this module.'),
          },
          {
            path: '/booking',
            ...page(() => import('./booking-route.tsx'), 'BookingRoute'),
            ...loginNotice('Log in to book a session.'),
          },
          {
            // A tutor's own working hours; the admin chooses whose (issue 36). Students are told it is not theirs.
            path: '/availability',
            ...page(() => import('./availability-route.tsx'), 'AvailabilityRoute'),
            ...loginNotice('Log in to see your dashboard.'),
          },
          {
            path: '/student-dashboard',
            ...page(() => import('./student-dashboard.tsx'), 'StudentDashboardPage'),
            ...loginNotice('Log in to see your bookings.'),
          },
        ],
      },
      {
        element: <RequireUser redirectTo="/login" />,
        children: [
          {
            path: '/profile',
            ...page(() => import('./profile-route.tsx'), 'ProfileRoute'),
            ...loginNotice('Log in to see your profile.'),
          },
          {
            path: '/notifications',
            ...page(() => import('../features/notices/notifications-page.tsx'), 'NotificationsPage'),
            ...loginNotice('Log in to see your notifications.'),
          },
        ],
      },
      {
        element: <RequireRole role="tutor" />,
        children: [
          {
            path: '/tutor-dashboard',
            ...page(() => import('./staff-dashboards.tsx'), 'TutorDashboardPage'),
            ...loginNotice('Log in to see your dashboard.'),
          },
        ],
      },
      {
        element: <RequireRole role="admin" />,
        children: [
          {
            path: '/admin-dashboard',
            ...page(() => import('./staff-dashboards.tsx'), 'AdminDashboardPage'),
            ...loginNotice('Log in to see your dashboard.'),
          },
        ],
      },
      // Like the pages, in a chunk of its own: few visits meet it, and the first load is at its budget.
      { path: '*', ...publicPage(() => import('./error-pages.tsx'), 'NotFoundPage') },
    ],
  },
  {
    element: <BareLayout />,
    HydrateFallback: () => null,
    children: [
      { path: '/verify_login', ...page(() => import('../features/auth/verify-login-page.tsx'), 'VerifyLoginPage') },
    ],
  },
];

/**
 * The browser's router. The page being opened is loaded first, so that a page rendered at build time
 * (scripts/prerender.ts) is hydrated as it is, rather than replaced by the empty `HydrateFallback`.
 */
export async function createAppRouter() {
  const opening = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    opening.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
  return createBrowserRouter(routes);
}
