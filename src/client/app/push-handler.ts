/**
 * The service worker's side of push notifications (issue 38 §2): a push message (server/notices/, as
 * common/notices.ts's `PushPayload`) becomes a notification, and the app icon's badge shows its number; a tap
 * opens the page it names in a window of the app (offline too: the worker answers the navigation from its shell).
 * Imported by outbox-worker.ts, which the worker Workbox generates loads.
 */

interface PushEvent extends Event {
  readonly data: { json(): unknown } | null;
  waitUntil(work: Promise<unknown>): void;
}
interface NotificationEvent extends Event {
  readonly notification: Notification & { data: unknown };
  waitUntil(work: Promise<unknown>): void;
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
const worker = globalThis as unknown as {
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  registration: ServiceWorkerRegistration;
  location: Location;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  navigator: Navigator & { setAppBadge?(count?: number): Promise<void>; clearAppBadge?(): Promise<void> };
};

/** The fields a notification needs, read defensively: a message this worker cannot read shows nothing. */
function readPayload(event: PushEvent) {
  try {
    const data = event.data?.json() as Record<string, unknown> | undefined;
    if (!data || typeof data.title !== 'string' || typeof data.path !== 'string') return undefined;
    return {
      id: typeof data.id === 'string' ? data.id : undefined,
      title: data.title,
      body: typeof data.body === 'string' ? data.body : '',
      // Only a path of this site: a payload never sends the app elsewhere.
      path: data.path.startsWith('/') && !data.path.startsWith('//') ? data.path : '/',
      badge: typeof data.badge === 'number' ? data.badge : undefined,
    };
  } catch {
    return undefined;
  }
}

worker.addEventListener('push', (event) => {
  const payload = readPayload(event);
  if (!payload) return;
  event.waitUntil(
    (async () => {
      await worker.registration.showNotification(payload.title, {
        body: payload.body,
        ...(payload.id ? { tag: payload.id } : {}),
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { path: payload.path },
      });
      if (payload.badge !== undefined) await worker.navigator.setAppBadge?.(payload.badge).catch(() => undefined);
    })(),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { path?: unknown } | null;
  const path = typeof data?.path === 'string' ? data.path : '/';
  const url = new URL(path, worker.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === worker.location.origin);
      if (open) {
        const shown = (await open.navigate(url).catch(() => null)) ?? open;
        await shown.focus();
      } else await worker.clients.openWindow(url);
    })(),
  );
});
