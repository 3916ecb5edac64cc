import { CalendarRange } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { bookingMessages, latestBookableDate, type Booking } from '../../../common/bookings.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { isOffline } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { canCancel, canMove, checkBookingForm, earliestBookableDate, tooSoonSlots } from './booking-rules.ts';
import type { BookingFormErrors, BookingFormValues } from './booking-rules.ts';
import { rescheduleBooking } from './bookings.sync.ts';
import { DateField } from './date-field.tsx';
import { FreeTimePicker } from './free-time-picker.tsx';
import { SlotFields } from './slot-fields.tsx';
import { useLeadHours, useRescheduleHours } from './use-booking-draft.ts';

type Times = Pick<BookingFormValues, 'date' | 'slots'>;
const muted = 'text-sm text-slate-600 dark:text-slate-400';

/**
 * The student moves a session (issue 36): a new date and three times, from the tutors' free times or typed; a
 * tutor confirms one of them (or, for a confirmed session, keeps its time). Queued like a request, so it works
 * offline; the server checks again. Up to the cut-off before the session; later, the card says why and
 * cancelling stays open.
 */
export function MoveSession({ booking, nameId }: { booking: Booking; nameId: string }) {
  const cutOff = useRescheduleHours();
  const leadHours = useLeadHours();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (cutOff === undefined || !canCancel(booking)) return null;
  if (!canMove(booking, new Date(), cutOff))
    return <p className={`mt-3 ${muted}`}>{bookingMessages.moveClosed(cutOff)}</p>;
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return open && leadHours !== undefined ? (
    <MoveForm booking={booking} leadHours={leadHours} onClose={close} />
  ) : (
    <button
      ref={opener}
      type="button"
      className="btn-secondary mt-4"
      aria-describedby={nameId}
      aria-expanded={false}
      onClick={() => setOpen(true)}
    >
      <CalendarRange aria-hidden size={18} />
      Move session
    </button>
  );
}

function MoveForm({ booking, leadHours, onClose }: { booking: Booking; leadHours: number; onClose: () => void }) {
  const titleId = useId();
  const confirm = useConfirm();
  const [times, setTimes] = useState<Times>({ date: booking.date, slots: ['', '', ''] });
  const [errors, setErrors] = useState<BookingFormErrors>({});
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input')?.focus(), []);

  const set = (patch: Partial<Times>) => {
    setTimes((current) => ({ ...current, ...patch }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in patch))));
  };
  const now = new Date();
  const values: BookingFormValues = { ...times, hours: String(booking.hours), concepts: booking.concepts };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const checked = checkBookingForm(
      { id: booking.id, module: booking.moduleName, values },
      { now: new Date(), leadHours },
    );
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    if (!(await confirm({ title: 'Move session', message: bookingMessages.moveConfirm, confirmLabel: 'Ask to move' })))
      return;
    setSending(true);
    try {
      await rescheduleBooking({
        id: booking.id,
        date: checked.data.date,
        slots: checked.data.slots as [string, string, string],
        version: booking.version,
        before: booking,
      });
      toast.success(
        isOffline()
          ? 'Saved on this device: your request to move the session is sent when you are back online.'
          : 'Your request to move the session is on its way to your tutor.',
      );
      onClose();
    } catch (error) {
      // Not even saved on this device (storage full, say): the form keeps what was chosen.
      toast.error(errorText(error, bookingMessages.moveFailed));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      ref={form}
      noValidate
      aria-labelledby={titleId}
      className="mt-4 flex flex-col gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      onSubmit={(e) => void submit(e)}
    >
      <h4 id={titleId} className="font-semibold">
        Move this session
      </h4>
      <p className={muted}>
        Choose a new date and three times that suit you. Your tutor confirms one of them
        {booking.status === 'Confirmed' ? ', or keeps the time you have now' : ''}.
      </p>
      <fieldset disabled={sending} className="flex min-w-0 flex-col gap-4">
        <DateField
          min={earliestBookableDate(now, leadHours)}
          max={latestBookableDate(now)}
          leadHours={leadHours}
          value={times.date}
          onChange={(e) => set({ date: e.target.value })}
          error={errors.date}
        />
        <FreeTimePicker
          category={booking.moduleCategory}
          date={times.date}
          hours={String(booking.hours)}
          leadHours={leadHours}
          slots={times.slots}
          onDate={(date) => set({ date })}
          onSlots={(slots) => set({ slots })}
        />
        <SlotFields
          slots={times.slots}
          error={errors.slots}
          tooSoon={tooSoonSlots(values, { now, leadHours })}
          onChange={(slots) => set({ slots })}
        />
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={sending}>
          Ask to move
        </button>
        <button type="button" className="btn-secondary" onClick={onClose}>
          Keep as it is
        </button>
      </div>
    </form>
  );
}
