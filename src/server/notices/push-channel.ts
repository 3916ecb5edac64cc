import type { Repositories } from '../storage/storage.ts';
import type { PushSender } from '../push/push-sender.ts';
import type { ChannelSender } from './delivery-worker.ts';

/**
 * The push channel (issue 38 §2, docs/push.md): a delivery names the device's subscription; a subscription gone
 * (removed meanwhile, or the push service's 404/410) makes it `gone`, and the subscription is forgotten.
 */
export function createPushChannel(deps: { repos: Repositories; sender: PushSender }): ChannelSender {
  const { notices } = deps.repos;
  return {
    channel: 'push',
    atOnce: 8,
    async send(delivery) {
      const subscription = await notices.findPushSubscription(delivery.target);
      if (!subscription) return { sent: false, gone: true, retry: false, reason: 'the device no longer subscribes' };
      const outcome = await deps.sender.send(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.parse(delivery.payload),
        // A reminder or a confirmation is worth waking a phone for; one kept a day at most (the service's TTL).
        { urgency: 'high', ttlSeconds: 24 * 3_600, topic: delivery.kind.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) },
      );
      if (!outcome.sent && outcome.gone) await notices.deletePushSubscription(subscription.id);
      return outcome;
    },
  };
}

/**
 * Where a server may send pushes: the endpoint a browser's push service gave, never any address a user typed. In
 * production only https, to the push services browsers use (Google's for Chrome and Edge on Android, Mozilla's,
 * Apple's, Microsoft's); elsewhere any http(s) address, for the local stand-in.
 */
const pushServiceHosts = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

export function isPushEndpointAllowed(endpoint: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (!production) return url.protocol === 'https:' || url.protocol === 'http:';
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    pushServiceHosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`))
  );
}
