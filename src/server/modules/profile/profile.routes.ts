import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { updateNameSchema } from '../../../common/auth.schemas.ts';
import { enrolInputSchema } from '../../../common/profile.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Auth } from '../../auth/auth.ts';
import type { Deps } from '../../deps.ts';
import { answerJson, personal } from '../../http/etag.ts';
import { jsonBody } from '../../http/json-body.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import {
  deleteMyAccount,
  enrol,
  enrolmentsPersonalData,
  exportMyData,
  listMyEnrolments,
  removeEnrolment,
  renameMe,
} from './profile.usecases.ts';

/**
 * `/api/me/*` beyond `GET /api/me`: the signed-in user's name, enrolments, data export and account deletion.
 * `personalData`: the other features' parts of the export and deletion (server.ts lists them).
 */
export function createProfileRoutes({
  deps,
  auth,
  personalData,
}: {
  deps: Deps;
  auth: Auth;
  personalData: readonly PersonalDataPart[];
}) {
  const parts = [enrolmentsPersonalData, ...personalData];
  return (
    new Hono<SessionEnv>()
      // Personal data: never stored by a browser or proxy cache.
      .use(async (c, next) => {
        c.header('cache-control', 'no-store');
        await next();
      })
      .put('/name', checkFirst(requireUser), jsonBody(updateNameSchema), async (c) => {
        await renameMe(deps, c.get('me'), c.req.valid('json'), parts);
        return c.json({ renamed: true });
      })
      .get('/enrolments', async (c) => {
        c.header('cache-control', personal);
        return answerJson(c, { enrolments: await listMyEnrolments(deps, c.get('me')) });
      })
      .post('/enrolments', checkFirst(requireUser), jsonBody(enrolInputSchema), async (c) =>
        c.json(await enrol(deps, c.get('me'), c.req.valid('json')), 201),
      )
      .delete('/enrolments/:id', async (c) => {
        await removeEnrolment(deps, c.get('me'), c.req.param('id'));
        return c.json({ removed: true });
      })
      .get('/export', async (c) => {
        const { filename, data } = await exportMyData(deps, c.get('me'), parts);
        c.header('content-disposition', `attachment; filename="${filename}"`);
        return c.body(JSON.stringify(data, null, 2), 200, { 'content-type': 'application/json; charset=utf-8' });
      })
      .delete('/', async (c) => {
        await deleteMyAccount(deps, c.get('me'), parts);
        // The session rows are gone, so the cookie would be refused anyway; clearing it tidies the browser.
        const { authCookies } = await auth.$context;
        for (const cookie of [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken]) {
          const { path, domain, secure, httpOnly, sameSite } = cookie.attributes;
          deleteCookie(c, cookie.name, { path, domain, secure, httpOnly, sameSite });
        }
        return c.json({ deleted: true });
      })
  );
}
