import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse } from 'hono/utils/cookie';
import type { Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';
import { createForbiddenError, createUnauthenticatedError } from '../http/errors.ts';
import type { AccountsRepository } from './accounts.storage.ts';
import type { Auth } from './auth.ts';
import type { SessionCache } from './session-cache.ts';

/**
 * Reads the signed-in user of a request (with role and tutor categories), or undefined for a visitor. `recheck`:
 * reading again for a request already under way (an open event stream), which must not extend the session.
 */
export type ReadMe = (headers: Headers, options?: { recheck?: boolean }) => Promise<Me | undefined>;

/**
 * Reads sessions as better-auth's getSession does, without building its endpoint machinery for every request
 * (about a tenth of a signed-in read went there): the cookie's signature is checked with node:crypto, and the
 * session and its user are read in one lookup (AccountsRepository.findSignedInBySession), or taken from the
 * `cache` of sessions read lately, which drops them the moment they may have changed (session-cache.ts): a
 * session ended or a role changed anywhere counts from the next request on. What only better-auth may do it
 * still does: a session found expired (deleted, and the streams told) or due for its daily refresh (a later
 * expiry written) goes through auth.api.getSession.
 */
export function createSessionReader(deps: {
  auth: Auth;
  accounts: AccountsRepository;
  /** Sessions read lately, where the engine can tell when they change (session-cache.ts); else each request reads. */
  cache?: SessionCache;
}): ReadMe {
  let settings: Promise<SessionSettings> | undefined;

  const throughBetterAuth: ReadMe = async (headers, options = {}) => {
    const session = await deps.auth.api.getSession(
      options.recheck ? { headers, query: { disableRefresh: true } } : { headers },
    );
    if (!session) return undefined;
    return deps.accounts.findSignedIn(session.user.id);
  };

  return async (headers, options = {}) => {
    const cookies = headers.get('cookie');
    if (!cookies) return undefined;
    const { cookieName, secret, expiresInMs, updateAgeMs } = await (settings ??= sessionSettings(deps.auth));
    const sessionCookie = parse(cookies, cookieName)[cookieName];
    if (!sessionCookie) return undefined;
    const load = async () => {
      const token = signedValue(sessionCookie, secret);
      return token === undefined ? undefined : deps.accounts.findSignedInBySession(token);
    };
    // Kept by the session cookie as it came, signature and all, whatever other cookies come with it: one entry per
    // session, so that nobody makes new ones, and pushes everyone else's out, by varying or padding the rest of
    // the header. Only a cookie whose signature was checked is ever kept, so a kept one is not checked again.
    // A stream's check after a notice reads afresh: the cache may hear that notice after the stream hub does.
    const kept = deps.cache && !options.recheck ? deps.cache : undefined;
    const found = kept ? await kept.read(sessionCookie, load) : await load();
    if (!found) return undefined;
    const expiresAt = found.expiresAt.getTime();
    const now = Date.now();
    const dueForRefresh = !options.recheck && expiresAt - expiresInMs + updateAgeMs <= now;
    if (expiresAt < now || dueForRefresh) {
      // better-auth deletes it or writes a later expiry: the copy kept is out of date either way.
      kept?.forgetSession(sessionCookie);
      return throughBetterAuth(headers, options);
    }
    return found.me;
  };
}

interface SessionSettings {
  cookieName: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}

/** The session cookie's name (its prefix, and __Secure- over HTTPS), the signing secret and refresh times, as better-auth set them. */
async function sessionSettings(auth: Auth): Promise<SessionSettings> {
  const context = await auth.$context;
  return {
    cookieName: context.authCookies.sessionToken.name,
    secret: context.secret,
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  };
}

/**
 * The value of a cookie better-auth signed (`value.signature`, the signature base64 HMAC-SHA-256 of the value with
 * the secret, as better-call's getSignedCookie checks it), or undefined if it is missing or the signature is wrong.
 */
function signedValue(cookie: string | undefined, secret: string): string | undefined {
  if (!cookie) return undefined;
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return undefined;
  const value = cookie.slice(0, dot);
  const signature = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(createHmac('sha256', secret).update(value).digest('base64'));
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? value : undefined;
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
