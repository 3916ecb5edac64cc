import webpush from 'web-push';
import type { VapidDetails } from './vapid.ts';

/**
 * Sends one Web Push message (RFC 8030) to one subscription: encrypted for the browser (aes128gcm, RFC 8291) and
 * signed with the server's VAPID key (RFC 8292) by web-push, posted with fetch, and the push service's answer
 * told as what the caller does next (docs/push.md). web-push's own sendNotification posts over https alone, so
 * the local stand-in (scripts/push-standin.ts, plain http on 127.0.0.1) could not answer it; its
 * generateRequestDetails makes the very request sendNotification would post.
 */

/** A browser's `PushSubscription.toJSON()`, as much of it as sending needs. */
export interface PushSubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushOptions {
  /** How long the push service keeps the message for a device that is offline (default one day; 0: now or never). */
  ttlSeconds?: number;
  /** `high` wakes a phone that saves its battery; `normal` (default) may wait for it to wake. */
  urgency?: 'normal' | 'high';
  /**
   * A message not yet delivered is replaced by a newer one with the same topic (a device that was offline gets the
   * last only): up to 32 characters of base64url (letters, digits, `-`, `_`).
   */
  topic?: string;
}

/**
 * `gone`: the subscription is no more (404, 410): delete it. `retry`: the push service or the network failed
 * for now (429, 5xx, 408, no answer): send again later. Otherwise the message will never go as it is.
 */
export type PushOutcome = { sent: true } | { sent: false; gone?: true; retry: boolean; reason: string };

export interface PushSender {
  /** The public key browsers subscribe with (`applicationServerKey`), base64url. */
  vapidPublicKey: string;
  send(subscription: PushSubscriptionKeys, payload: unknown, options?: PushOptions): Promise<PushOutcome>;
}

/**
 * Our limit on a payload's JSON, in bytes. The protocol's is 4,096 bytes of record (RFC 8291 §4: about 3,993 of
 * plain text), and some push services keep less; the notice's text and a link fit well within 3,000.
 */
export const maxPushPayloadBytes = 3000;

const defaultTtlSeconds = 24 * 60 * 60;
/** FCM's and Mozilla's longest keep: four weeks. */
const maxTtlSeconds = 28 * 24 * 60 * 60;
const topicPattern = /^[A-Za-z0-9_-]{1,32}$/;

export function createPushSender({
  vapid,
  timeoutMs = 10_000,
}: {
  vapid: VapidDetails;
  timeoutMs?: number;
}): PushSender {
  async function send(
    subscription: PushSubscriptionKeys,
    payload: unknown,
    options: PushOptions = {},
  ): Promise<PushOutcome> {
    const refused = (reason: string): PushOutcome => ({ sent: false, retry: false, reason });
    const text = JSON.stringify(payload) as string | undefined;
    if (text === undefined) return refused('the payload is not JSON (undefined, a function or a symbol)');
    const bytes = Buffer.byteLength(text);
    if (bytes > maxPushPayloadBytes)
      return refused(`the payload is ${bytes} bytes of JSON, more than the ${maxPushPayloadBytes} a push may carry`);
    const { ttlSeconds = defaultTtlSeconds, urgency = 'normal', topic } = options;
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0 || ttlSeconds > maxTtlSeconds)
      return refused(`ttlSeconds ${ttlSeconds}: a whole number of seconds from 0 to ${maxTtlSeconds} (four weeks)`);
    if (topic !== undefined && !topicPattern.test(topic))
      return refused(`topic "${topic}": 1 to 32 characters of base64url (letters, digits, - and _)`);

    let request: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      // Throws on what no push service would take: an endpoint that is no URL, keys that are not P-256's.
      request = webpush.generateRequestDetails(subscription, text, {
        vapidDetails: vapid,
        TTL: ttlSeconds,
        urgency,
        ...(topic !== undefined && { topic }),
        contentEncoding: 'aes128gcm',
      });
    } catch (error) {
      return refused(`the subscription cannot be sent to: ${(error as Error).message}`);
    }
    // fetch counts the body itself.
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    );

    let response: Response;
    let body: string;
    try {
      response = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body ? new Uint8Array(request.body) : undefined,
        // A push service answers; it never sends the message elsewhere.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      body = await response.text();
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer from the push service within ${timeoutMs} ms`
          : `the push service could not be reached: ${causeOf(error)}`;
      return { sent: false, retry: true, reason };
    }
    const { status } = response;
    if (status >= 200 && status < 300) return { sent: true };
    const said = `${status}${response.statusText ? ` ${response.statusText}` : ''}${body.trim() ? `: ${body.trim().slice(0, 200)}` : ''}`;
    if (status === 404 || status === 410)
      return { sent: false, gone: true, retry: false, reason: `the subscription is gone (${said})` };
    if (status === 408 || status === 429 || status >= 500) {
      const after = response.headers.get('retry-after');
      return {
        sent: false,
        retry: true,
        reason: `the push service refused for now (${said})${after ? `; it asks to wait ${after}` : ''}`,
      };
    }
    return refused(`the push service refused the message (${said})`);
  }

  return { vapidPublicKey: vapid.publicKey, send };
}

/** fetch's TypeError says "fetch failed"; what failed is in its cause (ECONNREFUSED, a TLS error, …). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
