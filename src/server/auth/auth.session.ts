import type { Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';
import { createForbiddenError, createUnauthenticatedError } from '../http/errors.ts';
import type { AccountsRepository } from './accounts.storage.ts';
import type { Auth } from './auth.ts';

/**
 * The signed-in user of a request (with role and tutor categories), or undefined for a visitor. `recheck`:
 * reading again for a request already under way (an open event stream), which must not extend the session.
 */
export async function readMe(
  deps: { auth: Auth; accounts: AccountsRepository },
  headers: Headers,
  options: { recheck?: boolean } = {},
): Promise<Me | undefined> {
  const session = await deps.auth.api.getSession(
    options.recheck ? { headers, query: { disableRefresh: true } } : { headers },
  );
  if (!session) return undefined;
  return deps.accounts.findSignedIn(session.user.id);
}

/** For usecases: a visitor is refused (401). */
export function requireUser(me: Me | undefined): Me {
  if (!me) throw createUnauthenticatedError();
  return me;
}

/** For usecases: a visitor is refused (401), a signed-in user without one of the roles too (403). */
export function requireRole(me: Me | undefined, ...allowed: Role[]): Me {
  const user = requireUser(me);
  if (!allowed.includes(user.role)) throw createForbiddenError();
  return user;
}
