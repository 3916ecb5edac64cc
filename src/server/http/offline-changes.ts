import { createMiddleware } from 'hono/factory';
import { apiErrorBodySchema } from '../../common/api-error.ts';
import type { SessionEnv } from '../auth/auth.middleware.ts';
import type { Deps } from '../deps.ts';
import { createError } from './errors.ts';
import type { StoredRefusal } from './refusals.storage.ts';

/** How long a refusal is answered again; the same change sent later runs anew. */
const keepRefusalsMs = 30 * 24 * 3_600_000;

/** Ids the client makes: visible ASCII, no spaces, short. */
const changeIdPattern = /^[\x21-\x7e]{1,100}$/;

/** Refusals that a later try may not meet (signed out, too slow, too many): the client sends those again. */
const notFinal = new Set([401, 408, 429]);

const createOtherUserError = () =>
  createError({
    code: 'auth.other_user',
    message: 'This was saved by another account. Log in as that account to send it.',
    status: 401,
  });

const createInvalidChangeIdError = () =>
  createError({
    code: 'request.invalid',
    message: 'Change-Id must be 1 to 100 visible ASCII characters, without spaces.',
    status: 400,
  });

/**
 * The two headers of a change a device queued offline (docs/api.md), on the routes that take queued changes.
 *
 * `Change-User` names the user whose change it is. A log-in in another tab can swap the session cookie between
 * the client's check that the queue is this user's and its request; only the server sees both at once, so a
 * change is never made as another account.
 *
 * `Change-Id` is the change's own id. A final refusal (any 4xx but 401, 408 and 429) is stored under the user
 * and that id, and the same change sent again gets the same answer without the route running, whatever changed
 * meanwhile: an answer refused because its question did not exist yet stays refused once the question arrives,
 * so the device, which may have shown the refusal and kept the text for the user to deal with, never finds the
 * change went through behind their back. Successes are not stored: the routes are exactly-once by their
 * entity ids already, and votes are set, not toggled.
 */
export function offlineChanges(deps: Pick<Deps, 'repos' | 'clock'>) {
  const refusals = deps.repos.refusals;
  return createMiddleware<SessionEnv>(async (c, next) => {
    const changeId = c.req.header('change-id');
    if (changeId !== undefined && !changeIdPattern.test(changeId)) throw createInvalidChangeIdError();
    const me = c.get('me');
    // A visitor gets the route's own 401, in the spec's words for the action.
    if (!me) return next();
    const changeUser = c.req.header('change-user');
    if (changeUser !== undefined && changeUser !== me.id) throw createOtherUserError();
    if (changeId === undefined) return next();

    const expiry = () => new Date(deps.clock.now().getTime() - keepRefusalsMs).toISOString();
    const before = await refusals.find(me.id, changeId, expiry());
    if (before) return answer(before);
    await next();
    const refusal = await finalRefusal(c.res);
    if (!refusal) return;
    const stored = { userId: me.id, changeId, ...refusal, createdAt: deps.clock.now().toISOString() };
    if (await refusals.store(stored, expiry())) return;
    // The same change sent twice at once, and the other one's refusal was stored first: both get that one.
    const first = await refusals.find(me.id, changeId, expiry());
    if (!first) return;
    c.res = undefined;
    c.res = answer(first);
  });
}

const answer = (refusal: StoredRefusal) =>
  new Response(refusal.body, { status: refusal.status, headers: { 'content-type': 'application/json' } });

/** The answer as a refusal to store, if it is a final one in the one error shape. */
async function finalRefusal(res: Response): Promise<StoredRefusal | undefined> {
  if (res.status < 400 || res.status >= 500 || notFinal.has(res.status)) return undefined;
  const body = await res.clone().text();
  let parsed;
  try {
    parsed = apiErrorBodySchema.safeParse(JSON.parse(body));
  } catch {
    return undefined;
  }
  // `request.aborted`: the client hung up before the body arrived; the change itself was never judged.
  if (!parsed.success || parsed.data.error.code === 'request.aborted') return undefined;
  return { status: res.status, body };
}
