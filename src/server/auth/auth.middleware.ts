import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Me } from '../../common/session.ts';
import type { ReadMe } from './auth.session.ts';

/**
 * What routes behind the session middleware find with `c.get('me')`, undefined for a visitor. `c.get`, not
 * `c.var.me`: Hono's `c.var` copies every variable into a new object at each use. `sessionRead`: the request's
 * one reading of its session (`readSessionOnce`).
 */
export interface SessionEnv {
  Variables: { me: Me | undefined; sessionRead?: Promise<Me | undefined> };
}

/**
 * The request's signed-in user, read once however many ask: the read limit (http/read-limit.ts), which counts a
 * signed-in request against its user, asks before the session middleware does.
 */
export function readSessionOnce(c: Context<SessionEnv>, readMe: ReadMe): Promise<Me | undefined> {
  let reading = c.get('sessionRead');
  if (!reading) c.set('sessionRead', (reading = readMe(c.req.raw.headers)));
  return reading;
}

/**
 * Reads the session once per request and sets the signed-in user as `me` (`c.get('me')`). It decides nothing: the
 * usecases do (`requireUser`, `requireRole`). `app.ts` applies it to the route groups that act for someone;
 * a route it does not cover sees `me` undefined and refuses as for a visitor, even where the read limit read
 * the session.
 */
export function createSessionMiddleware(readMe: ReadMe) {
  return createMiddleware<SessionEnv>(async (c, next) => {
    c.set('me', await readSessionOnce(c, readMe));
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
