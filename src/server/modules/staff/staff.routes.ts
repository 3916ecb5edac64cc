import { Hono } from 'hono';
import type { SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { countImportedAccountsWaiting } from './staff.usecases.ts';

/**
 * `/api/staff`: what the admin's dashboard reads about accounts. Staff are made on the server only (the CLI),
 * never through the API. Needs the session middleware (app.ts).
 */
export function createStaffRoutes(deps: Deps) {
  return new Hono<SessionEnv>().get('/imported-accounts', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await countImportedAccountsWaiting(deps, c.get('me')));
  });
}
