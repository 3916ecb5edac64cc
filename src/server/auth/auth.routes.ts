import { Hono } from 'hono';
import { z } from 'zod';
import {
  authMessages,
  loginInputSchema,
  newPasswordSchema,
  passwordResetRequestSchema,
  signUpInputSchema,
} from '../../common/auth.schemas.ts';
import type { Env } from '../env.ts';
import { clientAddress } from '../http/client-address.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { clientIpHeader, type Auth } from './auth.ts';

const redirectField = { callbackURL: z.string().max(500).optional() };

/** Our contracts, checked before better-auth sees a body: its own checks are looser (no name limit). */
const bodySchemas: Record<string, z.ZodType> = {
  '/sign-up/email': signUpInputSchema.extend(redirectField),
  '/sign-in/email': loginInputSchema.extend({ ...redirectField, rememberMe: z.boolean().optional() }),
  '/request-password-reset': passwordResetRequestSchema.extend({ redirectTo: z.string().max(500).optional() }),
  '/reset-password': newPasswordSchema,
};

/** better-auth's codes mapped to the spec's words (§8); others keep better-auth's own message. */
const messageByCode: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: authMessages.incorrectCredentials,
  EMAIL_NOT_VERIFIED: authMessages.verifyFirst,
  INVALID_EMAIL: authMessages.invalidEmail,
  USER_NOT_FOUND: authMessages.userNotFound,
  INVALID_TOKEN: 'This link is invalid or has expired. Please ask for a new one.',
};

/**
 * Everything under /api/auth goes to better-auth, through here: the body is checked against our schemas,
 * the client address is taken from the connection for the rate limiter, and errors get our one shape.
 */
export function createAuthRoutes(deps: { auth: Auth; env: Env }) {
  const app = new Hono();

  app.on(['GET', 'POST'], '/*', async (c) => {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    headers.set(clientIpHeader, clientAddress(c, deps.env.trustProxy));

    let body: string | undefined;
    if (c.req.method === 'POST') {
      body = await c.req.text();
      const schema = bodySchemas[url.pathname.slice('/api/auth'.length)];
      if (schema) body = JSON.stringify(parseJsonBody(schema, c.req.header('content-type'), body));
    }

    const response = await deps.auth.handler(new Request(url, { method: c.req.method, headers, body }));
    const out = response.status >= 400 ? await toApiError(response) : response;
    // Through c.newResponse, so the headers earlier middleware prepared (security headers) are kept.
    return c.newResponse(out.body, out);
  });

  return app;
}

async function toApiError(response: Response): Promise<Response> {
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
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.delete('content-length');
  return new Response(JSON.stringify({ error: { code: `auth.${code.toLowerCase()}`, message } }), {
    status: response.status,
    headers,
  });
}
