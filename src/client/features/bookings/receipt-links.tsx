import { FileDown } from 'lucide-react';
import { useState } from 'react';
import type { Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { receiptFileName, receiptMessages } from '../../../common/receipts.ts';
import { formatSastDateTime } from '../../../common/sast.ts';
import { Notice } from '../../components/notice.tsx';
import { ApiError, isSessionEnded } from '../../lib/api.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import { bookingsApi } from './bookings-api.ts';

/** The payments of a booking that have a receipt, from its history as the device holds it (issue 37 §4). */
function paymentsOf(booking: Booking) {
  return booking.history.flatMap((change) =>
    change.payment?.kind === 'payment' && change.payment.id
      ? [{ id: change.payment.id, amountCents: change.payment.amountCents, at: change.at }]
      : [],
  );
}

/** Saves the PDF under its own name, as a link to a file would. */
function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by the next task: the blob's address may go then.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A payment offered with its receipt: what it was, as the list says it and as a screen reader hears it. */
export interface ReceiptItem {
  id: string;
  amountCents: number;
  /** "recorded Thu, 03 Dec 2026, 10:00", "paid Thu, 03 Dec 2026". */
  when: string;
  label: string;
}

/**
 * Payments, each with its receipt one press away (a PDF the server makes, `fetchReceipt`): a booking's, a
 * package's. The list comes from what the device holds, so it shows offline; the download needs the connection,
 * and says so rather than failing in silence.
 */
export function ReceiptList({
  payments,
  fetchReceipt,
  of,
}: {
  payments: readonly ReceiptItem[];
  fetchReceipt: (paymentId: string) => Promise<Blob>;
  /** What they paid for, with its reference: the region's name ("Payments for …") is then unique on a list. */
  of: string;
}) {
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState<string>();
  const [problem, setProblem] = useState<{ tone: 'offline' | 'error'; text: string }>();
  if (payments.length === 0) return null;

  async function download(paymentId: string) {
    if (!online) {
      setProblem({ tone: 'offline', text: receiptMessages.offline });
      return;
    }
    setProblem(undefined);
    setBusy(paymentId);
    try {
      save(await fetchReceipt(paymentId), receiptFileName(paymentId));
    } catch (error) {
      // A session that has ended is the app's to tell (it offers to log in again).
      if (!isSessionEnded(error))
        setProblem(
          error instanceof ApiError
            ? { tone: 'error', text: error.message }
            : {
                tone: navigator.onLine ? 'error' : 'offline',
                text: navigator.onLine ? receiptMessages.failed : receiptMessages.offline,
              },
        );
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section aria-label={`Payments for ${of}`} className="mt-4">
      <h4 className="text-sm font-semibold text-slate-700 dark:text-slate-300">Payments</h4>
      <ul className="mt-1 divide-y divide-slate-200 dark:divide-slate-700">
        {payments.map((payment) => (
          <li key={payment.id} className="flex flex-wrap items-center justify-between gap-x-3 py-1">
            <span className="min-w-0">
              <span className="font-medium">{formatRand(payment.amountCents)}</span>{' '}
              <span className="text-sm text-slate-600 dark:text-slate-400">{payment.when}</span>
            </span>
            <button
              type="button"
              className="btn-secondary min-h-11"
              aria-label={payment.label}
              aria-busy={busy === payment.id}
              disabled={busy === payment.id}
              onClick={() => void download(payment.id)}
            >
              <FileDown aria-hidden size={18} />
              {busy === payment.id ? receiptMessages.downloading : receiptMessages.link}
            </button>
          </li>
        ))}
      </ul>
      {problem && (
        <Notice tone={problem.tone} className="mt-2">
          {problem.text}
        </Notice>
      )}
    </section>
  );
}

/** Each payment recorded against the booking, from its history as the device holds it, with its receipt. */
export function ReceiptLinks({ booking }: { booking: Booking }) {
  const payments = paymentsOf(booking).map((payment) => {
    const when = formatSastDateTime(payment.at);
    return {
      id: payment.id,
      amountCents: payment.amountCents,
      when: `recorded ${when}`,
      label: receiptMessages.linkLabel(formatRand(payment.amountCents), when),
    };
  });
  return (
    <ReceiptList
      payments={payments}
      fetchReceipt={(paymentId) => bookingsApi.receipt(booking.id, paymentId)}
      of={`${booking.moduleName} (${booking.paymentReference})`}
    />
  );
}
