import { Hono } from 'hono';
import {
  markReadInputSchema,
  noticePreferencesInputSchema,
  pushSubscriptionInputSchema,
  pushUnsubscribeInputSchema,
} from '../../../common/notices.ts';
import type { SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { jsonBody } from '../../http/json-body.ts';
import { offeredChannels, whatsappNumberOf } from '../../notices/channels.ts';
import {
  getNoticeSettings,
  listNotices,
  listFailedDeliveries,
  markNoticesRead,
  resendDelivery,
  saveNoticePreferences,
  subscribePush,
  unsubscribePush,
} from './notices.usecases.ts';

/** `/api/notices`: the user's notifications list, and marking them read. */
export function createNoticeRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/', async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await listNotices(deps, c.get('me')));
    })
    .post('/read', jsonBody(markReadInputSchema), async (c) =>
      c.json(await markNoticesRead(deps, c.get('me'), c.req.valid('json'))),
    );
}

/** `/api/me/notice-preferences` and `/api/me/push-subscriptions`: the user's choices, and this device's push. */
export function createNoticePreferenceRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/notice-preferences', async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await getNoticeSettings(deps, c.get('me'), offeredChannels(deps.config)));
    })
    .put('/notice-preferences', jsonBody(noticePreferencesInputSchema), async (c) =>
      c.json(await saveNoticePreferences(deps, c.get('me'), c.req.valid('json'), whatsappNumberOf)),
    )
    .post('/push-subscriptions', jsonBody(pushSubscriptionInputSchema), async (c) => {
      await subscribePush(deps, c.get('me'), c.req.valid('json'));
      return c.body(null, 204);
    })
    .delete('/push-subscriptions', jsonBody(pushUnsubscribeInputSchema), async (c) => {
      await unsubscribePush(deps, c.get('me'), c.req.valid('json').endpoint);
      return c.body(null, 204);
    });
}

/** `/api/admin/deliveries`: what failed for good, and sending one again (the admin). */
export function createDeliveryAdminRoutes(deps: Deps) {
  return new Hono<SessionEnv>()
    .get('/', async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await listFailedDeliveries(deps, c.get('me')));
    })
    .post('/:id/resend', async (c) => {
      await resendDelivery(deps, c.get('me'), c.req.param('id'));
      return c.body(null, 204);
    });
}
