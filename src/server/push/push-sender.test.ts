import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPushStandin, type PushStandin, type TestSubscription } from '../../../scripts/push-standin.ts';
import { createPushSender, maxPushPayloadBytes, type PushSender } from './push-sender.ts';
import type { VapidDetails } from './vapid.ts';

/**
 * The push channel against a push service on this machine (scripts/push-standin.ts), which checks each message's
 * VAPID signature and headers as FCM or Mozilla's autopush do and decrypts it with the subscription's own private
 * key, as the browser would: what arrives is what a phone would show.
 */
let standin: PushStandin;
let vapid: VapidDetails;
let sender: PushSender;

beforeAll(async () => {
  standin = await createPushStandin();
  vapid = { subject: 'mailto:hello@tutorbook.co.za', ...webpush.generateVAPIDKeys() };
  sender = createPushSender({ vapid });
});
afterAll(async () => {
  await standin?.close();
});

/** A browser's subscription made with our public key, as the app's page makes it. */
const subscribe = (): TestSubscription => standin.subscribe({ applicationServerKey: sender.vapidPublicKey });

describe('a message', () => {
  test('arrives, decrypted with the subscription’s keys to what was sent, with its TTL, urgency and topic', async () => {
    const subscription = subscribe();
    const payload = {
      title: 'Session confirmed',
      body: 'Java tutoring, Tuesday 14 January, 15:00 SAST — Thabo Mokoena',
      url: '/bookings/4f1c',
    };
    expect(
      await sender.send(subscription, payload, { ttlSeconds: 3600, urgency: 'high', topic: 'booking-4f1c' }),
    ).toEqual({ sent: true });
    expect(standin.messages(subscription.id)).toEqual([
      expect.objectContaining({
        json: payload,
        text: JSON.stringify(payload),
        ttl: 3600,
        urgency: 'high',
        topic: 'booking-4f1c',
        subject: 'mailto:hello@tutorbook.co.za',
      }),
    ]);
  });

  test('goes for a day at normal urgency without a topic unless told otherwise', async () => {
    const subscription = subscribe();
    expect(await sender.send(subscription, 'Sawubona')).toEqual({ sent: true });
    const [message] = standin.messages(subscription.id);
    expect(message).toMatchObject({ json: 'Sawubona', ttl: 86_400, urgency: 'normal' });
    expect(message).not.toHaveProperty('topic');
  });

  test('of 3,000 bytes goes; one byte more is refused before anything is sent, and not retried', async () => {
    const subscription = subscribe();
    // JSON.stringify adds the two quotes; "é" is two bytes of UTF-8.
    const fits = 'é'.repeat((maxPushPayloadBytes - 2) / 2);
    expect(await sender.send(subscription, fits)).toEqual({ sent: true });
    expect(standin.messages(subscription.id)[0]?.json).toBe(fits);

    const tooLarge = `${fits}a`;
    expect(await sender.send(subscription, tooLarge)).toEqual({
      sent: false,
      retry: false,
      reason: 'the payload is 3001 bytes of JSON, more than the 3000 a push may carry',
    });
    expect(standin.requests(subscription.id)).toHaveLength(1);
  });

  test('options no push service would take are refused before sending, not retried', async () => {
    const subscription = subscribe();
    const refusals = await Promise.all([
      sender.send(subscription, 1, { topic: 'booking 4f1c' }),
      sender.send(subscription, 1, { topic: 'b'.repeat(33) }),
      sender.send(subscription, 1, { ttlSeconds: -1 }),
      sender.send(subscription, 1, { ttlSeconds: 1.5 }),
      sender.send(subscription, undefined),
      sender.send({ ...subscription, keys: { ...subscription.keys, p256dh: 'AAAA' } }, 1),
    ]);
    for (const outcome of refusals) expect(outcome).toMatchObject({ sent: false, retry: false });
    expect(refusals.map((outcome) => !outcome.sent && outcome.reason)).toEqual([
      'topic "booking 4f1c": 1 to 32 characters of base64url (letters, digits, - and _)',
      `topic "${'b'.repeat(33)}": 1 to 32 characters of base64url (letters, digits, - and _)`,
      'ttlSeconds -1: a whole number of seconds from 0 to 2419200 (four weeks)',
      'ttlSeconds 1.5: a whole number of seconds from 0 to 2419200 (four weeks)',
      'the payload is not JSON (undefined, a function or a symbol)',
      expect.stringMatching(/^the subscription cannot be sent to: /),
    ]);
    expect(standin.requests(subscription.id)).toEqual([]);
  });
});

describe('the push service’s answer', () => {
  test.each([410, 404])('%i: the subscription is gone, to be deleted, and not retried', async (status) => {
    const subscription = subscribe();
    standin.refuse(subscription.id, status);
    const outcome = await sender.send(subscription, { title: 'Reminder' });
    expect(outcome).toMatchObject({ sent: false, gone: true, retry: false });
    expect(!outcome.sent && outcome.reason).toMatch(new RegExp(`^the subscription is gone \\(${status} `));
    expect(standin.messages(subscription.id)).toEqual([]);
  });

  test('an endpoint the service does not know is gone (404)', async () => {
    const subscription = subscribe();
    const outcome = await sender.send({ ...subscription, endpoint: `${standin.url}/push/unknown` }, 1);
    expect(outcome).toEqual({
      sent: false,
      gone: true,
      retry: false,
      reason: 'the subscription is gone (404 Not Found: no such subscription)',
    });
  });

  test.each([500, 503, 429])('%i: retried, and the same message goes once the service takes it', async (status) => {
    const subscription = subscribe();
    standin.refuse(subscription.id, status, 2);
    for (let attempt = 0; attempt < 2; attempt++) {
      const outcome = await sender.send(subscription, { title: 'Session confirmed' });
      expect(outcome).toMatchObject({ sent: false, retry: true });
      expect(outcome).not.toHaveProperty('gone');
      expect(!outcome.sent && outcome.reason).toMatch(
        new RegExp(`^the push service refused for now \\(${status} .*\\); it asks to wait 1$`),
      );
    }
    expect(await sender.send(subscription, { title: 'Session confirmed' })).toEqual({ sent: true });
    expect(standin.requests(subscription.id).map((request) => request.status)).toEqual([status, status, 201]);
    expect(standin.messages(subscription.id).map((message) => message.json)).toEqual([{ title: 'Session confirmed' }]);
  });

  test.each([400, 403, 413])('%i: not retried', async (status) => {
    const subscription = subscribe();
    standin.refuse(subscription.id, status);
    const outcome = await sender.send(subscription, 1);
    expect(outcome).toEqual({
      sent: false,
      retry: false,
      reason: expect.stringMatching(new RegExp(`^the push service refused the message \\(${status} `)) as string,
    });
  });

  test('no answer within the timeout: retried', async () => {
    const subscription = subscribe();
    standin.refuse(subscription.id, 'no-answer', 1);
    const impatient = createPushSender({ vapid, timeoutMs: 300 });
    expect(await impatient.send(subscription, 1)).toEqual({
      sent: false,
      retry: true,
      reason: 'no answer from the push service within 300 ms',
    });
    expect(await sender.send(subscription, 1)).toEqual({ sent: true });
  });

  test('no service at the address: retried', async () => {
    const gone = await createPushStandin();
    const subscription = gone.subscribe();
    await gone.close();
    expect(await sender.send(subscription, 1)).toEqual({
      sent: false,
      retry: true,
      reason: 'the push service could not be reached: ECONNREFUSED',
    });
  });
});

describe('the stand-in checks what a push service checks', () => {
  test('a sender claiming our public key but signing with another private key is refused (403)', async () => {
    const subscription = subscribe();
    const impostor = createPushSender({
      vapid: { ...vapid, privateKey: webpush.generateVAPIDKeys().privateKey },
    });
    expect(await impostor.send(subscription, { title: 'Pay here' })).toEqual({
      sent: false,
      retry: false,
      reason: 'the push service refused the message (403 Forbidden: the JWT is not signed by the private key of k)',
    });
    expect(standin.messages(subscription.id)).toEqual([]);
  });

  test('a message signed with another key pair than the subscription was made with is refused (403)', async () => {
    const subscription = subscribe();
    const other = createPushSender({ vapid: { ...vapid, ...webpush.generateVAPIDKeys() } });
    expect(await other.send(subscription, 1)).toEqual({
      sent: false,
      retry: false,
      reason: 'the push service refused the message (403 Forbidden: k is not the key the subscription was made with)',
    });
    // Our own key still goes.
    expect(await sender.send(subscription, 1)).toEqual({ sent: true });
  });

  test('a message encrypted for another subscription does not decrypt: refused (400), never delivered', async () => {
    const subscription = subscribe();
    const someoneElse = subscribe();
    const outcome = await sender.send({ endpoint: subscription.endpoint, keys: someoneElse.keys }, { title: 'Hi' });
    expect(outcome).toEqual({
      sent: false,
      retry: false,
      reason:
        "the push service refused the message (400 Bad Request: the body does not decrypt with the subscription's keys (a browser would drop it))",
    });
    expect(standin.messages()).not.toContainEqual(expect.objectContaining({ subscriptionId: subscription.id }));
  });
});
