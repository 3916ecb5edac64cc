import { expect, test } from '@playwright/test';
import { createPushStandin } from '../scripts/push-standin.ts';
import { noticeMessages } from '../src/common/notices.ts';
import { sastDate } from '../src/common/sast.ts';
import type { RecordedMessage } from '../scripts/whatsapp-standin.ts';
import { e2eWhatsApp } from '../playwright.config.ts';
import {
  confirmTime,
  expectNoAxeViolations,
  newModule,
  origin,
  requestBooking,
  userPage,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

/**
 * Push on the installed app (issue 38 §2), as far as a browser here can go. Chromium cannot subscribe to Google's
 * push service without the internet (docs/push.md), so the page's `pushManager.subscribe` hands out a subscription
 * of a local push service (scripts/push-standin.ts, which checks VAPID and decrypts each message with that
 * subscription's keys); everything else is the app's own: the student turns push on from the profile, her tutor
 * confirms, the server's push reaches the push service, and that message, given to the app's service worker through
 * Chromium's DevTools protocol, shows a notification that opens her session.
 */
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * 24 * 3_600_000));

/** The WhatsApp Cloud API stand-in the journeys' server sends through (tests/start-server.ts). */
const whatsApp = `http://127.0.0.1:${e2eWhatsApp.port}/stand-in`;
const whatsAppTo = async (number: string): Promise<RecordedMessage[]> =>
  (await fetch(`${whatsApp}/messages?to=${number}`)).json() as Promise<RecordedMessage[]>;

test('at 360 px the student turns on push and WhatsApp, her tutor confirms: one of each, and the tap opens it', async ({
  browser,
}) => {
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

    await page.setViewportSize(viewports.phone);
    await page.goto('/profile');
    await waitForActiveServiceWorker(page);
    const section = page.getByRole('region', { name: noticeMessages.preferencesTitle });
    await section.getByRole('checkbox', { name: /^Your session is confirmed: Push/ }).check();
    // WhatsApp needs her number first; the owner's account is configured on this server (tests/start-server.ts).
    await section.getByRole('checkbox', { name: /^Your session is confirmed: WhatsApp/ }).check();
    await section.getByRole('button', { name: 'Save choices' }).click();
    await expect(section.getByText(noticeMessages.whatsappNeedsNumber)).toBeVisible();
    const local = `082${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const number = `27${local.slice(1)}`;
    await section.getByLabel('WhatsApp number').fill(`${local.slice(0, 3)} ${local.slice(3, 6)} ${local.slice(6)}`);
    await section.getByRole('button', { name: 'Save choices' }).click();
    await expect(section.getByText('This device shows your notifications.')).toBeVisible();
    await expect(page.getByText(noticeMessages.saved)).toBeVisible();
    expect(await section.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await expectNoAxeViolations(page);
    await section.screenshot({ path: 'test-results/screenshots/notice-preferences-whatsapp-phone.png' });

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
    // And one WhatsApp template message to her number, naming the session in SAST.
    await expect.poll(async () => (await whatsAppTo(number)).length, { timeout: 30_000 }).toBe(1);
    const [whatsAppMessage] = await whatsAppTo(number);
    expect(whatsAppMessage!.template).toBe('tutorbook_booking_confirmed');
    expect(whatsAppMessage!.text).toContain(module.name);
    expect(whatsAppMessage!.text).toMatch(/12:30.13:30 SAST/);
    expect(whatsAppMessage!.text).toContain(requested.paymentReference);

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
