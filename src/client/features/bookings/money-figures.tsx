import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { figuresMessages, type Figures } from '../../../common/figures.ts';
import { formatRand } from '../../../common/money.ts';
import { formatMonth } from '../../../common/packages.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import { Notice } from '../../components/notice.tsx';
import { bookingsApi } from './bookings-api.ts';
import { ReadFailed } from './read-failed.tsx';
import { useOnlineRead } from './use-online-read.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The admin's figures for a month (issue 37 §4), on the Money tab: money in per week and what is still unpaid per
 * month as bar charts (a picture to look at, each bar's figure written beside it), hours per tutor as a table to pay
 * them from, and the month's payments as CSV for the accountant. Read from the server while online.
 */
export function MoneyFigures() {
  const headingId = useId();
  const monthId = useId();
  const [month, setMonth] = useState(() => sastDate(new Date()).slice(0, 7));
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const figures = useOnlineRead(valid ? `figures:${month}` : '', (signal) => bookingsApi.figures(month, signal));
  const shown = figures.data?.month === month ? figures.data : undefined;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Figures
      </h2>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={monthId} className="font-medium">
            Month
          </label>
          <input
            id={monthId}
            type="month"
            className="input"
            value={month}
            aria-invalid={valid ? undefined : true}
            onChange={(e) => setMonth(e.target.value)}
          />
        </div>
        {valid && (
          <a
            className="btn-secondary"
            href={`/api/bookings/figures/payments.csv?month=${month}`}
            download={`payments-${month}.csv`}
          >
            <Download aria-hidden size={18} />
            Payments of {formatMonth(month)} as CSV
          </a>
        )}
      </div>
      {!valid ? (
        <p className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">{figuresMessages.monthInvalid}</p>
      ) : !figures.online && !shown ? (
        <Notice tone="offline" className="mt-4">
          {figuresMessages.offline}
        </Notice>
      ) : figures.failed ? (
        <ReadFailed text={figuresMessages.loadFailed} onRetry={figures.reload} className="mt-4" />
      ) : !shown ? (
        <p role="status" className={`mt-4 ${muted}`}>
          Loading the figures…
        </p>
      ) : (
        <FiguresOf figures={shown} />
      )}
    </section>
  );
}

function FiguresOf({ figures }: { figures: Figures }) {
  const tutorsId = useId();
  const weekLabel = (week: Figures['weeks'][number]) =>
    `Week of ${formatSastDate(week.from)
      .replace(/^\w+, /, '')
      .replace(/ \d{4}$/, '')}`;
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-2">
      <BarChart
        title={`Money in per week, ${formatMonth(figures.month)}`}
        bars={figures.weeks.map((week) => ({
          label: weekLabel(week),
          cents: week.inCents,
          note: week.refundedCents > 0 ? `${formatRand(week.refundedCents)} refunded` : undefined,
        }))}
        tone="bg-green-600 dark:bg-green-500"
      />
      <BarChart
        title="Still unpaid, by the sessions’ month"
        bars={figures.unpaid.map((month) => ({
          label: formatMonth(month.month),
          cents: month.owingCents,
          note: month.sessions > 0 ? `${month.sessions} ${month.sessions === 1 ? 'session' : 'sessions'}` : undefined,
        }))}
        tone="bg-amber-500 dark:bg-amber-400"
      />
      <div className="card lg:col-span-2">
        <h3 id={tutorsId} className="font-semibold">
          Hours per tutor, {formatMonth(figures.month)}
        </h3>
        {figures.tutors.length === 0 ? (
          <p className={`mt-2 ${muted}`}>No confirmed or completed sessions this month.</p>
        ) : (
          <table aria-labelledby={tutorsId} className="mt-2 w-full text-left">
            <thead>
              <tr className={`text-sm ${muted}`}>
                <th scope="col" className="py-1 font-medium">
                  Tutor
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Sessions
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Hours
                </th>
              </tr>
            </thead>
            <tbody>
              {figures.tutors.map((tutor, i) => (
                <tr key={`${i}:${tutor.name}`} className="border-t border-slate-200 dark:border-slate-700">
                  <th scope="row" className="py-2 font-medium break-words">
                    {tutor.name}
                  </th>
                  <td className="py-2 text-right">{tutor.sessions}</td>
                  <td className="py-2 text-right font-semibold">{tutor.hours}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** Bars across, each as long as its share of the largest, with its figure written beside it (read aloud too). */
function BarChart({
  title,
  bars,
  tone,
}: {
  title: string;
  bars: { label: string; cents: number; note?: string | undefined }[];
  tone: string;
}) {
  const titleId = useId();
  const largest = Math.max(1, ...bars.map((bar) => bar.cents));
  return (
    <figure aria-labelledby={titleId} className="card">
      <figcaption id={titleId} className="font-semibold">
        {title}
      </figcaption>
      <ul className="mt-3 flex flex-col gap-3">
        {bars.map((bar) => (
          <li key={bar.label} className="grid grid-cols-[7.5rem_1fr] items-center gap-x-3 gap-y-1">
            <span className={`text-sm ${muted}`}>{bar.label}</span>
            <span className="flex min-w-0 items-center gap-2">
              <span
                aria-hidden
                className={`h-4 rounded-sm ${tone}`}
                style={{ width: `${Math.max(bar.cents > 0 ? 2 : 0, (bar.cents / largest) * 70)}%` }}
              />
              <span className="shrink-0 text-sm font-semibold">{formatRand(bar.cents)}</span>
            </span>
            {bar.note && <span className={`col-start-2 text-xs ${muted}`}>{bar.note}</span>}
          </li>
        ))}
      </ul>
    </figure>
  );
}
