import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Db } from '../../db/create-db.ts';

export function createHealthRoutes(deps: { db: Db }) {
  return new Hono().get('/', async (c) => {
    c.header('cache-control', 'no-store');
    try {
      await sql`select 1`.execute(deps.db);
      return c.json({ status: 'ok', database: 'ok' });
    } catch {
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
  });
}
