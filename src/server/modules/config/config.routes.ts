import { Hono } from 'hono';
import type { Env } from '../../env.ts';

/** What the client needs to know about this deployment (never secrets). */
export function createConfigRoutes(deps: { env: Env }) {
  const body = { googleSignIn: Boolean(deps.env.google), bookingMinLeadHours: deps.env.bookingMinLeadHours };
  return new Hono().get('/', (c) => {
    c.header('cache-control', 'no-cache');
    return c.json(body);
  });
}
