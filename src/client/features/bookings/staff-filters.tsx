import {
  bookingCategories,
  bookingMessages,
  bookingStatuses,
  type BookingCategory,
  type BookingStatus,
} from '../../../common/bookings.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import type { BookingFilters } from './bookings-api.ts';

/**
 * The staff's filters: status and session dates, and for the admin the category (Uncategorized included),
 * applied as they change; a tutor's categories are theirs already.
 */
export function StaffFilters({
  filters,
  onChange,
  withCategory,
  reversed,
}: {
  filters: BookingFilters;
  onChange: (filters: BookingFilters) => void;
  withCategory: boolean;
  reversed: boolean;
}) {
  const set = (patch: BookingFilters) => onChange({ ...filters, ...patch });
  return (
    <HydratedForm
      role="search"
      aria-label="Filter bookings"
      className={`card mt-4 grid gap-4 sm:grid-cols-2 lg:items-start ${withCategory ? 'lg:grid-cols-[1fr_1fr_1fr_1fr_auto]' : 'lg:grid-cols-[1fr_1fr_1fr_auto]'}`}
      onSubmit={(e) => e.preventDefault()}
    >
      <SelectField
        label="Status"
        value={filters.status ?? ''}
        onChange={(e) => set({ status: (e.target.value || undefined) as BookingStatus | undefined })}
      >
        <option value="">All statuses</option>
        {bookingStatuses.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </SelectField>
      {withCategory && (
        <SelectField
          label="Category"
          value={filters.category ?? ''}
          onChange={(e) => set({ category: (e.target.value || undefined) as BookingCategory | undefined })}
        >
          <option value="">All categories</option>
          {bookingCategories.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </SelectField>
      )}
      <FormField
        label="From (session date)"
        type="date"
        value={filters.from ?? ''}
        max={filters.to}
        onChange={(e) => set({ from: e.target.value || undefined })}
      />
      <FormField
        label="To (session date)"
        type="date"
        value={filters.to ?? ''}
        min={filters.from}
        onChange={(e) => set({ to: e.target.value || undefined })}
        error={reversed ? bookingMessages.dateRangeReversed : undefined}
      />
      <button
        type="button"
        className="btn-secondary lg:mt-7"
        disabled={!Object.values(filters).some(Boolean)}
        onClick={() => onChange({})}
      >
        Clear filters
      </button>
    </HydratedForm>
  );
}
