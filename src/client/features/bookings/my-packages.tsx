import { useId } from 'react';
import { formatRand } from '../../../common/money.ts';
import { packageMessages, packageStanding } from '../../../common/packages.ts';
import { receiptMessages } from '../../../common/receipts.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import { packageState, packageSummary, packageTitle, scopeOf } from './package-words.ts';
import { packagesApi } from './packages-api.ts';
import { PayNow } from './pay-now.tsx';
import { ReceiptList } from './receipt-links.tsx';
import { ReadFailed } from './read-failed.tsx';
import { useOnlineRead } from './use-online-read.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The student's monthly packages on their dashboard (issue 37 §3): each with what is still to pay and under which
 * reference, or its balance of hours, and each payment with its receipt; read from the server while online.
 */
export function MyPackages({ userId }: { userId: string }) {
  const headingId = useId();
  const mine = useOnlineRead(`mine:${userId}`, (signal) => packagesApi.list(signal));
  const today = sastDate(new Date());
  // Most students have none: nothing shows until the server says there are some (offline, nothing at all).
  if (!mine.failed && !mine.data?.length) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Your packages
      </h2>
      {mine.failed ? (
        <ReadFailed text={packageMessages.loadFailed} onRetry={mine.reload} className="mt-3" />
      ) : (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {(mine.data ?? []).map((pkg) => (
            <li
              key={pkg.id}
              id={`package-${pkg.id}`}
              className="card scroll-mt-20"
              data-state={packageState(pkg, today)}
            >
              <h3 className="font-semibold">{packageTitle(pkg)}</h3>
              <p className={`text-sm ${muted}`}>{scopeOf(pkg)}</p>
              <p className="mt-2">{packageSummary(pkg, today)}</p>
              <PayNow target="package" id={pkg.id} owingCents={packageStanding(pkg).owingCents} />
              <ReceiptList
                payments={pkg.recordedPayments.flatMap((payment) =>
                  payment.kind === 'payment'
                    ? [
                        {
                          id: payment.id,
                          amountCents: payment.amountCents,
                          when: `paid ${formatSastDate(payment.paidOn)}`,
                          label: receiptMessages.paidLabel(
                            formatRand(payment.amountCents),
                            formatSastDate(payment.paidOn),
                          ),
                        },
                      ]
                    : [],
                )}
                fetchReceipt={(paymentId) => packagesApi.receipt(pkg.id, paymentId)}
                of={`${packageTitle(pkg)} (${pkg.paymentReference})`}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
