/**
 * PayFast on this machine (issue 37 §4, docs/payfast.md): the three endpoints of PayFast's custom integration the
 * app uses, as PayFast documents them, so that the tests (and an owner trying it out) go through the same
 * requests as with PayFast itself. Nothing here is the app's code: it signs and checks as PayFast does, on its own.
 *
 * - `/eng/process`: the payment page the student's browser comes to with the signed fields, in its query (GET)
 *   or as a posted form. Fields whose merchant or signature is wrong are refused (400), as PayFast refuses them. Otherwise a page shows what is paid, with
 *   "Complete payment" and "Cancel".
 * - Completing sends the payment notice (ITN) to the form's `notify_url`, signed with the passphrase, with
 *   PayFast's fields in PayFast's order, and sends it again until it is answered 200 (PayFast repeats a notice
 *   that fails); then the browser goes to `return_url`. Cancelling goes to `cancel_url` and sends nothing.
 * - `POST /eng/query/validate`: `VALID` for the fields of a notice it sent, `INVALID` for anything else.
 *
 *   node scripts/payfast-standin.ts --port 5066 [--merchant-id 10000100 --merchant-key 46f0cd694581a --passphrase …]
 *
 * then start the app with PAYFAST_URL=http://127.0.0.1:5066 and the same three. What it does not do: take money,
 * charge PayFast's fee for real (it says R4.60), or send notices from PayFast's addresses (the app, told to trust
 * this URL's host, accepts 127.0.0.1).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

export interface StandInOptions {
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  port?: number;
}

/** A notice the stand-in sent: its body as sent, and the answers it got. */
export interface SentNotice {
  notifyUrl: string;
  body: string;
  fields: [string, string][];
  answers: number[];
  /** Set for a notice of a completed payment page: its delivery, until answered 200. */
  delivered?: Promise<void>;
}

export interface PayFastStandIn {
  url: string;
  /** Every notice sent, in order. */
  sent: SentNotice[];
  /**
   * A notice as PayFast would send it for a checkout's fields (`overrides` changing any of its fields before it is
   * signed), counted as sent (validate answers VALID for it), without posting it: for a test to post itself.
   */
  issue(checkout: readonly (readonly [string, string])[], overrides?: Record<string, string>): SentNotice;
  /** A notice's fields signed with `passphrase` as PayFast signs, but never sent by PayFast. */
  forge(fields: readonly (readonly [string, string])[], passphrase: string): string;
  /** Posts a notice (again) to its notify URL, once; the answer's status. */
  deliver(notice: SentNotice): Promise<number>;
  close(): Promise<void>;
}

const encode = (value: string) =>
  encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
const paramString = (fields: readonly (readonly [string, string])[]) =>
  fields.map(([k, v]) => `${k}=${encode(v)}`).join('&');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const sign = (fields: readonly (readonly [string, string])[], passphrase: string) =>
  md5(`${paramString(fields)}&passphrase=${encode(passphrase.trim())}`);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The fields of PayFast's notice, in the order PayFast sends them. */
function noticeFields(form: Map<string, string>, paymentId: string, merchantId: string): [string, string][] {
  const gross = form.get('amount') ?? '0.00';
  const fee = '-4.60';
  const field = (name: string) => form.get(name) ?? '';
  return [
    ['m_payment_id', field('m_payment_id')],
    ['pf_payment_id', paymentId],
    ['payment_status', 'COMPLETE'],
    ['item_name', field('item_name')],
    ['item_description', field('item_description')],
    ['amount_gross', gross],
    ['amount_fee', fee],
    ['amount_net', (Number(gross) + Number(fee)).toFixed(2)],
    ...[1, 2, 3, 4, 5].map((i): [string, string] => [`custom_str${i}`, field(`custom_str${i}`)]),
    ...[1, 2, 3, 4, 5].map((i): [string, string] => [`custom_int${i}`, field(`custom_int${i}`)]),
    ['name_first', field('name_first')],
    ['name_last', field('name_last')],
    ['email_address', field('email_address')],
    ['merchant_id', merchantId],
  ];
}

export async function startPayFastStandIn(options: StandInOptions): Promise<PayFastStandIn> {
  const sent: SentNotice[] = [];
  const issuedBodies = new Set<string>();
  /** Checkouts shown and not yet completed or cancelled, by their page's token. */
  const open = new Map<string, Map<string, string>>();
  let nextPaymentId = 1_000_000 + Math.floor(Math.random() * 1_000_000);

  function issue(checkout: readonly (readonly [string, string])[], overrides: Record<string, string> = {}) {
    const form = new Map(checkout);
    const fields = noticeFields(form, String(nextPaymentId++), options.merchantId).map(([k, v]): [string, string] => [
      k,
      overrides[k] ?? v,
    ]);
    const signed = paramString(fields);
    const body = `${signed}&signature=${sign(fields, options.passphrase)}`;
    issuedBodies.add(signed);
    const notice: SentNotice = { notifyUrl: form.get('notify_url') ?? '', body, fields, answers: [] };
    sent.push(notice);
    return notice;
  }

  async function deliver(notice: SentNotice): Promise<number> {
    const response = await fetch(notice.notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: notice.body,
    }).catch(() => undefined);
    const status = response?.status ?? 0;
    await response?.arrayBuffer();
    notice.answers.push(status);
    return status;
  }

  /** Delivers until answered 200, a few times a second at most, for up to a minute (PayFast: hours). */
  async function deliverUntilAccepted(notice: SentNotice) {
    for (let attempt = 0; attempt < 120; attempt++) {
      if ((await deliver(notice)) === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  const page = (response: ServerResponse, status: number, title: string, body: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        '<style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1rem;margin:.5rem .5rem 0 0}</style>' +
        `</head><body><main><p>PayFast (stand-in on this machine)</p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
  };

  /** PayFast's payment page for the fields of `params` (a query string or a form's body), if they are signed. */
  function paymentPage(response: ServerResponse, params: string) {
    const pairs = [...new URLSearchParams(params)];
    const form = new Map(pairs);
    const unsigned = pairs.filter(([k, v]) => k !== 'signature' && v !== '');
    if (form.get('merchant_id') !== options.merchantId || form.get('merchant_key') !== options.merchantKey)
      return page(response, 400, 'Merchant unknown', '<p>The merchant id or key is wrong.</p>');
    if (form.get('signature') !== sign(unsigned, options.passphrase))
      return page(response, 400, 'Signature mismatch', '<p>The payment was changed after it was signed.</p>');
    const token = randomBytes(12).toString('hex');
    open.set(token, form);
    return page(
      response,
      200,
      `Pay R${form.get('amount')}`,
      `<p>${escapeHtml(form.get('item_name') ?? '')}</p>` +
        `<form method="post" action="/eng/stand-in/pay"><input type="hidden" name="token" value="${token}">` +
        '<button type="submit" name="choice" value="pay">Complete payment</button>' +
        '<button type="submit" name="choice" value="cancel">Cancel</button></form>',
    );
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      if (url.pathname === '/eng/process' && request.method === 'GET')
        return paymentPage(response, url.search.slice(1));
      if (request.method !== 'POST') return page(response, 404, 'Not found', '');
      const body = await readBody(request);
      if (url.pathname === '/eng/query/validate') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end(issuedBodies.has(body) ? 'VALID' : 'INVALID');
      }
      if (url.pathname === '/eng/process') return paymentPage(response, body);
      if (url.pathname === '/eng/stand-in/pay') {
        const choice = new URLSearchParams(body);
        const form = open.get(choice.get('token') ?? '');
        if (!form) return page(response, 404, 'This payment is no longer open', '');
        open.delete(choice.get('token')!);
        // As PayFast does, the notice goes on its own way: the student may be back before it is recorded.
        if (choice.get('choice') === 'pay') {
          const notice = issue([...form]);
          notice.delivered = deliverUntilAccepted(notice);
        }
        response.writeHead(303, {
          location: form.get(choice.get('choice') === 'pay' ? 'return_url' : 'cancel_url') ?? '/',
        });
        return response.end();
      }
      return page(response, 404, 'Not found', '');
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
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
    sent,
    issue,
    forge: (fields, passphrase) => `${paramString(fields)}&signature=${sign(fields, passphrase)}`,
    deliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** PayFast's own sandbox merchant, which its documentation publishes: the stand-in's defaults. */
export const sandboxMerchant = { merchantId: '10000100', merchantKey: '46f0cd694581a', passphrase: 'jt7NOE43FZPn' };

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '5066' },
      'merchant-id': { type: 'string', default: sandboxMerchant.merchantId },
      'merchant-key': { type: 'string', default: sandboxMerchant.merchantKey },
      passphrase: { type: 'string', default: sandboxMerchant.passphrase },
    },
  });
  const standIn = await startPayFastStandIn({
    merchantId: values['merchant-id'],
    merchantKey: values['merchant-key'],
    passphrase: values.passphrase,
    port: Number(values.port),
  });
  console.log(`PayFast stand-in on ${standIn.url}`);
}

if (import.meta.main) await main();
