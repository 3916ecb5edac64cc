import { z } from './zod.ts';

/**
 * The words of money (issue 37) that a booking itself carries, apart from common/payments.ts (which reads
 * bookings) so that bookings.ts can name them.
 */

/**
 * What an entry is: money in (`payment`), money given back (`refund`), or an amount the business lets go
 * (`waiver`, with a reason), which settles what is due without any money.
 */
export const paymentKinds = ['payment', 'refund', 'waiver'] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/**
 * How the money came: an EFT the admin saw (`eft`), a line of an uploaded bank statement (`statement`), cash or
 * anything else the admin records by hand (`admin`), or PayFast's notice (`payfast`).
 */
export const paymentMethods = ['eft', 'statement', 'admin', 'payfast'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** The sums of what was recorded against one booking, each positive, in cents. */
export const paymentTotalsSchema = z.object({
  /** Money received, before refunds. */
  paidCents: z.number().int(),
  refundedCents: z.number().int(),
  waivedCents: z.number().int(),
});
export type PaymentTotals = z.infer<typeof paymentTotalsSchema>;

export const noPayments: PaymentTotals = { paidCents: 0, refundedCents: 0, waivedCents: 0 };
