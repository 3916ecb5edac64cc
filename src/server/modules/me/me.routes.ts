import { Hono } from 'hono';
import { requireUser, type SessionReader } from '../../auth/auth.session.ts';

/** `GET /api/me`: the signed-in user, or 401. */
export function createMeRoutes(deps: { readSession: SessionReader }) {
  return new Hono().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await requireUser(deps.readSession, c));
  });
}

/**
 * `GET /api/session`: `{ user }`, null when signed out. The app asks this on every start, and being signed
 * out is an answer there, not an error (a 401 would be logged in every visitor's console).
 */
export function createSessionRoutes(deps: { readSession: SessionReader }) {
  return new Hono().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ user: (await deps.readSession(c)) ?? null });
  });
}
