import { Hono } from 'hono';
import type { SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';

/** `GET /api/me`: the signed-in user, or 401. */
export function createMeRoutes() {
  return new Hono<SessionEnv>().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(requireUser(c.get('me')));
  });
}

/**
 * `GET /api/session`: `{ user }`, null when signed out. The app asks this on every start, and being signed
 * out is an answer there, not an error (a 401 would be logged in every visitor's console).
 */
export function createSessionRoutes() {
  return new Hono<SessionEnv>().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ user: c.get('me') ?? null });
  });
}
