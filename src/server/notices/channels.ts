import { normaliseWhatsAppNumber } from '../../common/whatsapp.ts';
import type { Env } from '../env.ts';

/**
 * What this server offers beyond e-mail: push always (its VAPID public key, resolved at start: server.ts),
 * WhatsApp with the owner's account.
 */
export function offeredChannels(config: Env): { pushKey: string; whatsapp: boolean } {
  return { pushKey: config.vapid.keys?.publicKey ?? '', whatsapp: config.whatsapp !== undefined };
}

/** A WhatsApp number as the Cloud API takes it (a South African mobile number, digits with 27), or undefined. */
export function whatsappNumberOf(typed: string): string | undefined {
  const reading = normaliseWhatsAppNumber(typed);
  return reading.ok ? reading.number : undefined;
}
