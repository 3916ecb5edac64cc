import type { InputHTMLAttributes } from 'react';

/**
 * What was typed as a time, written as `HH:MM` on the 24-hour clock: "9" → "09:00", "930" and "9.30" →
 * "09:30", "1430" → "14:30". Anything else is returned as typed, for the form's check to name it.
 */
export function normalizeTime(typed: string): string {
  const text = typed.trim();
  const match = /^(\d{1,2})(?:[:.h ]?(\d{2}))?$/i.exec(text);
  if (!match) return typed;
  // "930" is 9 and 30: the minutes take the last two digits, the hours what is left.
  const [hours, minutes] = [match[1]!, match[2] ?? '00'];
  if (Number(hours) > 23 || Number(minutes) > 59) return typed;
  return `${hours.padStart(2, '0')}:${minutes}`;
}

interface TimeInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
}

/**
 * A time of day on the 24-hour clock, whatever the browser's language: Chromium's `type="time"` follows the
 * browser's locale, and an English (US) phone shows "09:00 AM" where every page and e-mail says "09:00 SAST".
 * A text field that takes "14:30" (or "1430" from a phone's number pad, which has no colon) and writes it as
 * `HH:MM` once the student leaves it. What cannot be read as a time is kept as typed, for the form to name.
 */
export function TimeInput({ value, onChange, onBlur, ...input }: TimeInputProps) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="HH:MM"
      maxLength={5}
      className="input font-mono tabular-nums"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        const normalized = normalizeTime(e.target.value);
        if (normalized !== value) onChange(normalized);
        onBlur?.(e);
      }}
      {...input}
    />
  );
}
