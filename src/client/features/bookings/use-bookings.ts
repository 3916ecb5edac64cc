import { useNavigate } from 'react-router-dom';
import { bookingMessages, lateFeeCents, type Booking, type BookingStatus } from '../../../common/bookings.ts';
import { bookingDue, moneyPartCents, paymentMessages } from '../../../common/payments.ts';
import { formatSastSlot } from '../../../common/sast.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { ApiError, isOffline, isSessionEnded, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { discardItem, engine, mergeRows, refreshSource, type OutboxItem } from '../../offline/engine.ts';
import { useLocalData, type LocalData } from '../../offline/hooks.ts';
import { byNextSessionFirst, cancelIsLate, sessionStart } from './booking-rules.ts';
import type { BookingFilters, RecordPaymentRequest } from './bookings-api.ts';
import { bookingsApi } from './bookings-api.ts';
import { bookingDraftsTable, bookingsSource, bookingsTable, type BookingRequestPayload } from './bookings.sync.ts';
import { storeChosenModule } from './chosen-module.ts';
import { byCodeUnits } from '../../../common/locale.ts';

export const offlineText = 'You are offline. Connect to the internet to change a booking.';

/** Newest session first, as the server pages them; the latest request first on the same day. */
const byNewestSession = (a: Booking, b: Booking) =>
  byCodeUnits(b.date, a.date) || byCodeUnits(b.createdAt, a.createdAt);

/**
 * The student's own bookings from IndexedDB (readable offline), refreshed when the page opens: the next session
 * first, then the ones still to come, then the past ones.
 */
export function useMyBookings(userId: string): LocalData<Booking[]> {
  return useLocalData(
    async () =>
      (await bookingsTable.toArray()).filter((b) => b.student.id === userId).sort(byNextSessionFirst(new Date())),
    [userId],
    [bookingsSource],
  );
}

export const matchesFilters = (filters: BookingFilters) => (b: Booking) =>
  (!filters.status || b.status === filters.status) &&
  (!filters.category || b.moduleCategory === filters.category) &&
  (!filters.from || b.date >= filters.from) &&
  (!filters.to || b.date <= filters.to);

/**
 * The bookings staff see, from IndexedDB: a tutor's categories (`categories`), everything for the admin
 * (undefined), narrowed by the filters. The server sends only what the user may see; the categories narrow
 * what a device still holds from before a change of assignment.
 */
export function useStaffBookings(
  filters: BookingFilters,
  categories: readonly string[] | undefined,
): LocalData<Booking[]> {
  const key = JSON.stringify([filters, categories]);
  return useLocalData(
    async () => {
      const [f, cats] = JSON.parse(key) as [BookingFilters, string[] | undefined];
      const rows = await bookingsTable.toArray();
      return rows
        .filter((b) => (!cats || cats.includes(b.moduleCategory)) && matchesFilters(f)(b))
        .sort(byNewestSession);
    },
    [key],
    [bookingsSource],
  );
}

/**
 * How many requests wait for a time in the staff member's subjects (a tutor's categories, or all for the admin),
 * not counting a tutor's own: the number on the app icon (issue 38 §1), from the device, so offline too.
 */
export function useWaitingCount(categories: readonly string[] | undefined, userId: string): number {
  const key = JSON.stringify(categories ?? null);
  const waiting = useLocalData(
    async () => {
      const cats = JSON.parse(key) as string[] | null;
      const rows = await bookingsTable.toArray();
      return rows.filter(
        (b) => b.status === 'Pending' && (!cats || cats.includes(b.moduleCategory)) && b.student.id !== userId,
      ).length;
    },
    [key, userId],
    [bookingsSource],
  );
  return waiting.data ?? 0;
}

/** Rows fetched by a page (a filtered list, the next page, a changed booking), merged as the source's are. */
export async function storeBookings(bookings: Booking[], fetchedAt = engine.generation()) {
  await mergeRows({ put: { bookings } }, fetchedAt);
}

const isConflict = (error: unknown) => error instanceof ApiError && error.code === 'bookings.changed';

/**
 * What a failed staff change says: a conflict says someone changed the booking meanwhile; another refusal
 * gives the spec's text and the server's reason; offline says so.
 */
function staffFailure(error: unknown, failed: string): string {
  if (isConflict(error)) return bookingMessages.changedMeanwhile;
  if (error instanceof ApiError && error.status < 500 && error.code !== 'unknown') return `${failed} ${error.message}`;
  return errorText(error, failed, { offline: offlineText });
}

/**
 * Confirming a time and setting a status (spec §8 Tutor and Admin). They need the connection: offline they say
 * so and change nothing. Each sends the version the card shows; if the booking changed since, the server
 * answers 409 and the list refreshes.
 */
export function useStaffActions(role: 'tutor' | 'admin') {
  const confirm = useConfirm();
  async function run(action: () => Promise<Booking>, failed: string): Promise<Booking | undefined> {
    if (isOffline()) {
      toast.error(offlineText);
      return undefined;
    }
    const generation = engine.generation();
    try {
      const booking = await action();
      await storeBookings([booking], generation);
      return booking;
    } catch (error) {
      if (!isSessionEnded(error))
        toast.error(error instanceof NetworkError ? offlineText : staffFailure(error, failed));
      if (isConflict(error)) void refreshSource(bookingsSource);
      return undefined;
    }
  }

  return {
    /** `tutorId`: the admin's choice of tutor, when it is not the booking's. */
    async confirmSlot(booking: Booking, slot: string, tutorId?: string, series?: boolean): Promise<boolean> {
      if (!slot) {
        toast.error(bookingMessages.selectSlot);
        return false;
      }
      const done = await run(
        () => bookingsApi.confirm(booking.id, slot, booking.version, tutorId, series),
        bookingMessages.confirmFailed,
      );
      // The later weeks confirmed with it come with the next read.
      if (done && series) void refreshSource(bookingsSource);
      if (done)
        toast.success(
          role === 'admin'
            ? bookingMessages.timeConfirmedAdmin(slot)
            : bookingMessages.timeConfirmedTutor(booking.paymentReference, slot),
        );
      return done !== undefined;
    },
    /** The time the session had before its student asked to move it (issue 36). */
    async keepTime(booking: Booking): Promise<boolean> {
      const done = await run(() => bookingsApi.keepTime(booking.id, booking.version), bookingMessages.moveFailed);
      if (done) toast.success(`Kept ${formatSastSlot(done.date, done.confirmedSlot ?? '')}.`);
      return done !== undefined;
    },
    /** A confirmed session to a new date and time; the student is e-mailed. */
    async move(booking: Booking, date: string, slot: string): Promise<boolean> {
      const done = await run(
        () => bookingsApi.move(booking.id, date, slot, booking.version),
        bookingMessages.moveFailed,
      );
      if (done) toast.success(`Moved to ${formatSastSlot(date, slot)}. The student has been told.`);
      return done !== undefined;
    },
    /** A reminder of what is owing on the booking, e-mailed to its student (issue 37): one a day however often pressed. */
    async remindPayment(booking: Booking): Promise<boolean> {
      if (isOffline()) {
        toast.error(offlineText);
        return false;
      }
      try {
        await bookingsApi.remindPayment(booking.id, booking.version);
        toast.success(paymentMessages.reminderSent);
        return true;
      } catch (error) {
        if (!isSessionEnded(error))
          toast.error(
            error instanceof NetworkError ? offlineText : staffFailure(error, paymentMessages.reminderFailed),
          );
        return false;
      }
    },
    /** The admin's record of money against the booking (issue 37); the id is made once per form, so a retry repeats it. */
    async recordPayment(booking: Booking, request: RecordPaymentRequest): Promise<boolean> {
      const done = await run(() => bookingsApi.recordPayment(booking.id, request), paymentMessages.recordFailed);
      if (done) toast.success(paymentMessages.recorded(request.kind, request.amountCents));
      return done !== undefined;
    },
    async setStatus(booking: Booking, status: BookingStatus): Promise<boolean> {
      // Offline, nothing is asked: it could not be sent anyway.
      if (isOffline()) {
        toast.error(offlineText);
        return false;
      }
      // Completed before the session has started: said back first, as the student is e-mailed that it is over.
      const start = sessionStart(booking);
      const beforeStart = status === 'Completed' && start !== undefined && start.getTime() > Date.now();
      if (
        beforeStart &&
        !(await confirm({
          title: 'Session not started yet',
          message: bookingMessages.notStartedYet(
            formatSastSlot(booking.date, booking.confirmedSlot ?? [...booking.slots].sort()[0]!),
          ),
          confirmLabel: 'Mark as completed',
          cancelLabel: 'Keep status',
        }))
      )
        return false;
      const done = await run(
        () => bookingsApi.setStatus(booking.id, status, booking.version, beforeStart || undefined),
        bookingMessages.statusFailed,
      );
      if (done) toast.success(`Status set to ${status}.`);
      return done !== undefined;
    },
  };
}

/** The student's actions on their bookings: cancel (online), and for a refused request, edit it or discard it. */
export function useStudentActions() {
  const confirm = useConfirm();
  const navigate = useNavigate();
  return {
    async cancel(booking: Booking) {
      if (isOffline()) return void toast.error(offlineText);
      const late = cancelIsLate(booking, new Date());
      const ok = await confirm({
        title: 'Cancel booking',
        message: late
          ? bookingMessages.cancelLateConfirm(lateFeeCents(moneyPartCents(booking)))
          : bookingMessages.cancelConfirm,
        confirmLabel: 'Cancel booking',
        cancelLabel: 'Keep booking',
        destructive: true,
      });
      if (!ok) return;
      const generation = engine.generation();
      try {
        const cancelled = await bookingsApi.cancel(booking.id);
        await storeBookings([cancelled], generation);
        toast.success(
          cancelled.lateCancellation
            ? bookingMessages.cancelledLate(bookingDue(cancelled).dueCents)
            : bookingMessages.cancelled,
        );
      } catch (error) {
        if (!isSessionEnded(error))
          toast.error(errorText(error, bookingMessages.cancelFailed, { offline: offlineText }));
        void refreshSource(bookingsSource);
      }
    },
    /** Back to the booking page with the refused request as the draft, to put right and send again. */
    async edit(item: OutboxItem) {
      const p = item.payload as BookingRequestPayload;
      storeChosenModule({ name: p.module });
      await bookingDraftsTable.put({
        id: 'current',
        values: {
          date: p.date,
          slots: [p.slots[0] ?? '', p.slots[1] ?? '', p.slots[2] ?? ''],
          hours: String(p.hours),
          concepts: p.concepts,
        },
        requestId: p.id,
        updatedAt: new Date().toISOString(),
      });
      await navigate('/booking');
    },
    async discard(item: OutboxItem) {
      const ok = await confirm({
        title: 'Discard',
        message: 'Discard this booking request? What you typed is removed from this device.',
        confirmLabel: 'Discard',
        destructive: true,
      });
      if (ok) await discardItem(item.seq);
    },
  };
}
