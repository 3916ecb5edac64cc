import { CalendarPlus, Copy, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { availabilityLimits, weekdayNames } from '../../../common/availability.ts';
import type { TutorAvailability } from '../../../common/availability-api.ts';
import { formatSastDate, isCalendarDate } from '../../../common/sast.ts';
import { FormField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { TimeInput } from '../../components/time-input.tsx';
import { ApiError, isOffline, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { availabilityApi } from './availability-api.ts';
import {
  checkDraft,
  copyMondayToWeekdays,
  draftOf,
  hasErrors,
  newRange,
  noErrors,
  rangeId,
  withDayOff,
  type AvailabilityDraft,
  type AvailabilityErrors,
  type RangeDraft,
} from './availability-draft.ts';
import { availabilityTexts, useOnline } from './use-tutor-availability.ts';

/** A refused save: bad input by its field (the server names only the field, not the day), the rest above Save. */
function saveErrors(error: unknown): AvailabilityErrors {
  if (error instanceof ApiError && error.status === 400) {
    const { _form, weekly, daysOff, bufferMinutes } = error.fields;
    const placed = { ...noErrors, week: weekly, daysOff, buffer: bufferMinutes };
    return { ...placed, form: _form ?? (hasErrors(placed) ? undefined : error.message) };
  }
  return { ...noErrors, form: errorText(error, availabilityTexts.saveFailed, { offline: availabilityTexts.offline }) };
}

/**
 * The week's hours (SAST), the dates off and the buffer, saved whole with one PUT. What was typed stays in the
 * form whatever the answer; each message shows next to what it is about, and the first field in error takes the
 * focus. `savedText`: the toast once saved, which says whose hours they are.
 */
export function AvailabilityForm({
  record,
  savedText,
  onSaved,
}: {
  record: TutorAvailability;
  savedText: string;
  onSaved: (saved: TutorAvailability) => void;
}) {
  const form = useRef<HTMLFormElement>(null);
  const online = useOnline();
  const [draft, setDraft] = useState(() => draftOf(record.availability));
  const [errors, setErrors] = useState<AvailabilityErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  // Bumped on each refused save, so the focus moves to the first field in error even when the errors are the same.
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const refuse = (next: AvailabilityErrors) => {
    setErrors(next);
    setRefusals((n) => n + 1);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const checked = checkDraft(draft);
    if ('errors' in checked) return refuse(checked.errors);
    setErrors(noErrors);
    setBusy(true);
    try {
      if (isOffline()) throw new NetworkError();
      const saved = await availabilityApi.put(record.tutorId, checked.data);
      setDraft(draftOf(saved.availability));
      toast.success(savedText);
      onSaved(saved);
    } catch (error) {
      refuse(saveErrors(error));
    } finally {
      setBusy(false);
    }
  }

  const setDay = (day: number, ranges: RangeDraft[]) =>
    setDraft((d) => ({ ...d, weekly: d.weekly.map((r, i) => (i === day ? ranges : r)) }));

  return (
    <form ref={form} noValidate aria-label="Working hours" className="mt-6 flex flex-col gap-8" onSubmit={save}>
      <WeekFields draft={draft} errors={errors} setDay={setDay} onCopyMonday={() => setDraft(copyMondayToWeekdays)} />
      <DaysOffField
        daysOff={draft.daysOff}
        error={errors.daysOff}
        onChange={(daysOff) => setDraft((d) => ({ ...d, daysOff }))}
      />
      <FormField
        label="Buffer between sessions (minutes)"
        name="bufferMinutes"
        type="number"
        inputMode="numeric"
        min={0}
        max={availabilityLimits.bufferMaxMinutes}
        step={5}
        className="max-w-xs"
        hint={`Kept free before and after each confirmed session: 0 to ${availabilityLimits.bufferMaxMinutes}.`}
        value={draft.buffer}
        onChange={(e) => setDraft((d) => ({ ...d, buffer: e.target.value }))}
        error={errors.buffer}
      />
      <div className="flex flex-col gap-3">
        {errors.form && (
          <Notice tone="error" className="max-w-prose">
            {errors.form}
          </Notice>
        )}
        {!errors.form && hasErrors(errors) && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            Nothing was saved: check the fields marked above.
          </p>
        )}
        {!online && (
          <Notice tone="offline" className="max-w-prose">
            {availabilityTexts.offline}
          </Notice>
        )}
        <div>
          <button type="submit" className="btn-primary" disabled={busy || !online}>
            {busy ? 'Saving…' : 'Save working hours'}
          </button>
        </div>
      </div>
    </form>
  );
}

function WeekFields({
  draft,
  errors,
  setDay,
  onCopyMonday,
}: {
  draft: AvailabilityDraft;
  errors: AvailabilityErrors;
  setDay: (day: number, ranges: RangeDraft[]) => void;
  onCopyMonday: () => void;
}) {
  const weekErrorId = useId();
  // The row just added takes the focus; rows there from the start do not.
  const [added, setAdded] = useState<number>();
  return (
    <fieldset aria-describedby={errors.week ? weekErrorId : undefined}>
      <legend className="text-xl font-semibold">Weekly hours</legend>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        In SAST (South African time), on the 24-hour clock, such as 09:00 to 13:00; a range may end at 24:00.
      </p>
      {errors.week && (
        <p id={weekErrorId} className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {errors.week}
        </p>
      )}
      <ol className="mt-4 flex flex-col divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {weekdayNames.map((name, day) => (
          <li key={name} className="p-4">
            <DayFields
              name={name}
              ranges={draft.weekly[day] ?? []}
              error={errors.days[day]}
              rangeErrors={(index) => errors.ranges[rangeId(day, index)]}
              added={added}
              onChange={(ranges) => setDay(day, ranges)}
              onAdd={() => {
                const range = newRange();
                setAdded(range.key);
                setDay(day, [...(draft.weekly[day] ?? []), range]);
              }}
              extra={
                day === 0 &&
                (draft.weekly[0]?.length ?? 0) > 0 && (
                  <button type="button" className="btn-secondary" onClick={onCopyMonday}>
                    <Copy aria-hidden size={18} />
                    Copy to Tuesday–Friday
                  </button>
                )
              }
            />
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

function DayFields({
  name,
  ranges,
  error,
  rangeErrors,
  added,
  onChange,
  onAdd,
  extra,
}: {
  name: string;
  ranges: RangeDraft[];
  error: string | undefined;
  rangeErrors: (index: number) => string | undefined;
  added: number | undefined;
  onChange: (ranges: RangeDraft[]) => void;
  onAdd: () => void;
  extra?: React.ReactNode;
}) {
  const headingId = useId();
  const errorId = useId();
  const full = ranges.length >= availabilityLimits.rangesPerDay;
  const set = (key: number, change: Partial<RangeDraft>) =>
    onChange(ranges.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-3 sm:grid-cols-[8rem_1fr]">
      {/* Not a heading: the page's own headings differ for the tutor and the admin, and the group is named by it. */}
      <p id={headingId} className="font-semibold sm:pt-2">
        {name}
      </p>
      <div className="flex flex-col gap-3">
        {ranges.length === 0 ? (
          <p className="text-slate-600 sm:pt-2 dark:text-slate-400">No hours</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label={`${name}’s ranges`}>
            {ranges.map((range, index) => (
              <RangeRow
                key={range.key}
                day={name}
                place={index + 1}
                range={range}
                error={rangeErrors(index)}
                dayErrorId={error ? errorId : undefined}
                focus={range.key === added}
                onChange={(change) => set(range.key, change)}
                onRemove={() => onChange(ranges.filter((r) => r.key !== range.key))}
              />
            ))}
          </ul>
        )}
        {error && (
          <p id={errorId} className="text-sm font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {!full && (
            <button type="button" className="btn-secondary" onClick={onAdd}>
              <Plus aria-hidden size={18} />
              Add a range<span className="sr-only"> on {name}</span>
            </button>
          )}
          {extra}
        </div>
      </div>
    </div>
  );
}

function RangeRow({
  day,
  place,
  range,
  error,
  dayErrorId,
  focus,
  onChange,
  onRemove,
}: {
  day: string;
  place: number;
  range: RangeDraft;
  error: string | undefined;
  /** A message about the whole day (an overlap), which marks each of its ranges. */
  dayErrorId: string | undefined;
  focus: boolean;
  onChange: (change: Partial<RangeDraft>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : '', dayErrorId ?? ''].filter(Boolean).join(' ') || undefined;
  const invalid = error || dayErrorId ? true : undefined;
  const which = `${day}, range ${place}`;
  return (
    <li>
      <div className="flex items-end gap-2">
        <div className="w-28">
          <label htmlFor={`${id}-start`} className="mb-1 block text-sm font-medium">
            From<span className="sr-only"> ({which})</span>
          </label>
          <TimeInput
            id={`${id}-start`}
            value={range.start}
            autoFocus={focus}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(start) => onChange({ start })}
          />
        </div>
        <div className="w-28">
          <label htmlFor={`${id}-end`} className="mb-1 block text-sm font-medium">
            To<span className="sr-only"> ({which})</span>
          </label>
          <TimeInput
            id={`${id}-end`}
            value={range.end}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(end) => onChange({ end })}
          />
        </div>
        <button type="button" className="btn-secondary px-3" onClick={onRemove}>
          <Trash2 aria-hidden size={18} />
          <span className="sr-only">Remove {which}</span>
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}

function DaysOffField({
  daysOff,
  error,
  onChange,
}: {
  daysOff: string[];
  error: string | undefined;
  onChange: (daysOff: string[]) => void;
}) {
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<string>();
  const add = () => {
    if (!isCalendarDate(date)) return setProblem('Choose a date to add, such as 2026-12-24.');
    setProblem(undefined);
    onChange(withDayOff(daysOff, date));
    setDate('');
  };
  return (
    <fieldset>
      <legend className="text-xl font-semibold">Dates off</legend>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Days with no sessions at all, such as leave or exams. Sessions already confirmed on them stay as they are.
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-2">
        <FormField
          label="Date off"
          type="date"
          className="w-48"
          value={date}
          error={problem ?? error}
          onChange={(e) => setDate(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the date, as the button beside it does, rather than saving the whole form.
            if (e.key !== 'Enter') return;
            e.preventDefault();
            add();
          }}
        />
        <button type="button" className="btn-secondary" onClick={add}>
          <CalendarPlus aria-hidden size={18} />
          Add date off
        </button>
      </div>
      {daysOff.length === 0 ? (
        <p className="mt-3 text-slate-600 dark:text-slate-400">No dates off.</p>
      ) : (
        <ul aria-label="Dates off" className="mt-3 flex flex-wrap gap-2">
          {daysOff.map((day) => (
            <li
              key={day}
              className="flex items-center gap-1 rounded-lg border border-slate-200 bg-white py-1 pr-1 pl-3 dark:border-slate-700 dark:bg-slate-900"
            >
              <span>{formatSastDate(day)}</span>
              <button
                type="button"
                className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
                onClick={() => onChange(daysOff.filter((d) => d !== day))}
              >
                <Trash2 aria-hidden size={18} />
                <span className="sr-only">Remove {formatSastDate(day)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
