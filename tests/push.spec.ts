import { expect, test } from '@playwright/test';
import { createPushStandin } from '../scripts/push-standin.ts';
import { noticeMessages } from '../src/common/notices.ts';
import { sastDate } from '../src/common/sast.ts';
import { confirmTime, newModule, origin, requestBooking, userPage, waitForActiveServiceWorker } from './fixtures.ts';

/**
 * Push on the installed app (issue 38 §2), as far as a browser here can go. Chromium cannot subscribe to Google's
 * push service without the internet (docs/push.md), so the page's `pushManager.subscribe` hands out a subscription
 * of a local push service (scripts/push-standin.ts, which checks VAPID and decrypts each message with that
 * subscription's keys); everything else is the app's own: the student turns push on from the profile, her tutor
 * confirms, the server's push reaches the push service, and that message, given to the app's service worker through
 * Chromium's DevTools protocol, shows a notification that opens her session.
 */
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * 24 * 3_600_000));

test('the student turns push on, her tutor confirms, and the notification opens her session', async ({ browser }) => {
  const standin = await createPushStandin();
  try {
    const { module } = await newModule(browser, 'Statistics');
    const student = await userPage(browser, 'student');
    const { context, page } = student;
    await context.grantPermissions(['notifications'], { origin });
    await context.exposeFunction('pushStandinSubscribe', (applicationServerKey: string) => {
      const device = standin.subscribe({ applicationServerKey });
      return { id: device.id, endpoint: device.endpoint, keys: device.keys };
    });
    await context.addInitScript(() => {
      const toKey = (key: unknown) =>
        typeof key === 'string'
          ? key
          : btoa(String.fromCharCode(...new Uint8Array(key as ArrayBuffer)))
              .replace(/\+/g, '-')
              .replace(/\//g, '_')
              .replace(/=+$/, '');
      let current: PushSubscription | null = null;
      PushManager.prototype.subscribe = async function (options) {
        const made = await (
          window as unknown as {
            pushStandinSubscribe(key: string): Promise<{ endpoint: string; keys: Record<string, string> }>;
          }
        ).pushStandinSubscribe(toKey(options?.applicationServerKey));
        const json = { endpoint: made.endpoint, expirationTime: null, keys: made.keys };
        current = {
          endpoint: made.endpoint,
          expirationTime: null,
          toJSON: () => json,
          getKey: () => null,
          unsubscribe: async () => {
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        return current;
      };
      PushManager.prototype.getSubscription = async () => current;
    });

    await page.goto('/profile');
    await waitForActiveServiceWorker(page);
    const section = page.getByRole('region', { name: noticeMessages.preferencesTitle });
    await section.getByRole('checkbox', { name: /^Your session is confirmed: Push/ }).check();
    await section.getByRole('button', { name: 'Save choices' }).click();
    await expect(section.getByText('This device shows your notifications.')).toBeVisible();

    const requested = await requestBooking(page.request, {
      module: module.name,
      date: daysAhead(7),
      slots: ['08:00', '12:30', '16:00'],
      hours: 1,
    });
    const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
    await confirmTime(tutor.page.request, requested, '12:30');
    await expect.poll(() => standin.messages().length, { timeout: 30_000 }).toBe(1);
    const [message] = standin.messages();
    expect(message!.json).toMatchObject({ title: `Session confirmed: ${module.name}`, badge: 1 });
    expect((message!.json as { body: string }).body).toContain('12:30 SAST');

    // The push service's message, handed to the app's worker as Chromium's push service would.
    await page.goto('/qa');
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/`)).toBe(true);
    const { registrationId } = registrations.find((r) => r.scopeURL === `${origin}/`)!;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: message!.text });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
      );
    await expect
      .poll(shown)
      .toEqual([{ title: `Session confirmed: ${module.name}`, body: expect.stringContaining('12:30 SAST') }]);

    // A tap: the worker opens the session's page in the app's window.
    const [worker] = context.serviceWorkers();
    await worker!.evaluate(async () => {
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
    });
    await expect(page).toHaveURL(new RegExp(`/student-dashboard#booking-${requested.id}$`));
    await expect.poll(shown).toEqual([]);
  } finally {
    await standin.close();
  }
});
