import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Me } from '../../common/session.ts';

/**
 * The address the request came from. Headers can be forged by any client, so X-Forwarded-For is read only
 * behind proxies of our own (TRUST_PROXY: how many of them add an entry), and then only the entry the first of
 * them added: `trustedProxies` places from the right (forwardedClient). Its left can say anything.
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = forwardedClient(c.req.header('x-forwarded-for'), trustedProxies);
    if (forwarded) return forwarded;
  }
  // In-process requests (app.request) have no socket.
  return (c.env as { incoming?: unknown } | undefined)?.incoming
    ? (getConnInfo(c).remote.address ?? 'unknown')
    : 'unknown';
}

/**
 * The client's entry of an X-Forwarded-For header that `trustedProxies` proxies each appended to (docs/limits.md):
 * the last one appends the address it received the request from, so the client is that many places from the
 * right, and whatever stands further left is the client's own to choose. A header with fewer entries than that
 * (a request that came round a proxy) gives its first one, which the first proxy on its way wrote. Undefined
 * when there is no header or the entry is not an address (no proxy of ours writes one).
 */
export function forwardedClient(header: string | undefined, trustedProxies: number): string | undefined {
  if (!header) return undefined;
  const entries = header.split(',');
  const entry = entries[Math.max(0, entries.length - trustedProxies)]!.trim();
  return isIP(entry) ? entry : undefined;
}

/**
 * What a limit counts a visitor by (docs/decisions/0040): an IPv4 address as it is, and an IPv6 address by its
 * /64, the block one home, phone or network is given (RFC 6177), of which any machine may take as many addresses
 * as it likes. An IPv4 address mapped into IPv6 (`::ffff:198.51.100.7`, what a dual-stack socket reports) is that
 * IPv4 address. Anything else (`unknown`) is kept as it is.
 */
export function addressGroup(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups[5] === 'ffff' && groups.slice(0, 5).every((group) => group === '0')) {
    const [high, low] = [Number.parseInt(groups[6]!, 16), Number.parseInt(groups[7]!, 16)];
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of a valid IPv6 address, without leading zeros (a zone, `%eth0`, dropped). */
function ipv6Groups(address: string): string[] {
  const [withoutZone = ''] = address.split('%');
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) is two groups.
  const hex = withoutZone.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const [head = '', tail] = hex.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) =>
    Number.parseInt(group, 16).toString(16),
  );
}

/**
 * Whom a limit counts a request against (docs/decisions/0040): the signed-in user, whatever network they are on;
 * a visitor by their address group (`addressGroup`).
 */
export function limitKey(me: Me | undefined, c: Context, trustedProxies: number): string {
  return me ? `user:${me.id}` : `address:${addressGroup(clientAddress(c, trustedProxies))}`;
}
