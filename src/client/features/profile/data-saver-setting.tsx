import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { setDataSaver, useDataSaver } from '../../lib/data-saver.ts';

/**
 * The profile's "Save data" (lib/data-saver.ts): a setting of this device, not of the account, since the data
 * plan is the phone's. On, the app holds no live connection and reads a list again only when asked.
 */
export function DataSaverSetting() {
  const { on, chosen } = useDataSaver();
  const headingId = useId();
  const hintId = useId();
  return (
    <section className="card mt-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        This device
      </h2>
      <label className="mt-4 flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
          checked={on}
          aria-describedby={hintId}
          onChange={(event) => setDataSaver(event.target.checked)}
        />
        <span>
          <span className="font-semibold">Save data:</span> no live updates; lists refresh when you ask.
        </span>
      </label>
      <p id={hintId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        For this device only, whoever signs in on it: your data plan is the phone&apos;s.{' '}
        {on ? (
          <>
            Press <RefreshCw aria-hidden size={14} className="inline align-[-2px]" /> Refresh at the top of a page to
            see what changed.
          </>
        ) : (
          'Bookings and the board update on their own while the app is open.'
        )}
        {on && !chosen && ' On because your browser asks sites to save data.'}
      </p>
    </section>
  );
}
