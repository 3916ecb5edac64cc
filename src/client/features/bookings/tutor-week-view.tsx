import { useId } from 'react';
import type { Booking } from '../../../common/bookings.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import { formatSlots } from './booking-parts.tsx';
import { tutorWeek, sessionEnd, type WeekDay } from './tutor-week.ts';

const muted = 'text-sm text-slate-600 dark:text-slate-400';
const item = 'block rounded-lg px-2 py-1.5 -mx-2 hover:bg-slate-100 dark:hover:bg-slate-800';

/** "Today", "Tomorrow", or the weekday: how a tutor names the days of their week. */
function dayName(day: WeekDay, index: number): string {
  if (index === 0) return 'Today';
  if (index === 1) return 'Tomorrow';
  return formatSastDate(day.date).slice(0, 3);
}

/**
 * A tutor's week at a glance (issue 36): the next seven days, each with their confirmed sessions and the
 * requests waiting in their subjects, each a link to its card below. From the bookings on the device, so it
 * reads offline too; a day with nothing says so in one line, so that a phone shows the week on a screen or two.
 * `bookings`: the tutor's bookings, read (the dashboard shows the week once they are, so that it does not grow
 * under the tutor's eyes and move what is below it).
 */
export function TutorWeekView({ tutorId, bookings }: { tutorId: string; bookings: readonly Booking[] }) {
  const headingId = useId();
  if (!tutorId) return null;
  const week = tutorWeek(bookings, { tutorId, today: sastDate(new Date()) });
  const sessions = week.reduce((sum, day) => sum + day.sessions.length, 0);
  const requests = week.reduce((sum, day) => sum + day.requests.length, 0);
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Your week
      </h2>
      <p className={`mt-1 ${muted}`} aria-live="polite">
        {`${sessions === 1 ? '1 session' : `${sessions} sessions`} and ${requests === 1 ? '1 request' : `${requests} requests`} waiting in the next seven days. Times are SAST.`}
      </p>
      <ol className="mt-3 grid grid-cols-1 items-start gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {week.map((day, index) => (
          <li key={day.date} className="card min-w-0 p-4">
            <h3 className="font-semibold">
              {dayName(day, index)}{' '}
              <span className="font-normal text-slate-600 dark:text-slate-400">
                {formatSastDate(day.date).slice(5, -5)}
              </span>
            </h3>
            {day.sessions.length === 0 && day.requests.length === 0 ? (
              <p className={`mt-1 ${muted}`}>Nothing booked.</p>
            ) : (
              <ul className="mt-1 flex flex-col">
                {day.sessions.map((b) => (
                  <li key={b.id}>
                    <SessionLink booking={b} />
                  </li>
                ))}
                {day.requests.map((b) => (
                  <li key={b.id}>
                    <RequestLink booking={b} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function SessionLink({ booking }: { booking: Booking }) {
  const start = booking.confirmedSlot ?? '';
  return (
    <a href={`#booking-${booking.id}`} className={item}>
      <span className="font-semibold tabular-nums">
        {start}–{sessionEnd(start, booking.hours)}
      </span>{' '}
      <span className="break-words">{booking.moduleName}</span>
      <span className={`block ${muted}`}>{booking.student.name}</span>
    </a>
  );
}

function RequestLink({ booking }: { booking: Booking }) {
  return (
    <a href={`#booking-${booking.id}`} className={item}>
      <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
        Request
      </span>{' '}
      <span className="break-words">{booking.moduleName}</span>
      <span className={`block ${muted}`}>
        {booking.student.name}: {formatSlots(booking.slots)}
      </span>
    </a>
  );
}
