import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The Cloud API's webhook, for the statuses of the messages sent (issue 38 §3: "with delivery status kept"): pure
 * functions for the routes to mount. Meta checks the address once with a GET (its "subscription verification":
 * `hub.mode=subscribe`, the verify token the owner chose, and a challenge to echo), then POSTs JSON signed with the
 * app secret in `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`. A POST that is not signed so is
 * not Meta's and is dropped before it is read. Its `statuses` say, per message id: sent, delivered, read or failed
 * (with the error); Meta sends them again until answered 200, and in any order.
 */

/**
 * The challenge to answer (200, `text/plain`) when `query` is Meta's subscription check with our verify token;
 * undefined otherwise (answer 403).
 */
export function verifyWebhookSubscription(
  query: URLSearchParams | Record<string, string | undefined>,
  verifyToken: string,
): string | undefined {
  const get = (name: string) => (query instanceof URLSearchParams ? (query.get(name) ?? undefined) : query[name]);
  const challenge = get('hub.challenge');
  // Meta's challenge is a number; anything else is not echoed (the answer must never carry markup of a stranger's).
  if (get('hub.mode') !== 'subscribe' || !challenge || !/^[\w-]{1,200}$/.test(challenge)) return undefined;
  return sameText(get('hub.verify_token') ?? '', verifyToken) ? challenge : undefined;
}

/** Whether `signatureHeader` (X-Hub-Signature-256) is the app secret's HMAC-SHA256 of exactly these bytes. */
export function isSignedWebhook(
  rawBody: Buffer,
  signatureHeader: string | null | undefined,
  appSecret: string,
): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signatureHeader?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** Two texts compared in a time that does not tell how much of them matched. */
function sameText(a: string, b: string): boolean {
  const hash = (text: string) => createHmac('sha256', 'compare').update(text).digest();
  return timingSafeEqual(hash(a), hash(b));
}

export const whatsAppStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export type WhatsAppStatusName = (typeof whatsAppStatuses)[number];

export interface WhatsAppStatus {
  /** The message's id, as the send answered it (`wamid.…`): the delivery's providerId. */
  providerId: string;
  status: WhatsAppStatusName;
  /** When WhatsApp says it happened, ISO. */
  at: string;
  /** Why a message failed: its code, title and details, as WhatsApp gave them. */
  error?: string;
  /** The failure's code (131026: the number cannot get WhatsApp messages), for the delivery worker. */
  errorCode?: number;
}

const errorSchema = z.object({
  code: z.number(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

/** One status as Meta sends it; other fields (conversation, pricing, recipient) are not kept. */
const statusSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().regex(/^\d{1,12}$/),
  errors: z.array(errorSchema).optional(),
});

const payloadSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.object({
      changes: z.array(
        z.object({
          field: z.string().optional(),
          value: z.object({ statuses: z.array(z.unknown()).optional() }).loose(),
        }),
      ),
    }),
  ),
});

/**
 * The statuses in a webhook's JSON, in the order sent. Anything else the webhook carries (messages users send,
 * statuses WhatsApp adds later, such as `deleted`) is left out, and a payload that is not a WhatsApp Business
 * account's gives none: Meta should still be answered 200, or it sends the same again.
 */
export function readStatuses(json: unknown): WhatsAppStatus[] {
  const payload = payloadSchema.safeParse(json);
  if (!payload.success) return [];
  return payload.data.entry
    .flatMap((entry) => entry.changes)
    .flatMap((change) => change.value.statuses ?? [])
    .flatMap((raw): WhatsAppStatus[] => {
      const parsed = statusSchema.safeParse(raw);
      if (!parsed.success) return [];
      const { id, status, timestamp, errors } = parsed.data;
      if (!(whatsAppStatuses as readonly string[]).includes(status)) return [];
      const at = new Date(Number(timestamp) * 1000).toISOString();
      const first = errors?.[0];
      if (status !== 'failed' || !first) return [{ providerId: id, status: status as WhatsAppStatusName, at }];
      const error = [String(first.code), first.title ?? first.message, first.error_data?.details]
        .filter(Boolean)
        .join(': ');
      return [{ providerId: id, status: 'failed', at, error, errorCode: first.code }];
    });
}
