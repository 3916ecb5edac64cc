import type { PaymentMethod } from './payment-kinds.ts';

/**
 * Receipts (issue 37 §4, docs/decisions/0055): one for each payment, made by the server as a PDF, downloaded by the
 * student from their session card and e-mailed when the payment is recorded. What both sides need of them: the
 * receipt's number, its address, and the words people read. No zod: the student's dashboard loads this.
 */

/**
 * The receipt's number, made from the payment's id (a UUID made once by whoever recorded it), so the same
 * payment always has the same number, on the e-mail and on every download: `R-` and its first twelve hex digits
 * in three groups (`R-1A2B-3C4D-5E6F`). Twelve digits leave two receipts the same number about once in 10⁸ pairs:
 * a small business's few thousand payments a year never meet it, and the payment's full id is on the receipt too.
 */
export function receiptNumber(paymentId: string): string {
  const hex = paymentId
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 12)
    .toUpperCase();
  return `R-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}`;
}

/** `GET` this: the payment's receipt as a PDF, for the student whose booking it paid, or the admin. */
export const receiptPath = (bookingId: string, paymentId: string) =>
  `/api/bookings/${encodeURIComponent(bookingId)}/receipts/${encodeURIComponent(paymentId)}`;

/** `GET` this: a package's payment's receipt as a PDF, for the package's student, or the admin. */
export const packageReceiptPath = (packageId: string, paymentId: string) =>
  `/api/packages/${encodeURIComponent(packageId)}/receipts/${encodeURIComponent(paymentId)}`;

/** The file's name as it is downloaded and attached. */
export const receiptFileName = (paymentId: string) => `tutorbook-receipt-${receiptNumber(paymentId)}.pdf`;

/** How the money came, as the receipt says it (common/payment-kinds.ts `paymentMethods`). */
export const paymentMethodNames: Record<PaymentMethod, string> = {
  eft: 'EFT',
  statement: 'EFT (from our bank statement)',
  admin: 'By hand (cash or card)',
  payfast: 'PayFast',
};

/** The words of receipts: on the PDF, in the e-mail, on the session card. */
export const receiptMessages = {
  title: 'Receipt',
  notVatRegistered: 'Not VAT registered',
  vatNumber: (vat: string) => `VAT number: ${vat}`,
  /** The session card's link, and what it says to a screen reader. */
  link: 'Receipt',
  linkLabel: (amount: string, recorded: string) => `Download the receipt for ${amount}, recorded ${recorded} (PDF)`,
  /** A package's payment, known by the day the money moved. */
  paidLabel: (amount: string, paidOn: string) => `Download the receipt for ${amount}, paid ${paidOn} (PDF)`,
  downloading: 'Downloading the receipt…',
  offline: 'You are offline. A receipt is made by the server: download it once you have a connection.',
  failed: 'Failed to download the receipt. Please try again.',
  notFound: 'There is no receipt for this payment.',
  /** In the e-mail, when the mail service carries no attachments (EmailJS). */
  onDashboard: 'Your receipt is on your dashboard: open the session and choose "Receipt" beside the payment.',
  /** The same, for a package's payment. */
  onDashboardPackage: 'Your receipt is on your dashboard: under "Your packages", choose "Receipt" beside the payment.',
  attached: 'Your receipt is attached as a PDF.',
} as const;
