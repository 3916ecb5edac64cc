/**
 * Every kind of e-mail the app sends. A mail service with templates of its own (EmailJS) can give each kind
 * its own template (`EMAILJS_TEMPLATES`, docs/email.md "Through EmailJS"); a kind not listed here does not
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
  'booking-move-requested',
  'booking-cancelled',
  'booking-cancelled-staff',
  'booking-completed',
  'booking-reminder',
  'payment-reminder',
  'payment-receipt',
  'notice',
] as const;

export type EmailKind = (typeof emailKinds)[number];

/**
 * The kinds someone is waiting for at a screen, with a link to open now: a new account's verification, a reset
 * or invitation link, the answer to a sign-up with an address that has an account. The worker sends them before
 * every other e-mail due (booking e-mails, reminders, a welcome), however many those are.
 */
export const sentFirst: readonly EmailKind[] = ['verification', 'password-reset', 'invitation', 'account-exists'];
