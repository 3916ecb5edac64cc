/**
 * Every kind of e-mail the app sends. A mail service with templates of its own (EmailJS) can give each kind
 * its own template (`EMAILJS_TEMPLATES`, README "E-mail through EmailJS"); a kind not listed here does not
 * compile where an e-mail is queued.
 */
export const emailKinds = [
  'verification',
  'welcome',
  'account-exists',
  'password-reset',
  'invitation',
  'booking-request',
  'booking-receipt',
  'booking-confirmed',
  'booking-time-changed',
  'booking-cancelled',
  'booking-cancelled-staff',
  'booking-completed',
  'booking-reminder',
] as const;

export type EmailKind = (typeof emailKinds)[number];
