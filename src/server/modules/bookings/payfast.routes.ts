import { Hono } from 'hono';
import { payFastCheckoutInputSchema } from '../../../common/payfast.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { clientAddress } from '../../http/client-address.ts';
import { createError } from '../../http/errors.ts';
import { jsonBody } from '../../http/json-body.ts';
import { confirmWithPayFast, isFromHosts, noticeHosts, readNotice } from '../../payfast/payfast.ts';
import { acceptPayFastNotice, startPayFastCheckout } from './bookings.payfast.ts';

/**
 * `/api/payfast` (issue 37 §4, docs/decisions/0058): a signed-in student's checkout of what they owe, and PayFast's
 * payment notices. The notice route is the API's one write that comes from another site: PayFast's servers post
 * it as a form, without our Origin or a session (app.ts lets it past the origin check); its signature, address
 * and PayFast's confirmation stand for them.
 */
export function createPayFastRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .post('/checkout', checkFirst(requireUser), jsonBody(payFastCheckoutInputSchema), async (c) =>
      c.json(await startPayFastCheckout(deps, c.get('me'), c.req.valid('json'))),
    )
    .post('/notify', async (c) => {
      if (!c.req.header('content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded'))
        throw createError({
          code: 'request.unsupported_content_type',
          message: 'A payment notice is a form (application/x-www-form-urlencoded).',
          status: 400,
        });
      const notice = readNotice(await c.req.text());
      const settings = deps.config.payfast;
      try {
        const outcome = await acceptPayFastNotice(deps, notice, {
          fromPayFast: () =>
            settings
              ? isFromHosts(clientAddress(c, deps.config.trustedProxies), noticeHosts(settings))
              : Promise.resolve(false),
          confirmedByPayFast: () => (settings ? confirmWithPayFast(settings, notice.signed) : Promise.resolve(false)),
        });
        deps.logger.info({ payfast: outcome, paymentId: notice.fields.get('pf_payment_id') }, 'PayFast notice');
        return c.text('OK');
      } catch (error) {
        // Someone's forgery, or PayFast's notice for something we did not ask: the operator should hear of it.
        const code = (error as { code?: string }).code;
        if (code?.startsWith('payfast.'))
          deps.logger.warn({ payfast: code, paymentId: notice.fields.get('pf_payment_id') }, 'PayFast notice refused');
        throw error;
      }
    });
}
