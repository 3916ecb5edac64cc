import type { PushSubscriptionInput } from '../../../common/notices.ts';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';

/**
 * This device's push subscription (issue 38 §2). Permission is asked only from a user's click, at the moment the
 * page explains what it is for; iOS shows web push only to an app added to the home screen.
 */
export type PushState = 'unsupported' | 'ios-needs-install' | 'denied' | 'off' | 'on';

const supported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const isIos = () =>
  /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
const isInstalled = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as { standalone?: boolean }).standalone === true;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!supported()) return isIos() && !isInstalled() ? 'ios-needs-install' : 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription()) && Notification.permission === 'granted' ? 'on' : 'off';
}

/** base64url text as the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Asks for permission (call from a click), subscribes this device and tells the server. */
export async function turnPushOn(pushKey: string): Promise<PushState> {
  if (!supported()) return pushState();
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushKey) }));
  const json = subscription.toJSON() as PushSubscriptionInput;
  await readJson(await client.api.me['push-subscriptions'].$post({ json }));
  return 'on';
}

/** Stops push on this device: the server forgets it, and the browser's subscription ends. */
export async function turnPushOff(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await readJson(await client.api.me['push-subscriptions'].$delete({ json: { endpoint: subscription.endpoint } }));
    await subscription.unsubscribe();
  }
  return pushState();
}
