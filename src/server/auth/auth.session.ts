import type { Context } from 'hono';
import type { Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';
import type { Db } from '../db/create-db.ts';
import { createForbiddenError, createUnauthenticatedError } from '../http/errors.ts';
import type { Auth } from './auth.ts';

export type SessionReader = (c: Context) => Promise<Me | undefined>;

/** Reads the signed-in user (with role and tutor categories) once per request. */
export function createSessionReader(deps: { auth: Auth; db: Db }): SessionReader {
  const cache = new WeakMap<Request, Promise<Me | undefined>>();
  return (c) => {
    let me = cache.get(c.req.raw);
    if (!me) {
      me = readMe(deps, c.req.raw.headers);
      cache.set(c.req.raw, me);
    }
    return me;
  };
}

async function readMe(deps: { auth: Auth; db: Db }, headers: Headers): Promise<Me | undefined> {
  const session = await deps.auth.api.getSession({ headers });
  if (!session) return undefined;
  const row = await deps.db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'email_verified', 'role'])
    .where('id', '=', session.user.id)
    .executeTakeFirst();
  if (!row) return undefined;
  const categories =
    row.role === 'tutor'
      ? (await deps.db.selectFrom('tutor_categories').select('category').where('user_id', '=', row.id).orderBy('category').execute()).map((r) => r.category)
      : [];
  return { id: row.id, name: row.name, email: row.email, emailVerified: Boolean(row.email_verified), role: row.role, categories };
}

export async function requireUser(readSession: SessionReader, c: Context): Promise<Me> {
  const me = await readSession(c);
  if (!me) throw createUnauthenticatedError();
  return me;
}

export function requireRole(me: Me, ...allowed: Role[]): Me {
  if (!allowed.includes(me.role)) throw createForbiddenError();
  return me;
}
