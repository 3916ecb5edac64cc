import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  authMessages,
  changePasswordSchema,
  confirmingLoginInputSchema,
  newPasswordSchema,
  passwordResetRequestSchema,
  resendVerificationSchema,
  signUpInputSchema,
} from '../../common/auth.schemas.ts';
import type { Env } from '../env.ts';
import { clientAddress } from '../http/client-address.ts';
import { createError } from '../http/errors.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { clientIpHeader, type Auth } from './auth.ts';
import { confirmAddress, tokenEmail } from './auth.verification.ts';

const redirect = z.string().max(500).optional();

/** A password-reset request is answered no sooner than this, for every address (see the route). */
export const passwordResetAnswerMs = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** better-auth's codes mapped to our words (the spec's where it has them); others keep better-auth's message. */
const messageByCode: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: authMessages.incorrectCredentials,
  EMAIL_NOT_VERIFIED: authMessages.verifyFirst,
  INVALID_EMAIL: authMessages.invalidEmail,
  INVALID_TOKEN: 'This link is invalid or has expired. Please ask for a new one.',
  INVALID_PASSWORD: 'That is not your current password.',
  CREDENTIAL_ACCOUNT_NOT_FOUND:
    'Your account has no password yet: use “Forgot Password?” on the login page to set one.',
};

/** Refusals that belong to one field of the form that sent them. */
const fieldByCode: Record<string, string> = { INVALID_PASSWORD: 'currentPassword' };

/**
 * `/api/auth/*`: the few better-auth endpoints the app uses, and nothing else (any other path is a 404).
 * Each body is checked against our own contract first (better-auth's are looser: no name limit, any extra
 * field passes), the client address is taken from the connection for the rate limiter, answers are never
 * cached and never carry a session token (it lives in the HttpOnly cookie only), and errors get our shape.
 */
export function createAuthRoutes(deps: { auth: Auth; env: Env }) {
  const { auth, env } = deps;
  const app = new Hono();
  // Every answer here is personal, refusals included. `private` too: Firebase Hosting drops the Set-Cookie of an
  // answer that does not say so (docs/decisions/0038).
  app.use(async (c, next) => {
    await next();
    c.header('cache-control', 'private, no-store');
  });

  /** Hands the request to better-auth, with `body` (already checked) in place of what the client sent. */
  const forward = async (c: Context, body?: unknown): Promise<Response> => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(clientIpHeader, clientAddress(c, env.trustedProxies));
    if (body !== undefined) headers.set('content-type', 'application/json');
    const request = new Request(c.req.url, {
      method: c.req.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answer(c, await auth.handler(request));
  };

  /**
   * A POST endpoint whose body must match `schema`; `extra` adds what the server decides, not the client.
   * `noSoonerThanMs`: a body that passed is answered no sooner than this, however quick the work was.
   */
  const post = <S extends z.ZodType>(
    path: string,
    schema: S,
    extra: (data: z.output<S>) => object = () => ({}),
    noSoonerThanMs = 0,
  ) =>
    app.post(path, async (c) => {
      const data = parseJsonBody(schema, c.req.header('content-type'), await c.req.text());
      const started = performance.now();
      const response = await forward(c, { ...(data as object), ...extra(data) });
      await sleep(noSoonerThanMs - (performance.now() - started));
      return response;
    });

  post('/sign-up/email', signUpInputSchema);
  post('/sign-out', z.strictObject({}));
  // Where the e-mailed link leads: our page, never a URL the client chose. Whether an address has an account
  // must not show (DESIGN "Product decisions"): better-auth answers every address alike, and the floor hides
  // that a known one takes longer (a link stored, an e-mail queued). better-auth's own floor for sending the
  // verification link again is the same 500 ms.
  post(
    '/request-password-reset',
    passwordResetRequestSchema,
    () => ({ redirectTo: `${env.publicUrl}/change-password` }),
    passwordResetAnswerMs,
  );
  post('/reset-password', newPasswordSchema);
  post('/send-verification-email', resendVerificationSchema);
  // A new password ends every other session, whatever the client asks.
  post('/change-password', changePasswordSchema, () => ({ revokeOtherSessions: true }));

  // A login may carry the token of the e-mailed verification link: the address is confirmed only together
  // with the account's password (docs/decisions/0003).
  app.post('/sign-in/email', async (c) => {
    const { verificationToken, ...login } = parseJsonBody(
      confirmingLoginInputSchema,
      c.req.header('content-type'),
      await c.req.text(),
    );
    const first = await forward(c, login);
    if (!verificationToken || first.status !== 403 || (await peekCode(first)) !== 'auth.email_not_verified')
      return first;
    // better-auth refuses an unverified account only after the password matched.
    await confirmAddress(auth, login.email, verificationToken);
    return forward(c, login);
  });

  // The verification link opens the login page with its token (it does not verify by itself).
  app.get('/verify-email', (c) => {
    const token = c.req.query('token');
    const target =
      token && tokenEmail(token) ? `/login?verify=${encodeURIComponent(token)}` : '/login?error=INVALID_TOKEN';
    return c.redirect(target, 302);
  });
  // The reset link: better-auth checks the token and redirects to /change-password with it.
  app.get('/reset-password/:token', (c) => forward(c));

  if (env.google) {
    post(
      '/sign-in/social',
      z.strictObject({
        provider: z.literal('google'),
        callbackURL: redirect,
        newUserCallbackURL: redirect,
        errorCallbackURL: redirect,
      }),
    );
    app.get('/callback/google', (c) => forward(c));
  }

  app.all('*', () => {
    throw createError({ code: 'request.not_found', message: 'There is no such API route.', status: 404 });
  });

  return app;
}

/** The error code of an answer already rewritten by `answer`, without consuming it. */
async function peekCode(response: Response): Promise<string | undefined> {
  try {
    return ((await response.clone().json()) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/**
 * better-auth's answer as ours: through `c.newResponse`, so headers set earlier (security headers) stay;
 * errors in our shape; no session token in any body.
 */
async function answer(c: Context, response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  let out: Response;
  if (response.status >= 400) out = await toApiError(response, headers);
  else {
    // Redirects come with an empty body (and a JSON content type).
    const text = await response.text();
    const json =
      text && response.headers.get('content-type')?.includes('application/json')
        ? JSON.stringify(withoutTokens(JSON.parse(text)))
        : text;
    headers.delete('content-length');
    out = new Response(json || null, { status: response.status, headers });
  }
  return c.newResponse(out.body, out);
}

/** Drops every `token` field: the session token belongs in the HttpOnly cookie, where scripts cannot read it. */
function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, v]) => [key, withoutTokens(v)]),
  );
}

async function toApiError(response: Response, headers: Headers): Promise<Response> {
  const text = await response.text();
  let code = 'UNKNOWN';
  let message = authMessages.somethingWentWrong as string;
  try {
    const json = JSON.parse(text) as { code?: string; message?: string };
    code = json.code ?? code;
    message = json.message ?? message;
  } catch {
    // better-auth answers some refusals (429) with plain text.
  }
  if (response.status === 429) {
    code = 'TOO_MANY_REQUESTS';
    message = authMessages.tooManyAttempts;
  }
  message = messageByCode[code] ?? message;
  const field = fieldByCode[code];
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.delete('content-length');
  const error = { code: `auth.${code.toLowerCase()}`, message, ...(field ? { fields: { [field]: message } } : {}) };
  return new Response(JSON.stringify({ error }), { status: response.status, headers });
}
