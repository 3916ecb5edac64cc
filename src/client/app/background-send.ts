/**
 * Sending with the tab closed. Where the browser has Background Sync (Chromium, Android's browsers), the page
 * asks it, whenever items are left waiting for the network, to wake the service worker once there is a
 * connection; the worker (outbox-worker.ts) then sends the queue by the same ids, taking turns with any open
 * page by the outbox's Web Lock. Elsewhere (Safari, Firefox) the queue goes when the app is next opened.
 */

/** The one Background Sync tag: registering it again while it is pending changes nothing. */
export const outboxSyncTag = 'tutorbook-outbox';

interface SyncManager {
  register(tag: string): Promise<void>;
  getTags(): Promise<string[]>;
}

/** Asks the browser to wake the worker when a connection is there; quietly nothing where it cannot. */
export async function sendWhenConnected(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as
    (ServiceWorkerRegistration & { sync?: SyncManager }) | undefined;
  await registration?.sync?.register(outboxSyncTag).catch(() => undefined);
}
