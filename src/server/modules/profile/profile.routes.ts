import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { enrolInputSchema } from '../../../common/profile.ts';
import type { Auth } from '../../auth/auth.ts';
import { requireUser, type SessionReader } from '../../auth/auth.session.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { deleteMyAccount, enrol, exportMyData, listMyEnrolments, removeEnrolment, type ProfileDeps } from './profile.usecases.ts';

/** `/api/me/*` beyond `GET /api/me`: the signed-in user's enrolments, data export and account deletion. */
export function createProfileRoutes(deps: ProfileDeps & { auth: Auth; readSession: SessionReader }) {
  const app = new Hono();
  // Personal data: never stored by a browser or proxy cache.
  app.use(async (c, next) => {
    c.header('cache-control', 'no-store');
    await next();
  });

  app.get('/enrolments', async (c) => {
    const me = await requireUser(deps.readSession, c);
    return c.json({ enrolments: await listMyEnrolments(deps, me) });
  });

  app.post('/enrolments', async (c) => {
    const me = await requireUser(deps.readSession, c);
    return c.json(await enrol(deps, me, await readJsonBody(c, enrolInputSchema)), 201);
  });

  app.delete('/enrolments/:id', async (c) => {
    const me = await requireUser(deps.readSession, c);
    await removeEnrolment(deps, me, c.req.param('id'));
    return c.json({ removed: true });
  });

  app.get('/export', async (c) => {
    const me = await requireUser(deps.readSession, c);
    const { filename, data } = await exportMyData(deps, me);
    c.header('content-disposition', `attachment; filename="${filename}"`);
    return c.body(JSON.stringify(data, null, 2), 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  app.delete('/', async (c) => {
    const me = await requireUser(deps.readSession, c);
    await deleteMyAccount(deps, me);
    // The session rows are gone, so the cookie would be refused anyway; clearing it tidies the browser.
    const { authCookies } = await deps.auth.$context;
    for (const cookie of [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken]) {
      const { path, domain, secure, httpOnly, sameSite } = cookie.attributes;
      deleteCookie(c, cookie.name, { path, domain, secure, httpOnly, sameSite });
    }
    return c.json({ deleted: true });
  });

  return app;
}
