import { z } from './zod.ts';

/**
 * A WhatsApp number as people type it, and as the Cloud API takes it (issue 38 §3). The API wants the number in
 * E.164 without the `+` (`27821234567`). Students here give South African mobile numbers, typed any of the usual
 * ways: `082 123 4567`, `+27 82 123 4567`, `+27 (0)82 123 4567`, `0027 82 123 4567`, `27821234567`. The form and
 * the server read them with the same rule, so what the form accepts the server sends to.
 *
 * Only South African mobile numbers pass: 06…, 07… and 081 to 085 (ICASA's numbering plan gives those to mobile
 * networks; 080 is toll-free, 086 shared-cost and 087 internet telephony, and the rest are landlines). Another
 * country's number is refused with a message that says so, rather than guessed at.
 */

export const whatsAppMessages = {
  numberRequired: 'Enter your WhatsApp number.',
  numberInvalid: 'Enter a South African mobile number, such as 082 123 4567 or +27 82 123 4567.',
  numberNotSouthAfrican: 'Only South African mobile numbers (+27) can get WhatsApp messages here.',
  numberNotMobile: 'That is not a mobile number: enter the mobile number you use WhatsApp on, such as 082 123 4567.',
} as const;

export type WhatsAppNumberReading = { ok: true; number: string } | { ok: false; message: string };

/** What may separate the digits: spaces (also no-break ones), hyphens, dots, slashes and brackets. */
const separators = /[\s\u00a0.\-/()]/g;
/** A South African mobile number's nine digits after the 0 (or +27). */
const mobile = /^(?:6\d|7\d|8[1-5])\d{7}$/;

/**
 * `082 123 4567` and its other spellings as `27821234567`, what the Cloud API takes as `to`; or why it is not a
 * number WhatsApp messages can go to.
 */
export function normaliseWhatsAppNumber(text: string): WhatsAppNumberReading {
  const typed = text.trim();
  if (typed === '') return { ok: false, message: whatsAppMessages.numberRequired };
  // `+27 (0)82…`: the trunk 0 some write after the country code, which is never dialled with it.
  const plain = typed.replace(/^(\+|00)?27\s*\(0\)/, '+27').replace(separators, '');
  if (!/^\+?\d+$/.test(plain)) return { ok: false, message: whatsAppMessages.numberInvalid };
  const international = plain.startsWith('+') ? plain.slice(1) : plain.startsWith('00') ? plain.slice(2) : undefined;
  let national: string;
  if (international !== undefined) {
    if (!international.startsWith('27')) return { ok: false, message: whatsAppMessages.numberNotSouthAfrican };
    national = international.slice(2).replace(/^0/, '');
  } else if (plain.startsWith('0')) {
    national = plain.slice(1);
  } else if (plain.startsWith('27') && plain.length === 11) {
    national = plain.slice(2);
  } else {
    return { ok: false, message: whatsAppMessages.numberInvalid };
  }
  if (!/^\d{9}$/.test(national)) return { ok: false, message: whatsAppMessages.numberInvalid };
  if (!mobile.test(national)) return { ok: false, message: whatsAppMessages.numberNotMobile };
  return { ok: true, number: `27${national}` };
}

/** A WhatsApp number as a form field and the API take it: the typed text in, `27821234567` out. */
export const whatsAppNumberSchema = z.string(whatsAppMessages.numberRequired).transform((text, ctx) => {
  const reading = normaliseWhatsAppNumber(text);
  if (reading.ok) return reading.number;
  ctx.addIssue({ code: 'custom', message: reading.message });
  return z.NEVER;
});

/** `27821234567` as people read it: `+27 82 123 4567`. */
export const formatWhatsAppNumber = (number: string) =>
  /^27\d{9}$/.test(number)
    ? `+27 ${number.slice(2, 4)} ${number.slice(4, 7)} ${number.slice(7)}`
    : `+${number.replace(/^\+/, '')}`;
