import { escapeHtml } from './escape-html.ts';
import type { Role } from './roles.ts';
import type { Me } from './session.ts';

/**
 * The signed-in pages rendered at build time (common/routes.ts `signedInPages`) are rendered for a stand-in
 * user, whose name and subjects are these markers; the server puts the real user's in their place. Nothing
 * else of a user may show in such a page (scripts/prerender.ts checks), so nothing else needs filling in.
 */
const marker = { name: '%user.name%', categories: '%user.categories%' } as const;

/** The stand-in for a page rendered for `role`: a tutor has subjects (one marker), the others none. */
export function standInUser(role: Role): Me {
  return {
    id: '%user.id%',
    name: marker.name,
    email: '%user.email%',
    emailVerified: true,
    role,
    categories: role === 'tutor' ? [marker.categories as Me['categories'][number]] : [],
  };
}

/** Markers of what a page must not show: it would be the stand-in's, not the user's. */
export const unfillable = ['%user.id%', '%user.email%'];

/**
 * The page as `me` sees it, and the user for the app to start with, in a `<meta>` (main.tsx reads it): the
 * first render in the browser is then the rendered one, and hydrates it. Undefined when the page was rendered
 * for another case: a tutor without subjects sees a notice where the rendered page lists them.
 */
export function fillPage(html: string, me: Me): string | undefined {
  if (me.role === 'tutor' && me.categories.length === 0) return undefined;
  return (
    html
      .replace('</head>', () => `${userMeta(me)}</head>`)
      // Functions, not strings: in a replacement string `$&`, `` $` ``, `$'` and `$1` are patterns, so a name
      // holding one would splice parts of the page into itself.
      .replaceAll(marker.name, () => escapeHtml(me.name))
      .replaceAll(marker.categories, () => escapeHtml(me.categories.join(', ')))
  );
}

export const pageUserMeta = 'tutorbook-user';

/** The user a page was rendered for, for the app to start with (lib/served-user.ts). */
export const userMeta = (me: Me) => `<meta name="${pageUserMeta}" content="${escapeHtml(JSON.stringify(me))}">`;
