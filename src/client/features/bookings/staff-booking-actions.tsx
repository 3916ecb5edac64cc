import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { bookingMessages, bookingStatuses, type Booking, type BookingStatus } from '../../../common/bookings.ts';
import { SelectField } from '../../components/form-field.tsx';
import {
  busyFor,
  defaultTutorId,
  outsideHours,
  outsideHoursText,
  slotClash,
  slotOption,
  type SessionTutor,
  type SlotClash,
} from './staff-confirm-checks.ts';
import type { ConfirmData } from './use-confirm-data.ts';
import type { useStaffActions } from './use-bookings.ts';

/** Who confirms: a tutor for themselves, the admin for a tutor they choose. */
export interface Confirmer {
  role: 'tutor' | 'admin';
  userId: string;
  data: ConfirmData;
}

interface SlotChecks {
  /** The tutor the time would be confirmed for, if known. */
  tutor: SessionTutor | undefined;
  clashes: Map<string, SlotClash | undefined>;
  outside: string[];
  /** "18:00 is outside your working hours.", or nothing. */
  outsideText: string | undefined;
}

/**
 * The requested times checked against the tutor's other sessions (the viewing tutor's, or the one the admin
 * chose: `tutorId`) and against working hours (the viewing tutor's, or any of the category's for the admin).
 */
function checkSlots(booking: Booking, confirmer: Confirmer, tutorId: string): SlotChecks {
  const tutors = confirmer.data.tutorsOf(booking.moduleCategory);
  const own = confirmer.role === 'tutor';
  const id = own ? confirmer.userId : tutorId;
  const known = tutors.find((t) => t.tutorId === id);
  const name = known?.name ?? (booking.tutor?.id === id ? booking.tutor.name : undefined);
  const tutor: SessionTutor | undefined =
    id && (own || name)
      ? { id, whose: own ? 'your' : `${name}’s`, bufferMinutes: known?.availability.bufferMinutes ?? 0 }
      : undefined;
  const busy = tutor
    ? busyFor(tutor.id, booking, confirmer.data.sessions, confirmer.data.listedOf(booking.moduleCategory))
    : [];
  const clashes = new Map(booking.slots.map((slot) => [slot, tutor && slotClash(booking, slot, tutor, busy)]));
  const outside = outsideHours(booking, own ? (known ? [known.availability] : []) : tutors.map((t) => t.availability));
  const outsideText = outside.length > 0 ? outsideHoursText(outside, own ? 'your' : 'the tutors’') : undefined;
  return { tutor, clashes, outside, outsideText };
}

/**
 * A staff card's two changes: confirm one of the requested times (the admin for a tutor they choose), and set the
 * status. Each needs the connection; refused, the choosers go back to what the booking holds. Before a confirm,
 * the card says what it knows: a clash with another session of the tutor, times outside working hours; the
 * server decides. `nameId`: the card's heading, which the buttons name.
 */
export function StaffBookingActions({
  booking,
  actions,
  nameId,
  confirmer,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  nameId: string;
  confirmer: Confirmer;
}) {
  const [slot, setSlot] = useState(booking.confirmedSlot ?? '');
  // Untouched, the admin's tutor follows the category's tutors as they reach the device.
  const [chosenTutor, setChosenTutor] = useState<string>();
  const [status, setStatus] = useState<BookingStatus>(booking.status);
  const [busy, setBusy] = useState(false);
  // A weekly series' pending session: its later weeks at the same time too, unless the staff member says not.
  const laterWeeks =
    booking.series && booking.status === 'Pending' ? booking.series.count - booking.series.index - 1 : 0;
  const [wholeSeries, setWholeSeries] = useState(true);
  const noSlot = booking.slots.length === 0;
  // The server refuses to confirm a cancelled or completed session (409): the card says so before a click.
  const confirmable = booking.status === 'Pending' || booking.status === 'Confirmed';
  const tutors = confirmer.data.tutorsOf(booking.moduleCategory);
  const tutorId = chosenTutor ?? defaultTutorId(booking, tutors);
  const tutorChoices = tutorOptions(booking, tutors);
  const checks = checkSlots(booking, confirmer, tutorId);
  const clash = slot ? checks.clashes.get(slot) : undefined;

  async function run(action: () => Promise<boolean>) {
    setBusy(true);
    try {
      // Refused (offline, a conflict): the choosers show what is stored again, not the choice that did not apply.
      if (!(await action())) {
        setSlot(booking.confirmedSlot ?? '');
        setChosenTutor(undefined);
        setStatus(booking.status);
      }
    } finally {
      setBusy(false);
    }
  }

  // The admin names a tutor only to change it: the booking's own is kept by the server without one.
  const namedTutor = confirmer.role === 'admin' && tutorId && tutorId !== booking.tutor?.id ? tutorId : undefined;
  return (
    <div className="mt-4 grid items-start gap-4 md:grid-cols-2">
      <div>
        {/* Always there for the admin, so that the card does not grow under their eyes as the tutors arrive. */}
        {confirmer.role === 'admin' && (
          <SelectField
            label="Tutor"
            className="mb-2"
            value={tutorId}
            disabled={busy || !confirmable || tutorChoices.length === 0}
            onChange={(e) => setChosenTutor(e.target.value)}
          >
            {/* No tutor is offered once there is one: without one the server would take that one anyway. */}
            {!tutorId && (
              <option value="">
                {tutorChoices.length > 0
                  ? 'Choose a tutor'
                  : confirmer.data.tutorsRead
                    ? 'No tutor in this category yet'
                    : 'Reading the tutors…'}
              </option>
            )}
            {tutorChoices.map((t) => (
              <option key={t.tutorId} value={t.tutorId}>
                {t.name}
              </option>
            ))}
          </SelectField>
        )}
        {/* What stands in a time's way comes after its select, before Confirm (read in that order on a phone);
            on a wider screen it takes a line of its own under both. */}
        <div className="flex flex-col sm:flex-row sm:flex-wrap sm:items-end">
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
                {slotOption(s, checks.clashes.get(s), checks.outside.includes(s), checks.tutor !== undefined)}
              </option>
            ))}
          </SelectField>
          <div className="sm:order-last sm:basis-full">
            {/* Always there, so that a screen reader hears the warning as the time changes. */}
            <div role="status">
              {confirmable && clash && (
                <p className="mt-2 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
                  <TriangleAlert aria-hidden size={18} className="mt-0.5 shrink-0" />
                  {clash.message}
                </p>
              )}
            </div>
            {confirmable && checks.outsideText && (
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{checks.outsideText}</p>
            )}
          </div>
          <button
            type="button"
            className="btn-primary mt-2 whitespace-nowrap sm:mt-0 sm:ml-2 sm:min-w-36"
            disabled={busy || !confirmable}
            aria-describedby={nameId}
            onClick={() =>
              void run(() => actions.confirmSlot(booking, slot, namedTutor, laterWeeks > 0 && wholeSeries))
            }
          >
            Confirm
          </button>
        </div>
        {laterWeeks > 0 && (
          <label className="mt-2 flex min-h-11 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-5"
              checked={wholeSeries}
              disabled={busy}
              onChange={(e) => setWholeSeries(e.target.checked)}
            />
            Also the {laterWeeks === 1 ? 'next week' : `${laterWeeks} later weeks`} of this weekly series, at the same
            time
          </label>
        )}
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
  );
}

/** The category's tutors, and the booking's own if it is no longer among them (still its tutor until changed). */
function tutorOptions(booking: Booking, tutors: ReturnType<Confirmer['data']['tutorsOf']>) {
  const own = booking.tutor;
  if (!own?.id || tutors.some((t) => t.tutorId === own.id)) return tutors;
  return [{ tutorId: own.id, name: own.name }, ...tutors];
}
