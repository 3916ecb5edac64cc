import { Hono } from 'hono';
import { buyPackageInputSchema, packageOfferInputSchema } from '../../../common/packages.ts';
import { packagePaymentInputSchema } from '../../../common/payments.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { jsonBody } from '../../http/json-body.ts';
import { personal } from '../../http/etag.ts';
import {
  buyPackage,
  listOffers,
  listPackages,
  readPackageReceipt,
  recordPackagePayment,
  saveOffer,
} from './bookings.packages.ts';

const requireAdmin = (me: Parameters<typeof requireRole>[0]) => requireRole(me, 'admin');

/**
 * `/api/packages` (issue 37 §3): the offers, for anyone (the offers page shows them to visitors too); the admin
 * adds and changes them; a signed-in user buys one and reads theirs; the admin reads every package and records
 * its money; a package's student and the admin download its payments' receipts.
 */
export function createPackageRoutes(deps: Deps) {
  return (
    new Hono<SessionEnv>()
      .get('/offers', async (c) => {
        c.header('cache-control', 'no-store');
        return c.json(await listOffers(deps, c.get('me')));
      })
      .post('/offers', checkFirst(requireAdmin), jsonBody(packageOfferInputSchema), async (c) => {
        const { offer, created } = await saveOffer(deps, c.get('me'), c.req.valid('json'));
        return c.json(offer, created ? 201 : 200);
      })
      .get('/', checkFirst(requireUser), async (c) => {
        c.header('cache-control', 'no-store');
        return c.json(await listPackages(deps, c.get('me')));
      })
      .post('/', checkFirst(requireUser), jsonBody(buyPackageInputSchema), async (c) => {
        const { package: pkg, created } = await buyPackage(deps, c.get('me'), c.req.valid('json'));
        return c.json(pkg, created ? 201 : 200);
      })
      .post('/:id/payments', checkFirst(requireAdmin), jsonBody(packagePaymentInputSchema), async (c) =>
        c.json(await recordPackagePayment(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      // A payment's receipt as a PDF (issue 37 §4): the package's student or the admin.
      .get('/:id/receipts/:paymentId', checkFirst(requireUser), async (c) => {
        const { fileName, pdf } = await readPackageReceipt(
          deps,
          c.get('me'),
          c.req.param('id'),
          c.req.param('paymentId'),
        );
        return c.body(new Uint8Array(pdf), 200, {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="${fileName}"`,
          'cache-control': personal,
        });
      })
  );
}
