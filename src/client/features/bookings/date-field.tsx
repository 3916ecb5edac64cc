import { useEffect, useState, type ChangeEvent } from 'react';
import { bookingMessages } from '../../../common/bookings.ts';
import { FormField } from '../../components/form-field.tsx';
import { dateInWords } from './booking-rules.ts';

/** How long the date must stay put before it is announced: typing one changes it on every key. */
const settleMs = 1000;

/** `value` once it has not changed for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The session's date. A phone shows a date input in its own locale's order (mm/dd/yyyy, say), so the hint
 * starts with the chosen date in words, as the app writes dates, and a polite live region says it once the
 * date has stayed put a moment (not on each key typed).
 */
export function DateField(props: {
  value: string;
  min: string;
  max: string;
  leadHours: number;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { value, leadHours, ...input } = props;
  const words = dateInWords(value);
  const announced = useSettled(words, settleMs);
  const leadTime = bookingMessages.leadTime(leadHours);
  return (
    <>
      <FormField
        label="Date"
        name="date"
        type="date"
        value={value}
        hint={words ? `${words}. ${leadTime}` : leadTime}
        {...input}
      />
      <p role="status" aria-live="polite" className="sr-only">
        {announced}
      </p>
    </>
  );
}
