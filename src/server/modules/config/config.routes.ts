import { Hono } from 'hono';
import type { Deps } from '../../deps.ts';

/** What the client needs to know about this deployment (never secrets). */
export function createConfigRoutes(deps: Pick<Deps, 'config'>) {
  const body = {
    googleSignIn: Boolean(deps.config.google),
    bookingMinLeadHours: deps.config.bookingMinLeadHours,
    bookingRescheduleMinHours: deps.config.bookingRescheduleMinHours,
    /** Students may pay online through PayFast (issue 37 §4). */
    payOnline: Boolean(deps.config.payfast),
  };
  return new Hono().get('/', (c) => {
    c.header('cache-control', 'no-cache');
    return c.json(body);
  });
}
