/**
 * WhatsApp's Cloud API on this machine (issue 38 §3, docs/whatsapp.md): the one endpoint the app sends notices
 * through, and the status webhook it gets back, as Meta documents them, so that the tests (and an owner trying it
 * out) go through the same requests as with Meta. Nothing here is the app's code: it checks, answers and signs on
 * its own, and registers the templates docs/whatsapp.md tells the owner to register (read from that page), so a
 * template the app sends that the page does not describe is refused here as Meta would refuse it.
 *
 * - `POST /[v21.0/]<phone-number-id>/messages`: the bearer token is checked (401, code 190), then the body: a
 *   template message to a number, the template one of the registered ones in the registered language (132001), its
 *   body's parameters as many as the text's {{n}} (132000), its URL button's one parameter. Every body is recorded;
 *   an accepted one is answered `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id: 'wamid.…' }] }`.
 * - It can be told to refuse (`refuse`): a status and a Graph error code, a number of times or for good, for every
 *   number or one; or to drop the connection, or never answer.
 * - It sends a message's statuses (sent, delivered, read, failed) to a webhook URL, signed with the app secret in
 *   X-Hub-Signature-256 as Meta signs them; with `webhookUrl` set, each accepted message gets `sent` then
 *   `delivered` on its own.
 * - Run in another process (a browser journey's server), the same through `/stand-in/…`: GET messages, POST refuse,
 *   POST status.
 *
 *   node scripts/whatsapp-standin.ts --port 4371 [--token t --app-secret s --webhook http://127.0.0.1:3000/api/…]
 *
 * then start the app with WHATSAPP_API_URL=http://127.0.0.1:4371, WHATSAPP_TOKEN and WHATSAPP_APP_SECRET the same,
 * any WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_VERIFY_TOKEN. What it does not do: deliver to a phone, keep the 24-hour
 * window or the rate limits (refuse says when), or check a template's approval (every registered one is approved).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

/** A template as registered in WhatsApp Manager: its body's text, and whether it has a URL button with a value. */
export interface RegisteredTemplate {
  body: string;
  button?: boolean;
}

export interface WhatsAppStandinOptions {
  token: string;
  appSecret: string;
  /** By name; default: those docs/whatsapp.md lists, each with its URL button. */
  templates?: Record<string, RegisteredTemplate>;
  /** The language the templates are registered in (default `en`). */
  language?: string;
  /** Where each accepted message's `sent` and `delivered` go on their own; unset, only when told (sendStatus). */
  webhookUrl?: string;
  port?: number;
}

/** A message the stand-in accepted. */
export interface RecordedMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  template: string;
  language: string;
  params: string[];
  /** The URL button's value, when it has one. */
  button?: string;
  /** The body's text with the values in place: what the user would read. */
  text: string;
  /** The request's body, as sent. */
  body: unknown;
  at: string;
}

/** A request the stand-in answered, accepted or not. */
export interface RecordedAttempt {
  body: unknown;
  status: number;
  /** The Graph error code it answered with, if any. */
  code?: number;
}

export interface Refusal {
  /** The HTTP status (default: 401 for code 190, 400 for any other code, 500 without one). */
  status?: number;
  /** The Graph error code (`error.code`); unset with a status, the answer is that status with no JSON. */
  code?: number;
  /** How many sends it refuses before it accepts again; unset: every one. */
  times?: number;
  /** Only sends to this number (digits, as `to`); unset: any. */
  to?: string;
  /** `drop`: the connection is closed without an answer; `stall`: it is never answered. */
  network?: 'drop' | 'stall';
  details?: string;
}

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusOptions {
  /** A failed status's error (default 131026, "Message undeliverable"). */
  code?: number;
  title?: string;
  details?: string;
  /** Signed with this instead of the app secret (a forgery), or `false`: not signed. */
  signWith?: string | false;
  at?: Date;
}

export interface WhatsAppStandin {
  url: string;
  /** Every message accepted, in order. */
  messages(): RecordedMessage[];
  /** Every request answered, accepted or refused, in order. */
  attempts(): RecordedAttempt[];
  refuse(refusal: Refusal): void;
  /** Posts a status of an accepted message to `webhookUrl`, signed; the answer's HTTP status (0: no answer). */
  sendStatus(providerId: string, status: StatusName, webhookUrl: string, options?: StatusOptions): Promise<number>;
  close(): Promise<void>;
}

/** The Graph API's titles for the codes the stand-in answers with (Meta's "Error codes" page). */
const titles: Record<number, string> = {
  1: 'API Unknown',
  2: 'API Service',
  4: 'API Too Many Calls',
  100: 'Invalid parameter',
  190: 'Access token has expired',
  130429: 'Rate limit hit',
  131000: 'Something went wrong',
  131026: 'Message undeliverable',
  131030: 'Recipient phone number not in allowed list',
  131042: 'Business eligibility payment issue',
  131047: 'Re-engagement message',
  131048: 'Spam rate limit hit',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template does not exist',
};

/** The templates docs/whatsapp.md tells the owner to register: each "### `name`" heading and its ```text body. */
export function templatesFromDocs(markdown: string): Record<string, RegisteredTemplate> {
  const templates: Record<string, RegisteredTemplate> = {};
  for (const [, name, body] of markdown.matchAll(/^### `([a-z0-9_]+)`[^\n]*\n+```text\n([^\n]+)\n```/gm))
    templates[name!] = { body: body!, button: true };
  return templates;
}

export const docsTemplates = () =>
  templatesFromDocs(readFileSync(new URL('../docs/whatsapp.md', import.meta.url), 'utf8'));

/** How many values a body takes: its highest {{n}}. */
const paramCount = (body: string) => Math.max(0, ...[...body.matchAll(/\{\{(\d+)\}\}/g)].map(([, n]) => Number(n)));

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const fbtrace = () => randomBytes(9).toString('base64url');

/** A Graph API error answer. */
function graphError(response: ServerResponse, status: number, code: number, details?: string) {
  const title = titles[code] ?? 'Error';
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 401 ? { 'www-authenticate': 'OAuth "Facebook Platform" "invalid_token"' } : {}),
  });
  response.end(
    JSON.stringify({
      error: {
        message: `(#${code}) ${title}`,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details: details ?? title },
        fbtrace_id: fbtrace(),
      },
    }),
  );
}

type Checked =
  | { ok: true; message: Omit<RecordedMessage, 'id' | 'phoneNumberId' | 'body' | 'at'> }
  | { ok: false; code: number; details: string };

/** The body checked as the Cloud API checks a template message. */
function checkBody(body: unknown, templates: Record<string, RegisteredTemplate>, language: string): Checked {
  const invalid = (details: string): Checked => ({ ok: false, code: 100, details });
  if (typeof body !== 'object' || body === null) return invalid('The request body is not JSON');
  const b = body as Record<string, unknown>;
  if (b.messaging_product !== 'whatsapp') return invalid('messaging_product must be whatsapp');
  if (b.recipient_type !== undefined && b.recipient_type !== 'individual')
    return invalid('recipient_type must be individual');
  if (typeof b.to !== 'string' || !/^\+?\d{8,15}$/.test(b.to)) return invalid('to must be a phone number');
  if (b.type !== 'template') return invalid('type must be template (the stand-in knows no other)');
  const t = b.template as Record<string, unknown> | undefined;
  if (typeof t?.name !== 'string') return invalid('template.name is required');
  const code = (t.language as { code?: unknown } | undefined)?.code;
  const registered = templates[t.name];
  if (!registered || code !== language)
    return { ok: false, code: 132001, details: `template name (${t.name}) does not exist in ${String(code)}` };
  const components = Array.isArray(t.components) ? (t.components as Record<string, unknown>[]) : [];
  const texts = (type: string) => {
    const component = components.find((c) => c.type === type);
    const parameters = Array.isArray(component?.parameters) ? (component.parameters as Record<string, unknown>[]) : [];
    return parameters.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : undefined));
  };
  const params = texts('body');
  const expected = paramCount(registered.body);
  if (params.length !== expected)
    return {
      ok: false,
      code: 132000,
      details: `body: number of localizable_params (${params.length}) does not match the expected number of params (${expected})`,
    };
  if (params.some((p) => !p?.trim())) return invalid('Parameter of type text is missing text value');
  if (params.some((p) => /[\n\t]| {5}/.test(p!)))
    return {
      ok: false,
      code: 132018,
      details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
    };
  const button = components.find((c) => c.type === 'button');
  const buttonParams = texts('button');
  if (registered.button) {
    if (button?.sub_type !== 'url' || String(button.index) !== '0' || buttonParams.length !== 1 || !buttonParams[0])
      return { ok: false, code: 132000, details: 'buttons: the URL button at index 0 expects 1 parameter' };
  } else if (button) {
    return { ok: false, code: 132000, details: 'buttons: this template has no button with a parameter' };
  }
  const text = registered.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1]!);
  return {
    ok: true,
    message: {
      to: b.to.replace(/^\+/, ''),
      template: t.name,
      language: code,
      params: params as string[],
      ...(registered.button ? { button: buttonParams[0]! } : {}),
      text,
    },
  };
}

/** Meta's webhook payload for one status of one message. */
function statusPayload(message: RecordedMessage, status: StatusName, options: StatusOptions) {
  const code = options.code ?? 131026;
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '27100000000', phone_number_id: message.phoneNumberId },
              statuses: [
                {
                  id: message.id,
                  status,
                  timestamp: String(Math.floor((options.at ?? new Date()).getTime() / 1000)),
                  recipient_id: message.to,
                  ...(status === 'failed'
                    ? {
                        errors: [
                          {
                            code,
                            title: options.title ?? titles[code] ?? 'Error',
                            message: options.title ?? titles[code] ?? 'Error',
                            error_data: { details: options.details ?? titles[code] ?? 'Error' },
                          },
                        ],
                      }
                    : {
                        conversation: { id: randomBytes(16).toString('hex'), origin: { type: 'utility' } },
                        pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                      }),
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

export async function createWhatsAppStandin(options: WhatsAppStandinOptions): Promise<WhatsAppStandin> {
  const templates = options.templates ?? docsTemplates();
  const language = options.language ?? 'en';
  const messages: RecordedMessage[] = [];
  const attempts: RecordedAttempt[] = [];
  const refusals: Refusal[] = [];
  const stalled = new Set<ServerResponse>();

  /** The first refusal that applies to a send to `to`, used up by one. */
  function refusalFor(to: string): Refusal | undefined {
    const at = refusals.findIndex((r) => r.to === undefined || r.to === to.replace(/^\+/, ''));
    if (at === -1) return undefined;
    const refusal = refusals[at]!;
    if (refusal.times !== undefined && --refusal.times <= 0) refusals.splice(at, 1);
    return refusal;
  }

  async function sendStatus(
    providerId: string,
    status: StatusName,
    webhookUrl: string,
    statusOptions: StatusOptions = {},
  ) {
    const message = messages.find((m) => m.id === providerId);
    if (!message) throw new Error(`WhatsApp stand-in: no message ${providerId} was sent`);
    const body = JSON.stringify(statusPayload(message, status, statusOptions));
    const secret = statusOptions.signWith ?? options.appSecret;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret !== false)
      headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const response = await fetch(webhookUrl, { method: 'POST', headers, body }).catch(() => undefined);
    await response?.arrayBuffer();
    return response?.status ?? 0;
  }

  async function messagesEndpoint(request: IncomingMessage, response: ServerResponse, phoneNumberId: string) {
    const text = await readBody(request);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const answer = (status: number, code?: number) => attempts.push({ body, status, ...(code ? { code } : {}) });
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      answer(401, 190);
      return graphError(response, 401, 190, 'Error validating access token: the token is not the one registered');
    }
    const checked = checkBody(body, templates, language);
    if (!checked.ok) {
      answer(400, checked.code);
      return graphError(response, 400, checked.code, checked.details);
    }
    const refusal = refusalFor(checked.message.to);
    if (refusal?.network === 'drop') {
      answer(0);
      return request.socket.destroy();
    }
    if (refusal?.network === 'stall') {
      answer(0);
      return stalled.add(response);
    }
    if (refusal) {
      const status = refusal.status ?? (refusal.code === undefined ? 500 : refusal.code === 190 ? 401 : 400);
      answer(status, refusal.code);
      if (refusal.code !== undefined) return graphError(response, status, refusal.code, refusal.details);
      response.writeHead(status, { 'content-type': 'text/plain' });
      return response.end(refusal.details ?? 'Service unavailable');
    }
    const message: RecordedMessage = {
      id: `wamid.${randomBytes(24).toString('base64url')}`,
      phoneNumberId,
      ...checked.message,
      body,
      at: new Date().toISOString(),
    };
    messages.push(message);
    answer(200);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        messaging_product: 'whatsapp',
        contacts: [{ input: (body as { to: string }).to, wa_id: message.to }],
        messages: [{ id: message.id, message_status: 'accepted' }],
      }),
    );
    if (options.webhookUrl) {
      const url = options.webhookUrl;
      void sendStatus(message.id, 'sent', url).then(() => sendStatus(message.id, 'delivered', url));
    }
  }

  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const send = /^\/(?:v\d+\.\d+\/)?(\d+)\/messages$/.exec(url.pathname);
      if (send && request.method === 'POST') return await messagesEndpoint(request, response, send[1]!);
      // The same from another process: a browser journey's test reads and steers the stand-in its server uses.
      if (url.pathname === '/stand-in/messages' && request.method === 'GET') {
        const to = url.searchParams.get('to');
        return json(response, 200, to ? messages.filter((m) => m.to === to) : messages);
      }
      if (url.pathname === '/stand-in/refuse' && request.method === 'POST') {
        refusals.push(JSON.parse(await readBody(request)) as Refusal);
        return json(response, 200, { refusals: refusals.length });
      }
      if (url.pathname === '/stand-in/status' && request.method === 'POST') {
        const { providerId, status, webhookUrl, ...rest } = JSON.parse(await readBody(request)) as {
          providerId: string;
          status: StatusName;
          webhookUrl: string;
        } & StatusOptions;
        return json(response, 200, { answered: await sendStatus(providerId, status, webhookUrl, rest) });
      }
      return graphError(response, 400, 100, `Unsupported ${request.method} request to ${url.pathname}`);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages: () => [...messages],
    attempts: () => [...attempts],
    refuse: (refusal) => void refusals.push({ ...refusal }),
    sendStatus,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of stalled) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4371' },
      token: { type: 'string', default: 'stand-in-token' },
      'app-secret': { type: 'string', default: 'stand-in-app-secret' },
      language: { type: 'string', default: 'en' },
      webhook: { type: 'string' },
    },
  });
  const standin = await createWhatsAppStandin({
    token: values.token,
    appSecret: values['app-secret'],
    language: values.language,
    webhookUrl: values.webhook,
    port: Number(values.port),
  });
  console.log(
    `WhatsApp Cloud API stand-in on ${standin.url} (token ${values.token}, app secret ${values['app-secret']})`,
  );
  // What each message would read like on the phone, as it comes.
  let shown = 0;
  setInterval(() => {
    for (const message of standin.messages().slice(shown)) console.log(`to +${message.to}: ${message.text}`);
    shown = standin.messages().length;
  }, 500).unref();
}

if (import.meta.main) await main();
