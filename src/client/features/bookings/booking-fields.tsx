import { bookingLimits, latestBookableDate, type BookingCategory } from '../../../common/bookings.ts';
import { formatCount } from '../../../common/locale.ts';
import { FormField, TextareaField } from '../../components/form-field.tsx';
import { earliestBookableDate, tooSoonSlots, type BookingFormErrors, type BookingFormValues } from './booking-rules.ts';
import { DateField } from './date-field.tsx';
import { FreeTimePicker } from './free-time-picker.tsx';
import { SlotFields } from './slot-fields.tsx';

/**
 * The form's fields (spec §4 Booking form): date, three times, hours and concepts, each with its message; between
 * the date and the times, the category's free times to pick them from (issue 36).
 */
export function BookingFields({
  category,
  values,
  errors,
  leadHours,
  disabled,
  onChange,
}: {
  category: BookingCategory;
  values: BookingFormValues;
  errors: BookingFormErrors;
  leadHours: number;
  disabled: boolean;
  onChange: (patch: Partial<BookingFormValues>) => void;
}) {
  const now = new Date();
  return (
    <fieldset disabled={disabled} className="flex min-w-0 flex-col gap-5">
      <DateField
        min={earliestBookableDate(now, leadHours)}
        max={latestBookableDate(now)}
        leadHours={leadHours}
        value={values.date}
        onChange={(e) => onChange({ date: e.target.value })}
        error={errors.date}
      />
      <FreeTimePicker
        category={category}
        date={values.date}
        hours={values.hours}
        leadHours={leadHours}
        slots={values.slots}
        onDate={(date) => onChange({ date })}
        onSlots={(slots) => onChange({ slots })}
      />
      <SlotFields
        slots={values.slots}
        error={errors.slots}
        tooSoon={tooSoonSlots(values, { now, leadHours })}
        onChange={(slots) => onChange({ slots })}
      />
      <FormField
        label="Hours"
        name="hours"
        type="number"
        inputMode="numeric"
        min={bookingLimits.hoursMin}
        max={bookingLimits.hoursMax}
        step={1}
        className="max-w-40"
        value={values.hours}
        onChange={(e) => onChange({ hours: e.target.value })}
        error={errors.hours}
        hint={`${bookingLimits.hoursMin} to ${bookingLimits.hoursMax} hours.`}
      />
      <FormField
        label="Weeks"
        name="weeks"
        type="number"
        inputMode="numeric"
        min={1}
        max={bookingLimits.weeksMax}
        step={1}
        className="max-w-sm"
        value={values.weeks ?? '1'}
        onChange={(e) => onChange({ weeks: e.target.value })}
        error={errors.weeks}
        hint={`The same times every week: 1 for one session, up to ${bookingLimits.weeksMax} (a term).`}
      />
      <TextareaField
        label="Concepts you need help with"
        name="concepts"
        rows={5}
        maxLength={bookingLimits.conceptsMax}
        value={values.concepts}
        onChange={(e) => onChange({ concepts: e.target.value })}
        error={errors.concepts}
        hint={`${formatCount(values.concepts.length)} of ${formatCount(bookingLimits.conceptsMax)} characters.`}
      />
    </fieldset>
  );
}
