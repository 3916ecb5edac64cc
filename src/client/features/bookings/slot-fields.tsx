import { Clock } from 'lucide-react';
import { useId } from 'react';
import { bookingMessages } from '../../../common/bookings.ts';
import { isTimeOfDay } from '../../../common/sast.ts';
import { TimeInput } from '../../components/time-input.tsx';
import type { BookingFormValues } from './booking-rules.ts';

type Slots = BookingFormValues['slots'];

const sastNote = 'Times are SAST (South African Standard Time, UTC+2), on the 24-hour clock: 14:30, or 1430.';
const slotLabels = ['First choice', 'Second choice', 'Third choice'] as const;

/** Which times the slots' message is about: each message marks the times it names, and no others. */
function slotInvalid(slots: Slots, index: number, error: string | undefined, tooSoon: number[]): boolean {
  const slot = slots[index]!;
  switch (error) {
    case undefined:
      return false;
    case bookingMessages.slotsRequired:
      return slot === '';
    case bookingMessages.slotsDistinct:
      return slots.filter((s) => s === slot).length > 1;
    case bookingMessages.slotInvalid:
      return !isTimeOfDay(slot);
    default:
      // The lead time's message names the times too soon: those are marked.
      return tooSoon.length > 0 ? tooSoon.includes(index) : true;
  }
}

/** Spec §4: three times that suit the student, with one message for the three under them. */
export function SlotFields({
  slots,
  error,
  tooSoon,
  onChange,
}: {
  slots: Slots;
  error: string | undefined;
  /** The times the lead-time message names (`tooSoonSlots`). */
  tooSoon: number[];
  onChange: (slots: Slots) => void;
}) {
  const id = useId();
  const setSlot = (index: number, slot: string) => onChange(slots.map((s, i) => (i === index ? slot : s)) as Slots);
  return (
    <fieldset aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`} className="min-w-0">
      <legend className="font-medium">Three times that suit you</legend>
      <p id={`${id}-hint`} className="mt-1 flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
        <Clock aria-hidden size={16} className="shrink-0" />
        {sastNote}
      </p>
      <div className="mt-2 grid gap-3 sm:grid-cols-3">
        {slotLabels.map((label, index) => (
          <SlotInput
            key={label}
            label={label}
            value={slots[index]!}
            invalid={slotInvalid(slots, index, error, tooSoon)}
            errorId={error ? `${id}-error` : undefined}
            onChange={(slot) => setSlot(index, slot)}
          />
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function SlotInput(props: {
  label: string;
  value: string;
  invalid: boolean;
  errorId: string | undefined;
  onChange: (slot: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <TimeInput
        id={id}
        value={props.value}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.invalid ? props.errorId : undefined}
        onChange={props.onChange}
      />
    </div>
  );
}
