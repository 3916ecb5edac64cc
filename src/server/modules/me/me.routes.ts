import { Hono } from 'hono';
import { requireUser, type SessionReader } from '../../auth/auth.session.ts';

export function createMeRoutes(deps: { readSession: SessionReader }) {
  return new Hono().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await requireUser(deps.readSession, c));
  });
}
