import { createHash, timingSafeEqual } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * PayFast's custom integration, as PayFast documents it (developers.payfast.co.za, and its PHP SDK's
 * Notification.php): a signed form the browser posts to `<base>/eng/process`, and the payment notice (ITN) that
 * PayFast then posts to the server, checked four ways: its signature (MD5 over its fields and the passphrase), the
 * address it came from (one of PayFast's hosts), its data against what was asked, and PayFast's own answer to the
 * same fields posted back to `<base>/eng/query/validate`. No library does this for Node (docs/decisions/0058);
 * these are the few lines it takes. The base URL is configurable, so the tests run against a local stand-in
 * (src/server/test/payfast-standin.ts) and never against a mock of this.
 */

export interface PayFastSettings {
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  /** `https://www.payfast.co.za`, `https://sandbox.payfast.co.za`, or a stand-in's origin. */
  url: string;
}

/** A value as PHP's `urlencode` writes it, which PayFast signs: spaces as `+`, every other sign but `-_.` as %XX. */
export function payFastEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** `name=value&…` of `fields`, in their order, values encoded as PayFast signs them. */
export const paramString = (fields: readonly (readonly [string, string])[]) =>
  fields.map(([name, value]) => `${name}=${payFastEncode(value)}`).join('&');

/** The signature of a parameter string: MD5 of it with the passphrase appended, in hex. */
export const signatureOf = (params: string, passphrase: string) =>
  createHash('md5')
    .update(`${params}&passphrase=${payFastEncode(passphrase.trim())}`)
    .digest('hex');

/**
 * The fields PayFast's payment page takes, in the order PayFast signs them (its documentation lists the
 * attributes in this order, and the signature depends on it). Empty ones are left out, values trimmed.
 */
const checkoutOrder = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'name_first',
  'name_last',
  'email_address',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_str1',
  'custom_str2',
] as const;
export type CheckoutField = (typeof checkoutOrder)[number];

/**
 * PayFast's payment page for `fields`, signed: the merchant's fields first, then `fields`, then the signature, as
 * the page's address (`url`, the parameter string PayFast signs, as its query) and as a form's fields.
 */
export function signedCheckout(
  settings: PayFastSettings,
  fields: Partial<Record<Exclude<CheckoutField, 'merchant_id' | 'merchant_key'>, string>>,
): { url: string; action: string; fields: [string, string][] } {
  const all: Partial<Record<CheckoutField, string>> = {
    merchant_id: settings.merchantId,
    merchant_key: settings.merchantKey,
    ...fields,
  };
  const ordered = checkoutOrder.flatMap((name): [string, string][] => {
    const value = all[name]?.trim();
    return value ? [[name, value]] : [];
  });
  const signed = paramString(ordered);
  const signature = signatureOf(signed, settings.passphrase);
  const action = `${settings.url}/eng/process`;
  return { url: `${action}?${signed}&signature=${signature}`, action, fields: [...ordered, ['signature', signature]] };
}

/** Rands as PayFast writes them: `180.00`. */
export const payFastAmount = (cents: number) => (cents / 100).toFixed(2);

/** Cents of an amount PayFast wrote (`180.00`, `-7.45`); undefined when it is not one. */
export function centsOf(amount: string | undefined): number | undefined {
  if (!amount || !/^-?\d{1,9}(\.\d{1,2})?$/.test(amount)) return undefined;
  const [rands, part = ''] = amount.replace('-', '').split('.');
  const cents = Number(rands) * 100 + Number(part.padEnd(2, '0'));
  return amount.startsWith('-') ? -cents : cents;
}

/** A payment notice as it came: its fields in their order (the signature's order), and what was signed. */
export interface PayFastNotice {
  fields: Map<string, string>;
  /** The fields before `signature`, as a parameter string: what PayFast signed and what is posted back. */
  signed: string;
  signature: string | undefined;
}

/** Reads a notice's form body, keeping the order its fields came in. */
export function readNotice(body: string): PayFastNotice {
  const pairs = [...new URLSearchParams(body)];
  const at = pairs.findIndex(([name]) => name === 'signature');
  const before = at === -1 ? pairs : pairs.slice(0, at);
  return {
    fields: new Map(pairs),
    signed: paramString(before),
    signature: at === -1 ? undefined : pairs[at]![1],
  };
}

/** Whether the notice carries the signature its fields and the passphrase make. */
export function isSignedBy(notice: PayFastNotice, passphrase: string): boolean {
  if (!notice.signature || !/^[0-9a-f]{32}$/i.test(notice.signature)) return false;
  const expected = Buffer.from(signatureOf(notice.signed, passphrase), 'hex');
  return timingSafeEqual(expected, Buffer.from(notice.signature, 'hex'));
}

/**
 * The hosts a notice may come from: PayFast's (its documentation's list) for PayFast's own URLs, else the
 * configured URL's host alone (a stand-in).
 */
export function noticeHosts(settings: PayFastSettings): string[] {
  const host = new URL(settings.url).hostname;
  return host === 'payfast.co.za' || host.endsWith('.payfast.co.za')
    ? ['www.payfast.co.za', 'w1w.payfast.co.za', 'w2w.payfast.co.za', 'sandbox.payfast.co.za']
    : [host];
}

/** `::ffff:203.0.113.9` (an IPv4 address on a dual-stack socket) as `203.0.113.9`. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** Whether `address` is one of the addresses `hosts` resolve to now (an address host stands for itself). */
export async function isFromHosts(address: string, hosts: readonly string[]): Promise<boolean> {
  if (!isIP(plainAddress(address))) return false;
  const resolved = await Promise.all(
    hosts.map(async (host) =>
      isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address),
    ),
  );
  return resolved.flat().map(plainAddress).includes(plainAddress(address));
}

/**
 * PayFast's own word on a notice: the signed fields posted back to `<base>/eng/query/validate`, which answers
 * `VALID` for a notice it sent. False for anything else, or no answer within 10 s (PayFast sends the notice
 * again later).
 */
export async function confirmWithPayFast(settings: PayFastSettings, signed: string): Promise<boolean> {
  try {
    const response = await fetch(`${settings.url}/eng/query/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signed,
      signal: AbortSignal.timeout(10_000),
    });
    return response.ok && (await response.text()).trim() === 'VALID';
  } catch {
    return false;
  }
}
