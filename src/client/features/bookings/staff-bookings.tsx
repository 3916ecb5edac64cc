import { useEffect, useId, useState } from 'react';
import {
  bookingCategories,
  bookingMessages,
  bookingStatuses,
  dateRangeInOrder,
  type Booking,
  type BookingCategory,
  type BookingStatus,
} from '../../../common/bookings.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { isSessionEnded } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { engine } from '../../offline/engine.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import { BookingFacts, BookingHistory, LateCancellation, StatusLabel } from './booking-parts.tsx';
import { bookingsApi, type BookingFilters } from './bookings-api.ts';
import { storeBookings, useStaffActions, useStaffBookings } from './use-bookings.ts';
import { HydratedForm } from '../../components/hydrated-form.tsx';

const muted = 'text-slate-700 dark:text-slate-300';

/** Where the server's list for the current filters got to: the cursor of "Load more", or a failure. */
interface Fetched {
  key: string;
  nextCursor: string | null;
  failed: boolean;
}

/**
 * The staff's bookings as cards (spec §2 tutor and admin dashboards, §8 Tutor and Admin): a tutor's categories,
 * or every booking for the admin, who can filter by status, category and session dates. Cards come from
 * IndexedDB, so they are readable offline; online, the server's list for the filters is fetched and merged in,
 * with "Load more" for the next page. Confirming and setting a status need the connection.
 */
export function StaffBookings({
  role,
  categories,
  userId,
}: {
  role: 'tutor' | 'admin';
  categories: readonly string[];
  /** The staff member: a tutor's own bookings are theirs as a student, not to confirm. */
  userId: string;
}) {
  const headingId = useId();
  const [typed, setTyped] = useState<BookingFilters>({});
  const [filters, setFilters] = useState<BookingFilters>({});
  // A reversed range is said next to the dates and not asked for: the list keeps the last range in order.
  const reversed = !dateRangeInOrder(typed);
  const changeFilters = (next: BookingFilters) => {
    setTyped(next);
    if (dateRangeInOrder(next)) setFilters(next);
  };
  const { online } = useSyncStatus();
  const bookings = useStaffBookings(filters, role === 'tutor' ? categories : undefined);
  const key = JSON.stringify(filters);
  const [fetched, setFetched] = useState<Fetched>();
  const [loadingMore, setLoadingMore] = useState(false);
  const actions = useStaffActions(role);

  // The server's first page for these filters (the admin's filters run on the server, over every booking).
  useEffect(() => {
    if (!online) return;
    let current = true;
    const generation = engine.generation();
    bookingsApi
      .list(JSON.parse(key) as BookingFilters)
      .then(async (page) => {
        await storeBookings(page.bookings, generation);
        if (current) setFetched({ key, nextCursor: page.nextCursor, failed: false });
      })
      .catch((error: unknown) => {
        if (!current) return;
        setFetched({ key, nextCursor: null, failed: !isSessionEnded(error) });
      });
    return () => {
      current = false;
    };
  }, [key, online]);

  const failed = fetched?.key === key && fetched.failed;
  // Spec §8 Admin: 'Failed to fetch bookings.'
  useEffect(() => {
    if (failed && online) toast.error(bookingMessages.fetchFailed);
  }, [failed, online]);

  const nextCursor = fetched?.key === key ? fetched.nextCursor : null;
  function loadMore() {
    if (!nextCursor) return;
    setLoadingMore(true);
    const generation = engine.generation();
    bookingsApi
      .list(filters, nextCursor)
      .then(async (page) => {
        await storeBookings(page.bookings, generation);
        setFetched({ key, nextCursor: page.nextCursor, failed: false });
      })
      .catch((error: unknown) => {
        if (!isSessionEnded(error)) toast.error(bookingMessages.fetchFailed);
      })
      .finally(() => setLoadingMore(false));
  }

  if (role === 'tutor' && categories.length === 0) {
    return (
      <Notice tone="info" className="mt-6">
        {bookingMessages.notAssigned}
      </Notice>
    );
  }

  const list = bookings.data ?? [];
  const filtered = Object.values(filters).some(Boolean);
  const loading = bookings.status === 'loading' || (online && fetched?.key !== key && list.length === 0);
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Bookings
      </h2>
      {role === 'tutor' && <p className={`mt-1 ${muted}`}>Your subjects: {categories.join(', ')}.</p>}
      <Filters filters={typed} onChange={changeFilters} withCategory={role === 'admin'} reversed={reversed} />
      {!online && (
        <Notice tone="offline" className="mt-4">
          You are offline. Showing the bookings as they were when you last had a connection; confirming a time or
          changing a status needs the connection.
        </Notice>
      )}
      {failed && online && (
        <Notice tone="error" className="mt-4">
          {bookingMessages.fetchFailed}
        </Notice>
      )}
      <div className="mt-4" aria-busy={loading}>
        {loading ? (
          <p role="status" className={`card ${muted}`}>
            {bookingMessages.loading}
          </p>
        ) : bookings.status === 'unavailable' ? (
          <div className="card flex flex-col items-start gap-4">
            <Notice tone="error">
              {bookingMessages.fetchFailed}
              {bookings.failure === 'offline' && (
                <span className="block font-normal">
                  The bookings appear here once you have opened this page with a connection.
                </span>
              )}
            </Notice>
            <button type="button" className="btn-secondary" onClick={bookings.retry}>
              Try again
            </button>
          </div>
        ) : list.length === 0 ? (
          <p className={`card ${muted}`}>
            {filtered
              ? 'No bookings match these filters.'
              : role === 'tutor'
                ? 'No bookings in your subjects yet.'
                : 'No bookings yet.'}
          </p>
        ) : (
          <ul className="flex flex-col gap-4" aria-label="Bookings">
            {list.map((booking) => (
              <li key={booking.id} className="min-w-0">
                {/* Keyed by version: a newer copy of the booking resets the choosers to what it holds. */}
                <StaffBookingCard
                  key={booking.version}
                  booking={booking}
                  actions={actions}
                  own={role === 'tutor' && booking.student.id === userId}
                />
              </li>
            ))}
          </ul>
        )}
        {nextCursor && online && (
          <button type="button" className="btn-secondary mt-4" disabled={loadingMore} onClick={loadMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * The staff's filters: status and session dates, and for the admin the category (Uncategorized included),
 * applied as they change; a tutor's categories are theirs already.
 */
function Filters({
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

function StaffBookingCard({
  booking,
  actions,
  own,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  own: boolean;
}) {
  const nameId = useId();
  const [slot, setSlot] = useState(booking.confirmedSlot ?? '');
  const [status, setStatus] = useState<BookingStatus>(booking.status);
  const [busy, setBusy] = useState(false);
  const noSlot = booking.slots.length === 0;
  // The server refuses to confirm a cancelled or completed session (409): the card says so before a click.
  const confirmable = booking.status === 'Pending' || booking.status === 'Confirmed';

  async function run(action: () => Promise<boolean>) {
    setBusy(true);
    try {
      // Refused (offline, a conflict): the choosers show what is stored again, not the choice that did not apply.
      if (!(await action())) {
        setSlot(booking.confirmedSlot ?? '');
        setStatus(booking.status);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <article aria-labelledby={nameId} className="card min-w-0">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={nameId} className="text-lg font-semibold">
          {booking.moduleName}
        </h3>
        <StatusLabel status={booking.status} />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Booking <span className="font-mono">{booking.paymentReference}</span>
      </p>
      <BookingFacts booking={booking} forStaff />
      <LateCancellation booking={booking} />
      <div className="mt-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">Concepts</p>
        <p className="whitespace-pre-line break-words">{booking.concepts}</p>
      </div>
      {own ? (
        <Notice tone="info" className="mt-4">
          {bookingMessages.ownBooking}
        </Notice>
      ) : (
        <div className="mt-4 grid items-start gap-4 md:grid-cols-2">
          <div>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <SelectField
                label="Time slot"
                className="grow"
                value={slot}
                disabled={noSlot || busy || !confirmable}
                onChange={(e) => setSlot(e.target.value)}
              >
                <option value="">{noSlot ? 'No time requested' : 'Choose a time'}</option>
                {booking.slots.map((s) => (
                  <option key={s} value={s}>
                    {s} SAST
                  </option>
                ))}
              </SelectField>
              <button
                type="button"
                className="btn-primary whitespace-nowrap sm:min-w-36"
                disabled={busy || !confirmable}
                aria-describedby={nameId}
                onClick={() => void run(() => actions.confirmSlot(booking, slot))}
              >
                Confirm
              </button>
            </div>
            {!confirmable && (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{bookingMessages.cannotConfirm}</p>
            )}
          </div>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <SelectField
              label="Status"
              className="grow"
              value={status}
              disabled={busy}
              onChange={(e) => setStatus(e.target.value as BookingStatus)}
            >
              {bookingStatuses.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </SelectField>
            <button
              type="button"
              className="btn-secondary whitespace-nowrap sm:min-w-36"
              disabled={busy || status === booking.status}
              aria-describedby={nameId}
              onClick={() => void run(() => actions.setStatus(booking, status))}
            >
              Update status
            </button>
          </div>
        </div>
      )}
      <BookingHistory history={booking.history} />
    </article>
  );
}
