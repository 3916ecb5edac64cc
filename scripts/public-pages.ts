import { prerenderedPages } from '../src/common/routes.ts';

/**
 * The public pages (issue 9) and the module each one's route loads (src/client/app/router.tsx): they are
 * rendered to HTML at build time (scripts/prerender.ts) and held to a JavaScript budget (check-js-budget.ts).
 */
export const publicPageModules: Record<keyof typeof prerenderedPages, string> = {
  '/': 'features/public/home-page.tsx',
  '/about': 'features/public/about-page.tsx',
  '/testimonials': 'features/public/testimonials-page.tsx',
  '/privacy-policy': 'features/public/privacy-page.tsx',
  '/login': 'features/auth/login-page.tsx',
  '/signup': 'features/auth/signup-page.tsx',
};
