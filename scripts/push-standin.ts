/**
 * A push service on this machine (issue 38 §2, docs/push.md): what FCM, Mozilla's autopush or Apple's service do
 * with the server's messages, so that the tests send through the same requests as to them, and read what a
 * browser would show. Nothing here is the app's code: it checks and decrypts with node:crypto, on its own.
 *
 * - `subscribe()` makes a subscription as a browser does: a P-256 key pair and a 16-byte auth secret of its own,
 *   an endpoint `<url>/push/<id>`; given `applicationServerKey`, the subscription takes messages signed with that
 *   VAPID key only (as Chrome's always are).
 * - `POST /push/<id>`: a message (RFC 8030). Checked as a push service checks it: the `Authorization: vapid t=<JWT>,
 *   k=<key>` header (RFC 8292: an ES256 JWT signed by k, `aud` this origin, `exp` in the future and at most 24 h
 *   away, a `sub`; missing: 401, wrong: 403; another key than the subscription's: 403), a `TTL` (400 without),
 *   `Urgency` and `Topic` well formed (400), `Content-Encoding: aes128gcm` (400), at most 4,096 bytes (413). Then,
 *   unlike a real service (which cannot), it decrypts the body with the subscription's private key (RFC 8291; 400
 *   if it does not decrypt, where a browser would drop the message) and keeps it: 201 with a Location. An unknown
 *   id: 404.
 * - `refuse(id, status, times)`: the next `times` valid messages (all, if not given) get `status` instead, or
 *   no answer at all (`'no-answer'`): 410 for a subscription that is gone, 500 or 429 for a service in trouble.
 *
 * By hand or from another process, the same through JSON at `/stand-in/`: `POST /stand-in/subscriptions` (body
 * `{ "applicationServerKey": … }` or nothing) gives a subscription with its private key, `GET /stand-in/messages`
 * (`?subscription=<id>`) the messages, decrypted, `GET /stand-in/requests` every answer given, `GET /stand-in/count`
 * how many messages it took (cheap to poll: bench/notices.ts), and
 * `POST /stand-in/refuse` `{ "id", "status", "times" }`.
 *
 *   node scripts/push-standin.ts [--port 4360]
 *
 * What it does not do: deliver to a browser (no browser can be told to use another push service), keep a message
 * for an offline device (it is "delivered" at once, so a topic replaces nothing), or check the limits one service
 * has and others do not (FCM's 4 KB of payload after encryption, Apple's rules for `sub`).
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

/** What a browser's `PushSubscription.toJSON()` gives, and the private key it keeps to decrypt. */
export interface TestSubscription {
  id: string;
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
  /** The subscription's P-256 private key, base64url: only the browser has it. */
  privateKey: string;
  /** The VAPID key it was made with, if any: messages signed with another get 403. */
  applicationServerKey?: string;
  /** The browser's JSON, without the private key: what a page posts to the server. */
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** A message the stand-in took, decrypted. */
export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload as text, and as JSON when it is JSON. */
  text: string;
  json: unknown;
  ttl: number;
  /** The Urgency header; `normal` when none was sent (RFC 8030 §5.3). */
  urgency: string;
  topic?: string;
  /** The `sub` of the VAPID JWT it came with. */
  subject: string;
  receivedAt: string;
}

/** Every message posted to a subscription's endpoint, and the answer it got. */
export interface PushRequestRecord {
  subscriptionId: string;
  status: number | 'no-answer';
  reason?: string;
}

export type Refusal = number | 'no-answer';

export interface PushStandin {
  url: string;
  subscribe(options?: { applicationServerKey?: string }): TestSubscription;
  messages(subscriptionId?: string): ReceivedPush[];
  requests(subscriptionId?: string): PushRequestRecord[];
  /** The next `times` valid messages to this subscription (every one, when not given) get `status`. */
  refuse(subscriptionId: string, status: Refusal, times?: number): void;
  close(): Promise<void>;
}

const maxBody = 4096;
const maxJwtLifetimeSeconds = 24 * 60 * 60;
const urgencies = new Set(['very-low', 'low', 'normal', 'high']);
const b64 = (bytes: Buffer) => bytes.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');

class Refused extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** `vapid t=<jwt>, k=<key>`; 401 when absent or of another scheme, 403 when it does not hold (RFC 8292 §4.2). */
function checkVapid(header: string | undefined, audience: string, applicationServerKey: string | undefined) {
  if (!header) throw new Refused(401, 'no Authorization header: a push needs VAPID (RFC 8292)');
  const match = /^vapid\s+(.*)$/i.exec(header.trim());
  if (!match) throw new Refused(401, `Authorization is not of the vapid scheme: ${header.split(/\s/)[0]}`);
  const params = new Map(
    match[1]!.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()] as const;
    }),
  );
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Refused(401, 'the vapid Authorization needs t=<JWT> and k=<public key>');
  if (applicationServerKey !== undefined && key !== applicationServerKey)
    throw new Refused(403, 'k is not the key the subscription was made with');
  const publicKey = unb64(key);
  if (publicKey.length !== 65 || publicKey[0] !== 4)
    throw new Refused(403, 'k is not an uncompressed P-256 public key');
  let verifier;
  try {
    verifier = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64(publicKey.subarray(1, 33)), y: b64(publicKey.subarray(33)) },
      format: 'jwk',
    });
  } catch {
    throw new Refused(403, 'k is not a point of P-256');
  }
  const parts = token.split('.');
  if (parts.length !== 3) throw new Refused(403, 'the JWT is not header.claims.signature');
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  const json = (part: string, what: string) => {
    try {
      return JSON.parse(unb64(part).toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new Refused(403, `the JWT's ${what} is not JSON`);
    }
  };
  const jwtHeader = json(headerPart, 'header');
  if (jwtHeader.alg !== 'ES256') throw new Refused(403, `the JWT is signed with ${String(jwtHeader.alg)}, not ES256`);
  const signature = unb64(signaturePart);
  const signed =
    signature.length === 64 &&
    verify(
      'sha256',
      Buffer.from(`${headerPart}.${claimsPart}`),
      { key: verifier, dsaEncoding: 'ieee-p1363' },
      signature,
    );
  if (!signed) throw new Refused(403, 'the JWT is not signed by the private key of k');
  const claims = json(claimsPart, 'claims');
  if (claims.aud !== audience) throw new Refused(403, `the JWT's aud is ${String(claims.aud)}, not ${audience}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now) throw new Refused(403, 'the JWT has expired (exp)');
  if (claims.exp > now + maxJwtLifetimeSeconds)
    throw new Refused(403, 'the JWT expires more than 24 hours from now (exp)');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    throw new Refused(403, 'the JWT has no sub (a mailto: or https: URL)');
  return { subject: claims.sub };
}

/**
 * RFC 8291 (Web Push encryption) over RFC 8188 (aes128gcm): the header gives the salt, the record size and the
 * sender's public key; the keys come from ECDH with the subscription's private key and its auth secret.
 */
function decrypt(body: Buffer, subscription: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  if (body.length < 21) throw new Refused(400, 'the body is shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65) throw new Refused(400, "the aes128gcm header's key id is not the sender's public key");
  if (recordSize < 18) throw new Refused(400, "the aes128gcm header's record size is below 18");
  let secret;
  try {
    secret = subscription.ecdh.computeSecret(senderKey);
  } catch {
    throw new Refused(400, "the sender's key in the header is not a point of P-256");
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, subscription.auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  // RFC 8291 §4: a push message is one record.
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Refused(400, 'the body is more than one record (RFC 8291 §4)');
  if (record.length < 17) throw new Refused(400, 'the record is shorter than its tag');
  let padded;
  try {
    const decipher = createDecipheriv('aes-128-gcm', key, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new Refused(400, "the body does not decrypt with the subscription's keys (a browser would drop it)");
  }
  // The plain text, then the last record's delimiter 2, then any zeros of padding (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Refused(400, 'the record has no last-record delimiter (2)');
  return padded.subarray(0, end).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function createPushStandin(options: { port?: number } = {}): Promise<PushStandin> {
  const subscriptions = new Map<
    string,
    { public: TestSubscription; ecdh: ReturnType<typeof createECDH>; auth: Buffer }
  >();
  const received: ReceivedPush[] = [];
  const answered: PushRequestRecord[] = [];
  const refusals = new Map<string, { status: Refusal; times: number }>();
  let url = '';

  function subscribe({ applicationServerKey }: { applicationServerKey?: string } = {}): TestSubscription {
    const id = b64(randomBytes(12));
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const keys = { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) };
    const endpoint = `${url}/push/${id}`;
    const subscription = {
      id,
      endpoint,
      expirationTime: null,
      keys,
      privateKey: b64(ecdh.getPrivateKey()),
      ...(applicationServerKey !== undefined && { applicationServerKey }),
    } as TestSubscription;
    // Not enumerable, as a browser's is not: a spread copy is plain data.
    Object.defineProperty(subscription, 'toJSON', { value: () => ({ endpoint, expirationTime: null, keys }) });
    subscriptions.set(id, { public: subscription, ecdh, auth });
    return subscription;
  }

  function refuse(subscriptionId: string, status: Refusal, times = Number.POSITIVE_INFINITY) {
    if (status !== 'no-answer' && (!Number.isInteger(status) || status < 200 || status > 599))
      throw new Error(`refuse: ${status} is not an HTTP status`);
    if (times > 0) refusals.set(subscriptionId, { status, times });
    else refusals.delete(subscriptionId);
  }

  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };

  async function push(request: IncomingMessage, response: ServerResponse, id: string) {
    const subscription = subscriptions.get(id);
    const answer = (status: number, reason: string, headers: Record<string, string> = {}) => {
      answered.push({ subscriptionId: id, status, reason });
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      response.end(reason);
    };
    if (request.method !== 'POST') return answer(405, 'a push is a POST');
    if (!subscription) return answer(404, 'no such subscription');
    const body = await readBody(request);
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const ttl = header('ttl');
    const urgency = header('urgency');
    const topic = header('topic');
    let subject;
    let text = '';
    try {
      ({ subject } = checkVapid(
        request.headers.authorization,
        new URL(url).origin,
        subscription.public.applicationServerKey,
      ));
      if (ttl === undefined || !/^\d+$/.test(ttl))
        throw new Refused(400, 'a push needs a TTL header: seconds, 0 or more');
      if (urgency !== undefined && !urgencies.has(urgency))
        throw new Refused(400, `Urgency ${urgency}: very-low, low, normal or high`);
      if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic))
        throw new Refused(400, 'Topic: 1 to 32 characters of base64url');
      if (body.length > maxBody) throw new Refused(413, `the body is ${body.length} bytes, more than ${maxBody}`);
      if (body.length > 0) {
        if (request.headers['content-encoding'] !== 'aes128gcm')
          throw new Refused(400, `Content-Encoding ${request.headers['content-encoding'] ?? '(none)'}: aes128gcm only`);
        text = decrypt(body, subscription);
      }
    } catch (error) {
      if (error instanceof Refused) return answer(error.status, error.message);
      throw error;
    }
    const refusal = refusals.get(id);
    if (refusal) {
      if (--refusal.times <= 0) refusals.delete(id);
      if (refusal.status === 'no-answer') {
        answered.push({ subscriptionId: id, status: 'no-answer' });
        return; // close() ends the connection.
      }
      return answer(refusal.status, `refused by the test (${refusal.status})`, { 'retry-after': '1' });
    }
    const message: ReceivedPush = {
      subscriptionId: id,
      text,
      json: parseJson(text),
      ttl: Number(ttl),
      urgency: urgency ?? 'normal',
      ...(topic !== undefined && { topic }),
      subject,
      receivedAt: new Date().toISOString(),
    };
    received.push(message);
    return answer(201, '', { location: `${url}/message/${received.length}` });
  }

  /** The same as the methods, as JSON, for a person or another process (a browser test's server). */
  async function control(request: IncomingMessage, response: ServerResponse, pathname: string, query: URLSearchParams) {
    const subscriptionId = query.get('subscription') ?? undefined;
    if (pathname === '/stand-in/messages' && request.method === 'GET')
      return json(response, 200, messages(subscriptionId));
    if (pathname === '/stand-in/requests' && request.method === 'GET')
      return json(response, 200, requests(subscriptionId));
    if (pathname === '/stand-in/count' && request.method === 'GET')
      return json(response, 200, { messages: received.length });
    if (request.method !== 'POST') return json(response, 404, { error: 'not found' });
    const body = (await readBody(request)).toString('utf8');
    const input = (body ? parseJson(body) : {}) as Record<string, unknown> | undefined;
    if (!input || typeof input !== 'object') return json(response, 400, { error: 'the body is not JSON' });
    if (pathname === '/stand-in/subscriptions') {
      const key = input.applicationServerKey;
      // Spread, without its toJSON: with the private key, for whoever asked plays the browser.
      return json(response, 201, { ...subscribe(typeof key === 'string' ? { applicationServerKey: key } : {}) });
    }
    if (pathname === '/stand-in/refuse') {
      try {
        refuse(String(input.id), input.status as Refusal, typeof input.times === 'number' ? input.times : undefined);
      } catch (error) {
        return json(response, 400, { error: (error as Error).message });
      }
      return json(response, 200, {});
    }
    return json(response, 404, { error: 'not found' });
  }

  const messages = (subscriptionId?: string) =>
    received.filter((message) => subscriptionId === undefined || message.subscriptionId === subscriptionId);
  const requests = (subscriptionId?: string) =>
    answered.filter((record) => subscriptionId === undefined || record.subscriptionId === subscriptionId);

  const server = createServer((request, response) => {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://stand-in');
    const pushId = /^\/push\/([A-Za-z0-9_-]+)$/.exec(pathname)?.[1];
    const handled = pushId
      ? push(request, response, pushId)
      : pathname.startsWith('/stand-in/')
        ? control(request, response, pathname, searchParams)
        : Promise.resolve(json(response, 404, { error: 'not found' }));
    handled.catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    subscribe,
    messages,
    requests,
    refuse,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const standin = await createPushStandin({ port: Number(values.port) });
  console.log(`Push service stand-in on ${standin.url}`);
  console.log(`  POST ${standin.url}/stand-in/subscriptions   a subscription (with its private key)`);
  console.log(`  GET  ${standin.url}/stand-in/messages        the messages received, decrypted`);
}

if (import.meta.main) await main();
