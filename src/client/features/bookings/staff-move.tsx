import { CalendarRange } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { bookingMessages, type Booking } from '../../../common/bookings.ts';
import { isCalendarDate, isTimeOfDay, formatSastSlot, sastDate } from '../../../common/sast.ts';
import { FormField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { TimeInput } from '../../components/time-input.tsx';
import type { useStaffActions } from './use-bookings.ts';

/**
 * Moving a session, the staff's side (issue 36): a student's request to move a confirmed session says from when,
 * with "Keep the old time"; a confirmed session can be moved to a new date and time, the student e-mailed. Both
 * need the connection, as every staff change does.
 */
export function StaffMove({
  booking,
  actions,
  nameId,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  nameId: string;
}) {
  // The last change of the session itself: money recorded since (issue 37) does not hide the student's ask.
  const last = booking.history.findLast((change) => !change.payment);
  const asked = booking.status === 'Pending' && last?.move?.from.slot && last.by.id === booking.student.id;
  if (asked && last.move?.from.slot)
    return (
      <div className="mt-4 flex flex-col items-start gap-3">
        <Notice tone="info">
          {booking.student.name} asked to move this session from{' '}
          {formatSastSlot(last.move.from.date, last.move.from.slot)}. Confirm one of the new times, or keep the old one.
        </Notice>
        <button
          type="button"
          className="btn-secondary"
          aria-describedby={nameId}
          onClick={() => void actions.keepTime(booking)}
        >
          Keep the old time
        </button>
      </div>
    );
  return booking.status === 'Confirmed' ? <MoveConfirmed booking={booking} actions={actions} nameId={nameId} /> : null;
}

function MoveConfirmed({
  booking,
  actions,
  nameId,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  nameId: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(booking.date);
  const [slot, setSlot] = useState(booking.confirmedSlot ?? '');
  const [error, setError] = useState<{ date?: string; slot?: string }>({});
  const [sending, setSending] = useState(false);

  // The form starts from the booking as it is when opened: a newer copy may have come since this card was drawn.
  function start() {
    setDate(booking.date);
    setSlot(booking.confirmedSlot ?? '');
    setError({});
    setOpen(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = {
      ...(isCalendarDate(date) ? {} : { date: bookingMessages.dateInvalid }),
      ...(isTimeOfDay(slot) ? {} : { slot: bookingMessages.slotInvalid }),
    };
    setError(problems);
    if (Object.keys(problems).length > 0) return;
    setSending(true);
    const moved = await actions.move(booking, date, slot);
    setSending(false);
    if (moved) setOpen(false);
  }

  if (!open)
    return (
      <button type="button" className="btn-secondary mt-4" aria-describedby={nameId} onClick={start}>
        <CalendarRange aria-hidden size={18} />
        Move session
      </button>
    );
  return (
    <form
      noValidate
      aria-labelledby={`${id}-title`}
      className="mt-4 flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      onSubmit={(e) => void submit(e)}
    >
      <h4 id={`${id}-title`} className="font-semibold">
        Move to a new time
      </h4>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FormField
          label="New date"
          name="date"
          type="date"
          min={sastDate(new Date())}
          value={date}
          onChange={(e) => setDate(e.target.value)}
          error={error.date}
        />
        <div>
          <label htmlFor={`${id}-time`} className="mb-1 block text-sm font-medium">
            New time (SAST)
          </label>
          <TimeInput
            id={`${id}-time`}
            value={slot}
            aria-invalid={error.slot ? true : undefined}
            aria-describedby={error.slot ? `${id}-time-error` : undefined}
            onChange={setSlot}
          />
          {error.slot && (
            <p id={`${id}-time-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
              {error.slot}
            </p>
          )}
        </div>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={sending}>
          Move and tell the student
        </button>
        <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
          Keep as it is
        </button>
      </div>
    </form>
  );
}
