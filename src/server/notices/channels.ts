import type { Env } from '../env.ts';

/**
 * What this server offers beyond e-mail: push always (its VAPID public key, resolved at start: server.ts),
 * WhatsApp with the owner's account.
 */
export function offeredChannels(config: Env): { pushKey: string; whatsapp: boolean } {
  return { pushKey: config.vapid.keys?.publicKey ?? '', whatsapp: false };
}

/** A WhatsApp number as the Cloud API takes it (digits, with the country code), or undefined. */
export function whatsappNumberOf(typed: string): string | undefined {
  const digits = typed.replace(/[\s()-]/g, '').replace(/^\+/, '');
  if (/^0\d{9}$/.test(digits)) return `27${digits.slice(1)}`;
  return /^[1-9]\d{9,14}$/.test(digits) ? digits : undefined;
}
