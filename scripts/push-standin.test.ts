// The push service stand-in refuses what a push service refuses (RFC 8030, 8291, 8292), so that a test passing
// against it says something about FCM and autopush: each request here is web-push's own, with one thing wrong.
import { createPrivateKey, sign } from 'node:crypto';
import webpush from 'web-push';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPushStandin, type PushStandin, type TestSubscription } from './push-standin.ts';

let standin: PushStandin;
const vapid = { subject: 'mailto:hello@tutorbook.co.za', ...webpush.generateVAPIDKeys() };

beforeAll(async () => {
  standin = await createPushStandin();
});
afterAll(async () => {
  await standin?.close();
});

const subscribe = () => standin.subscribe({ applicationServerKey: vapid.publicKey });

/** web-push's request for a message to the subscription, as sendNotification would post it. */
function requestFor(subscription: TestSubscription, text = '{"title":"Hi"}') {
  const details = webpush.generateRequestDetails(subscription, text, {
    vapidDetails: vapid,
    TTL: 60,
    contentEncoding: 'aes128gcm',
  });
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([name]) => name !== 'Content-Length')
      .map(([name, value]) => [name, String(value)]),
  );
  return { headers, body: details.body! };
}

async function post(subscription: TestSubscription, request: { headers: Record<string, string>; body?: Buffer }) {
  const response = await fetch(subscription.endpoint, { method: 'POST', ...request });
  return { status: response.status, text: await response.text() };
}

const seconds = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A VAPID JWT with the claims given, signed with our private key (ES256, or what `header` says). */
function jwt(claims: Record<string, unknown>, header: Record<string, unknown> = { typ: 'JWT', alg: 'ES256' }) {
  const point = Buffer.from(vapid.publicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: vapid.privateKey,
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = `${b64(header)}.${b64(claims)}`;
  const signature = sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' });
  return `${signed}.${signature.toString('base64url')}`;
}

test('web-push’s own request is taken (201, with a Location) and kept decrypted', async () => {
  const subscription = subscribe();
  const answer = await fetch(subscription.endpoint, { method: 'POST', ...requestFor(subscription, '"Dumela"') });
  expect(answer.status).toBe(201);
  expect(answer.headers.get('location')).toMatch(new RegExp(`^${standin.url}/message/\\d+$`));
  expect(standin.messages(subscription.id)).toEqual([
    expect.objectContaining({ text: '"Dumela"', json: 'Dumela', ttl: 60, urgency: 'normal' }),
  ]);
});

test('a claims set signed by us passes the checks that follow, so that each refusal below is its own', async () => {
  const subscription = subscribe();
  const { headers, body } = requestFor(subscription);
  const claims = { aud: standin.url, exp: seconds() + 3600, sub: vapid.subject };
  const authorization = `vapid t=${jwt(claims)}, k=${vapid.publicKey}`;
  expect(await post(subscription, { headers: { ...headers, Authorization: authorization }, body })).toEqual({
    status: 201,
    text: '',
  });
});

test.each([
  ['no Authorization', undefined, 401, 'no Authorization header: a push needs VAPID (RFC 8292)'],
  ['another scheme', 'WebPush abc', 401, 'Authorization is not of the vapid scheme: WebPush'],
  ['no key', () => `vapid t=${jwt({ aud: standin.url, exp: seconds() + 60, sub: vapid.subject })}`, 401, 'k='],
  [
    'an expired JWT',
    () =>
      webpush.getVapidHeaders(standin.url, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', seconds() - 1)
        .Authorization,
    403,
    'the JWT has expired (exp)',
  ],
  [
    'a JWT for more than 24 hours',
    () =>
      `vapid t=${jwt({ aud: standin.url, exp: seconds() + 24 * 3600 + 120, sub: vapid.subject })}, k=${vapid.publicKey}`,
    403,
    'the JWT expires more than 24 hours from now (exp)',
  ],
  [
    'a JWT for another push service',
    () =>
      `vapid t=${jwt({ aud: 'https://fcm.googleapis.com', exp: seconds() + 60, sub: vapid.subject })}, k=${vapid.publicKey}`,
    403,
    "the JWT's aud is https://fcm.googleapis.com",
  ],
  [
    'a JWT without sub',
    () => `vapid t=${jwt({ aud: standin.url, exp: seconds() + 60 })}, k=${vapid.publicKey}`,
    403,
    'the JWT has no sub',
  ],
  [
    'a JWT that says HS256',
    () =>
      `vapid t=${jwt({ aud: standin.url, exp: seconds() + 60, sub: vapid.subject }, { typ: 'JWT', alg: 'HS256' })}, k=${vapid.publicKey}`,
    403,
    'the JWT is signed with HS256, not ES256',
  ],
  [
    'a JWT whose claims were changed after signing',
    () => {
      const [header, , signature] = jwt({ aud: standin.url, exp: seconds() + 60, sub: vapid.subject }).split('.');
      const forged = b64({ aud: standin.url, exp: seconds() + 60, sub: 'mailto:someone@else.co.za' });
      return `vapid t=${header}.${forged}.${signature}, k=${vapid.publicKey}`;
    },
    403,
    'the JWT is not signed by the private key of k',
  ],
])('%s: refused (%i), nothing delivered', async (_, authorization, status, reason) => {
  const subscription = subscribe();
  const { headers, body } = requestFor(subscription);
  delete headers.Authorization;
  const value = typeof authorization === 'function' ? authorization() : authorization;
  const answer = await post(subscription, { headers: { ...headers, ...(value && { Authorization: value }) }, body });
  expect(answer.status).toBe(status);
  expect(answer.text).toContain(reason);
  expect(standin.messages(subscription.id)).toEqual([]);
  expect(standin.requests(subscription.id)).toEqual([{ subscriptionId: subscription.id, status, reason: answer.text }]);
});

test.each([
  ['no TTL', (h: Record<string, string>) => delete h.TTL, 400, 'a push needs a TTL header'],
  ['a TTL that is no number', (h: Record<string, string>) => (h.TTL = 'soon'), 400, 'a push needs a TTL header'],
  ['an urgency of its own', (h: Record<string, string>) => (h.Urgency = 'urgent'), 400, 'Urgency urgent'],
  ['a topic with a space', (h: Record<string, string>) => (h.Topic = 'booking 1'), 400, 'Topic: 1 to 32'],
  ['a topic of 33 characters', (h: Record<string, string>) => (h.Topic = 'b'.repeat(33)), 400, 'Topic: 1 to 32'],
  [
    'the old aesgcm encoding',
    (h: Record<string, string>) => (h['Content-Encoding'] = 'aesgcm'),
    400,
    'Content-Encoding aesgcm: aes128gcm only',
  ],
])('%s: refused (%i)', async (_, change, status, reason) => {
  const subscription = subscribe();
  const { headers, body } = requestFor(subscription);
  change(headers);
  const answer = await post(subscription, { headers, body });
  expect(answer).toEqual({ status, text: expect.stringContaining(reason) as string });
  expect(standin.messages(subscription.id)).toEqual([]);
});

test('a body over 4,096 bytes is refused (413); a body changed on the way does not decrypt (400)', async () => {
  const subscription = subscribe();
  const { headers, body } = requestFor(subscription);
  expect(
    (await post(subscription, { headers, body: Buffer.concat([body, Buffer.alloc(4097 - body.length)]) })).status,
  ).toBe(413);
  const changed = Buffer.from(body);
  changed[changed.length - 20]! ^= 1;
  expect(await post(subscription, { headers, body: changed })).toEqual({
    status: 400,
    text: "the body does not decrypt with the subscription's keys (a browser would drop it)",
  });
  expect(standin.messages(subscription.id)).toEqual([]);
});

test('an unknown subscription is 404; a GET is 405', async () => {
  const subscription = subscribe();
  const unknown = { ...subscription, endpoint: `${standin.url}/push/never-made` };
  expect((await post(unknown, requestFor(subscription))).status).toBe(404);
  expect((await fetch(subscription.endpoint)).status).toBe(405);
});

test('refusals: N times then accepted, or for ever; only valid messages count', async () => {
  const subscription = subscribe();
  standin.refuse(subscription.id, 500, 2);
  const { headers, body } = requestFor(subscription);
  // Refused for a missing TTL (400): not one of the two.
  expect((await post(subscription, { headers: { ...headers, TTL: '' }, body })).status).toBe(400);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await post(subscription, requestFor(subscription))).status);
  expect(statuses).toEqual([500, 500, 201]);

  standin.refuse(subscription.id, 410);
  for (let i = 0; i < 3; i++) expect((await post(subscription, requestFor(subscription))).status).toBe(410);
  standin.refuse(subscription.id, 410, 0);
  expect((await post(subscription, requestFor(subscription))).status).toBe(201);
  expect(() => standin.refuse(subscription.id, 42)).toThrow('refuse: 42 is not an HTTP status');
});

test('by hand or from another process: subscriptions, refusals and messages through JSON', async () => {
  const made = await fetch(`${standin.url}/stand-in/subscriptions`, {
    method: 'POST',
    body: JSON.stringify({ applicationServerKey: vapid.publicKey }),
  });
  expect(made.status).toBe(201);
  const subscription = (await made.json()) as Omit<TestSubscription, 'toJSON'>;
  expect(subscription).toMatchObject({
    endpoint: `${standin.url}/push/${subscription.id}`,
    expirationTime: null,
    keys: { p256dh: expect.any(String) as string, auth: expect.any(String) as string },
    privateKey: expect.any(String) as string,
    applicationServerKey: vapid.publicKey,
  });
  // As a browser's subscription it has no private key in its JSON.
  expect(Object.keys(JSON.parse(JSON.stringify(subscribe())) as object)).toEqual([
    'endpoint',
    'expirationTime',
    'keys',
  ]);

  const refused = await fetch(`${standin.url}/stand-in/refuse`, {
    method: 'POST',
    body: JSON.stringify({ id: subscription.id, status: 503, times: 1 }),
  });
  expect(refused.status).toBe(200);
  const asBrowser = subscription as TestSubscription;
  expect((await post(asBrowser, requestFor(asBrowser, '{"n":1}'))).status).toBe(503);
  expect((await post(asBrowser, requestFor(asBrowser, '{"n":2}'))).status).toBe(201);
  const messages = (await (await fetch(`${standin.url}/stand-in/messages?subscription=${subscription.id}`)).json()) as {
    json: unknown;
  }[];
  expect(messages.map((message) => message.json)).toEqual([{ n: 2 }]);
  const requests = (await (await fetch(`${standin.url}/stand-in/requests?subscription=${subscription.id}`)).json()) as {
    status: number;
  }[];
  expect(requests.map((request) => request.status)).toEqual([503, 201]);
});
