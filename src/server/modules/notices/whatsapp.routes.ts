import { Hono } from 'hono';
import type { Deps } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import { isSignedWebhook, readStatuses, verifyWebhookSubscription } from '../../whatsapp/whatsapp.webhook.ts';

const notConfigured = () =>
  createError({ code: 'whatsapp.not_configured', message: 'WhatsApp is not set up here.', status: 404 });

/**
 * `/api/whatsapp/webhook`: Meta's status reports on the messages sent (docs/whatsapp.md). The GET is Meta's check
 * of the subscription (its challenge echoed for the verify token); the POST is signed with the app secret over its
 * bytes, checked before anything is read, and each status is kept on its delivery: one that failed after it was
 * accepted shows among the admin's failed deliveries. No session, no Origin (the origin check lets it past).
 */
export function createWhatsAppRoutes(deps: Deps) {
  return new Hono()
    .get('/webhook', (c) => {
      const whatsapp = deps.config.whatsapp;
      if (!whatsapp) throw notConfigured();
      const challenge = verifyWebhookSubscription(new URL(c.req.url).searchParams, whatsapp.verifyToken);
      if (challenge === undefined) return c.text('Forbidden', 403);
      return c.text(challenge, 200);
    })
    .post('/webhook', async (c) => {
      const whatsapp = deps.config.whatsapp;
      if (!whatsapp) throw notConfigured();
      const raw = Buffer.from(await c.req.arrayBuffer());
      if (!isSignedWebhook(raw, c.req.header('x-hub-signature-256'), whatsapp.appSecret)) {
        deps.logger.warn('WhatsApp webhook: a request not signed with the app secret was refused');
        return c.text('Forbidden', 403);
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        return c.text('Bad Request', 400);
      }
      for (const status of readStatuses(json))
        await deps.repos.noticeDeliveries.reportByProvider(status.providerId, status.status, status.error);
      return c.text('OK', 200);
    });
}
