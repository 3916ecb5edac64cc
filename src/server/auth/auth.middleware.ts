import { createMiddleware } from 'hono/factory';
import type { Me } from '../../common/session.ts';
import type { ReadMe } from './auth.session.ts';

/** What routes behind the session middleware find on `c.var`: `me` is undefined for a visitor. */
export interface SessionEnv {
  Variables: { me: Me | undefined };
}

/**
 * Reads the session once per request and puts the signed-in user on `c.var.me`. It decides nothing: the
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
  return createMiddleware<SessionEnv>(async (c, next) => {
    check(c.var.me);
    await next();
  });
}
