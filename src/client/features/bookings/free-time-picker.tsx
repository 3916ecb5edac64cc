import { CalendarRange } from 'lucide-react';
import { useId } from 'react';
import { uncategorized, type BookingCategory } from '../../../common/bookings.ts';
import { formatSastDate } from '../../../common/sast.ts';
import { useLocalData } from '../../offline/hooks.ts';
import type { BookingFormValues } from './booking-rules.ts';
import { anyHoursSet, categoryFreeDates, sessionHours, toggleSlot } from './free-times.ts';
import { categoryTimesSources, categoryTimesTable } from './free-times.sync.ts';

type Slots = BookingFormValues['slots'];

const chip =
  'btn min-h-11 border px-3 tabular-nums border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 aria-pressed:border-brand-700 aria-pressed:bg-brand-50 aria-pressed:text-brand-900 dark:aria-pressed:border-brand-300 dark:aria-pressed:bg-brand-900 dark:aria-pressed:text-brand-50';
/** A time among the three chosen: filled, as the choices below it are this one's. */
const chosenTime =
  'aria-pressed:bg-brand-700 aria-pressed:text-white dark:aria-pressed:bg-brand-300 dark:aria-pressed:text-slate-950';
const hint = 'text-sm text-slate-600 dark:text-slate-400';

/** "Thu, 03 Dec": a date in the strip, where the year goes without saying. */
const shortDate = (date: string) => formatSastDate(date).replace(/ \d{4}$/, '');

/**
 * The module's free start times (issue 36): the dates of the next four weeks on which a tutor of its category
 * is free, and the chosen date's free starts, worked out on the device from the tutors' hours and sessions as
 * last synced (free-times.sync.ts), so a student picks offline too; the server checks again when the request
 * arrives. A time pressed fills the next of the three slots below, where the student can still type any time
 * ("none of these suit me"). A module outside the catalogue has no category's tutors: nothing to show.
 */
interface PickerProps<C extends BookingCategory = BookingCategory> {
  category: C;
  date: string;
  hours: string;
  leadHours: number;
  slots: Slots;
  onDate: (date: string) => void;
  onSlots: (slots: Slots) => void;
}

export function FreeTimePicker(props: PickerProps) {
  const { category } = props;
  if (category === uncategorized) return null;
  return <Picker {...props} category={category} />;
}

function Picker({
  category,
  date,
  hours,
  leadHours,
  slots,
  onDate,
  onSlots,
}: PickerProps<Exclude<BookingCategory, typeof uncategorized>>) {
  const id = useId();
  const times = useLocalData(
    async () => (await categoryTimesTable.get(category)) ?? null,
    [category],
    [categoryTimesSources[category]],
  );
  const row = times.data ?? undefined;
  const length = sessionHours(hours);
  const dates = row ? categoryFreeDates(row, { hours: length, now: new Date(), leadHours }) : [];
  const free = dates.filter((d) => d.starts.length > 0);
  const chosen = dates.find((d) => d.date === date);
  const full = slots.every((s) => s !== '');

  let body;
  if (times.status === 'loading')
    body = <div aria-hidden className="h-24 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />;
  else if (!row)
    body = (
      <p className={hint}>
        {times.status === 'unavailable'
          ? 'The free times are not on this device yet. Type three times that suit you below; a tutor confirms one.'
          : 'No free times to show. Type three times that suit you below.'}
      </p>
    );
  else if (!anyHoursSet(row))
    body = <p className={hint}>The tutors have not published their hours yet. Type three times that suit you below.</p>;
  else if (free.length === 0)
    body = (
      <p className={hint}>
        No free {length === 1 ? 'hour' : `${length} hours`} in the next four weeks. Type three times that suit you
        below, or fewer hours.
      </p>
    );
  else
    body = (
      <>
        <div
          role="group"
          aria-label="Days with free times"
          className="-mx-1 flex snap-x gap-2 overflow-x-auto px-1 pt-1 pb-2"
        >
          {free.map((d) => (
            <button
              key={d.date}
              type="button"
              aria-pressed={d.date === date}
              className={`${chip} shrink-0 snap-start flex-col gap-0 py-1 leading-tight`}
              onClick={() => onDate(d.date)}
            >
              <span>{shortDate(d.date)}</span>
              <span className="text-xs font-normal">{d.starts.length} free</span>
            </button>
          ))}
        </div>
        {!date ? (
          <p className={hint}>Choose a date to see its free times.</p>
        ) : !chosen || chosen.starts.length === 0 ? (
          <p className={hint}>
            No free times on {formatSastDate(date)}. Choose a date above, or type times that suit you below.
          </p>
        ) : (
          <div
            role="group"
            aria-label={`Free times on ${formatSastDate(date)}`}
            aria-describedby={`${id}-picked`}
            className="grid grid-cols-3 gap-2 min-[420px]:grid-cols-4 sm:grid-cols-6"
          >
            {chosen.starts.map((time) => {
              const picked = slots.includes(time);
              return (
                <button
                  key={time}
                  type="button"
                  aria-pressed={picked}
                  aria-disabled={!picked && full ? true : undefined}
                  className={`${chip} ${chosenTime} aria-disabled:opacity-60`}
                  onClick={() => onSlots(toggleSlot(slots, time))}
                >
                  {time}
                </button>
              );
            })}
          </div>
        )}
        <p id={`${id}-picked`} className={hint} aria-live="polite">
          {full
            ? 'Three times chosen. Press one again to take it back.'
            : `Press a time to add it to your choices below (${slots.filter((s) => s !== '').length} of 3).`}
        </p>
        {times.status === 'stale' && (
          <p className={hint}>As last synced: a tutor confirms the time when your request reaches them.</p>
        )}
      </>
    );

  return (
    <section aria-labelledby={`${id}-title`} className="flex min-w-0 flex-col gap-2">
      <h3 id={`${id}-title`} className="flex items-center gap-1.5 font-medium">
        <CalendarRange aria-hidden size={18} className="shrink-0" />
        Free times
      </h3>
      {body}
    </section>
  );
}
