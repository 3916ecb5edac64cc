import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Db } from '../../db/create-db.ts';

/** How long one database check answers for: probes and load balancers may call this many times a second. */
const checkTtlMs = 1_000;

export function createHealthRoutes(deps: { db: Db; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let last: { at: number; ok: Promise<boolean> } | undefined;
  const databaseOk = () => {
    if (!last || now() - last.at >= checkTtlMs) {
      last = { at: now(), ok: sql`select 1`.execute(deps.db).then(() => true, () => false) };
    }
    return last.ok;
  };

  // No cache headers: a JSON answer without Last-Modified is not stored by browsers or proxies anyway.
  return new Hono().get('/', async (c) => {
    return (await databaseOk())
      ? c.json({ status: 'ok', database: 'ok' })
      : c.json({ status: 'error', database: 'unreachable' }, 503);
  });
}
