import type { WhatsAppTemplateMessage } from './whatsapp.ts';

/**
 * Sends template messages through the Cloud API (`POST <api>/<phone-number-id>/messages`, bearer token) and says
 * what became of each, for the delivery worker: sent with WhatsApp's message id (its statuses come later, on the
 * webhook: whatsapp.webhook.ts), or not sent, with whether trying again later can help. No library: it is one
 * request, and Meta's own Node SDK is archived.
 *
 * Errors are told apart by the `code` the Graph API puts in `error` (Meta's "Error codes" page recommends the code
 * over the HTTP status), then by the status.
 */

export type WhatsAppOutcome =
  { sent: true; providerId: string } | { sent: false; gone?: true; retry: boolean; reason: string };

export interface WhatsAppSenderOptions {
  /** `https://graph.facebook.com/v21.0`, or a stand-in's origin (scripts/whatsapp-standin.ts). */
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  /** A send not answered within this is given up and tried again later (default 10 s). */
  timeoutMs?: number;
}

export interface WhatsAppSender {
  send(body: WhatsAppTemplateMessage): Promise<WhatsAppOutcome>;
}

/** The Graph API's error, as far as it is read here. */
export interface GraphError {
  code?: number;
  message?: string;
  /** An object with `details` for a message's error; a template error's may be a string. */
  error_data?: { details?: string } | string;
}

/** Meta's throttles: the app's calls (4, 80007), the number's throughput (130429), spam (131048), one pair (131056). */
const rateCodes = new Set([4, 80007, 130429, 131048, 131056]);
/** Meta's side is down or overloaded (1 unknown, 2 service, 131000 something went wrong, 131016 unavailable). */
const temporaryCodes = new Set([1, 2, 131000, 131016]);
/**
 * The owner's account needs fixing before anything can go: the token (0, 190), its permissions (3, 10, 200–299),
 * billing (131042), the number's registration (133010). Kept for later, so nothing is lost while they fix it.
 */
const ownerCodes = new Set([0, 3, 10, 190, 131042, 133010]);
const isPermissionCode = (code: number) => code >= 200 && code <= 299;
/** A template that is not registered, approved or filled as sent (132000 to 132016): the owner's to fix. */
const isTemplateCode = (code: number) => code >= 132000 && code <= 132016;

/** What an answer other than a message id means for the delivery. */
export function whatsAppOutcomeOf(status: number, error: GraphError | undefined): WhatsAppOutcome {
  const code = error?.code;
  const details = typeof error?.error_data === 'string' ? error.error_data : error?.error_data?.details;
  const said = [code !== undefined ? `${code}` : `HTTP ${status}`, error?.message, details].filter(Boolean).join(': ');
  if (code === 131026)
    return {
      sent: false,
      gone: true,
      retry: false,
      reason: `${said} (the number cannot get WhatsApp messages: not on WhatsApp, or its app is too old; check it with the user)`,
    };
  if (code === 131047)
    return {
      sent: false,
      retry: false,
      reason: `${said} (more than 24 hours since the user last wrote: only a template can go, and this was not one)`,
    };
  if (code === 131030)
    return {
      sent: false,
      retry: false,
      reason: `${said} (a test number sends only to the numbers on its allowed list in WhatsApp Manager)`,
    };
  if (code !== undefined && rateCodes.has(code))
    return { sent: false, retry: true, reason: `${said} (WhatsApp's rate limit: tried again later)` };
  if (code !== undefined && (ownerCodes.has(code) || isPermissionCode(code)))
    return {
      sent: false,
      retry: true,
      reason: `${said} (the owner must fix the WhatsApp account: a new access token in WHATSAPP_TOKEN, its permissions or billing; tried again later)`,
    };
  if (code !== undefined && isTemplateCode(code))
    return {
      sent: false,
      retry: false,
      reason: `${said} (the template is not registered, approved or filled as docs/whatsapp.md says)`,
    };
  if ((code !== undefined && temporaryCodes.has(code)) || status === 429 || status >= 500)
    return {
      sent: false,
      retry: true,
      reason: `${said} (${status === 429 ? "WhatsApp's rate limit" : "WhatsApp's side failed"}: tried again later)`,
    };
  if (status === 401)
    return {
      sent: false,
      retry: true,
      reason: `${said} (the access token was refused: the owner must set a valid WHATSAPP_TOKEN; tried again later)`,
    };
  return { sent: false, retry: false, reason: said };
}

export function createWhatsAppSender({
  apiUrl,
  token,
  phoneNumberId,
  timeoutMs = 10_000,
}: WhatsAppSenderOptions): WhatsAppSender {
  const url = `${apiUrl.replace(/\/$/, '')}/${phoneNumberId}/messages`;
  return {
    async send(body) {
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        // The Cloud API takes no idempotency key: a send whose answer was lost may have gone, and the retry sends
        // it again (the user may get it twice, never not at all).
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        return {
          sent: false,
          retry: true,
          reason: timedOut
            ? `WhatsApp did not answer within ${timeoutMs / 1000} s (it may still deliver this message): tried again later`
            : `Could not reach WhatsApp (${causeOf(error)}): tried again later`,
        };
      }
      const answer = parseJson(text);
      if (response.ok) {
        const id = answer?.messages?.[0]?.id;
        if (typeof id === 'string' && id) return { sent: true, providerId: id };
        // Accepted without an id: it may go, so it is not sent again; its status can never be matched.
        return { sent: false, retry: false, reason: `WhatsApp answered ${response.status} without a message id` };
      }
      return whatsAppOutcomeOf(response.status, answer?.error ?? { message: text.slice(0, 200) || undefined });
    },
  };
}

interface Answer {
  messages?: { id?: unknown }[];
  error?: GraphError;
}

function parseJson(text: string): Answer | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Answer) : undefined;
  } catch {
    return undefined;
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
}
