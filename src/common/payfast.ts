import { z } from './zod.ts';

/**
 * Paying online through PayFast (issue 37 §4, docs/decisions/0058), where the owner has configured it: a "Pay now"
 * button on what a student owes (a booking, a late fee, a monthly package) takes them to PayFast's payment page
 * with the amount owing; PayFast's payment notice (ITN), checked as PayFast documents, records the payment. The
 * words and the request here; the checks are the server's (server/payfast/).
 */

/** What a checkout pays for: a booking (its session or late fee, whichever is due), or a monthly package. */
export const payFastTargets = ['booking', 'package'] as const;
export type PayFastTarget = (typeof payFastTargets)[number];

/** `POST /api/payfast/checkout` (the student): what to pay for. */
export const payFastCheckoutInputSchema = z.strictObject({
  for: z.enum(payFastTargets),
  id: z.string().min(1).max(100),
});
export type PayFastCheckoutInput = z.infer<typeof payFastCheckoutInputSchema>;

/**
 * The answer: PayFast's payment page with the signed fields in its query string (`url`), which the browser goes
 * to; the amount is what is owing now. A link rather than a form: the pages' policy lets forms post to our own
 * origin only (`form-action 'self'`), and PayFast takes the same fields either way.
 */
export const payFastCheckoutSchema = z.object({
  url: z.string(),
  amountCents: z.number().int(),
});
export type PayFastCheckout = z.infer<typeof payFastCheckoutSchema>;

/** Where PayFast sends the student back: the dashboard, saying how it went (`?payfast=paid|cancelled`). */
export const payFastReturnParam = 'payfast';

export const payFastMessages = {
  payNow: 'Pay now',
  payNowHint: 'by card or instant EFT through PayFast',
  offline: 'Paying online needs a connection.',
  notConfigured: 'Paying online is not set up. Pay by EFT with the payment reference.',
  nothingOwing: 'Nothing is owing here any more: there is nothing to pay.',
  notFound: 'There is nothing of yours to pay with that link.',
  going: 'Taking you to PayFast…',
  returned:
    'Thank you. PayFast has your payment: it shows here as paid as soon as PayFast confirms it, usually within a minute.',
  cancelled: 'You left PayFast without paying. Nothing was paid; pay whenever you are ready.',
} as const;
