import type { ReactNode } from 'react';
import { formatRand } from '../../../common/money.ts';
import { quoteCents } from './booking-rules.ts';

/**
 * The price as the student types the hours: hours × the module's rate, paid once a tutor confirms; for weekly
 * sessions, each session's and the total (issue 36).
 */
export function BookingQuote({
  id,
  hours,
  rateCents,
  weeks = 1,
  children,
}: {
  id: string;
  hours: string;
  rateCents: number;
  weeks?: number;
  /** What else pays for it: the student's monthly package (packages/package-quote.tsx). */
  children?: ReactNode;
}) {
  const quote = quoteCents(hours, rateCents);
  return (
    <div id={id} className="rounded-lg bg-brand-50 p-4 dark:bg-brand-900/40">
      <p className="text-sm text-slate-700 dark:text-slate-300">Price</p>
      {quote === undefined ? (
        <p className="font-medium">Enter the hours to see the price.</p>
      ) : (
        <p>
          <span className="text-2xl font-bold">{formatRand(quote * weeks)}</span>{' '}
          <span className="text-sm text-slate-700 dark:text-slate-300">
            ({hours} {hours === '1' ? 'hour' : 'hours'} × {formatRand(rateCents)}/hour
            {weeks > 1 ? `, ${formatRand(quote)} a session × ${weeks} weeks` : ''}, paid by EFT once a tutor confirms a
            time)
          </span>
        </p>
      )}
      {children}
    </div>
  );
}
