import { createMiddleware } from 'hono/factory';
import type { Me } from '../../common/session.ts';
import type { ReadMe } from './auth.session.ts';

/**
 * What routes behind the session middleware find with `c.get('me')`, undefined for a visitor. `c.get`, not
 * `c.var.me`: Hono's `c.var` copies every variable into a new object at each use.
 */
export interface SessionEnv {
  Variables: { me: Me | undefined };
}

/**
 * Reads the session once per request and sets the signed-in user as `me` (`c.get('me')`). It decides nothing: the
 * usecases do (`requireUser`, `requireRole`). `app.ts` applies it to the route groups that act for someone;
 * a route it does not cover sees `me` undefined and refuses as for a visitor.
 */
export function createSessionMiddleware(readMe: ReadMe) {
  return createMiddleware<SessionEnv>(async (c, next) => {
    c.set('me', await readMe(c.req.raw.headers));
    await next();
  });
}

/**
 * Runs a usecase's access check (`requireUser`, `requireCatalogueAdmin`…) before a route reads the body, so
 * a refused request gets its 401 or 403 whatever it carries. The usecase still checks: it holds the rule,
 * this only puts the refusal ahead of the body's validation.
 */
export function checkFirst(check: (me: Me | undefined) => unknown) {
  return createMiddleware<SessionEnv>((c, next) => {
    check(c.get('me'));
    return next();
  });
}
