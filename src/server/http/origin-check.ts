import { createMiddleware } from 'hono/factory';
import { createError } from './errors.ts';

/**
 * Writes to the API must come from our own pages: the browser sends `Origin` with every POST, PATCH and
 * DELETE, and another site cannot forge it. The session cookie is SameSite=Lax already; this also stops a
 * page on a sibling subdomain (same site, other origin). /api/auth/* is left to better-auth, which checks
 * the same thing with its own error codes; PayFast's notice and WhatsApp's webhook come from their servers,
 * each checked by its own signature.
 */
export function requireSameOrigin(publicUrl: string) {
  return createMiddleware(async (c, next) => {
    const ownChecks =
      c.req.path.startsWith('/api/auth/') ||
      c.req.path === '/api/payfast/notify' ||
      c.req.path === '/api/whatsapp/webhook';
    if (!ownChecks && c.req.header('origin') !== publicUrl) {
      throw createError({
        code: 'request.invalid_origin',
        message: 'This request did not come from the TutorBook site.',
        status: 403,
      });
    }
    await next();
  });
}
