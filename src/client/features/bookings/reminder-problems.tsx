import { BellOff } from 'lucide-react';
import { useId } from 'react';
import type { ReminderProblem } from '../../../common/reminder-check.ts';
import { formatSastSlot } from '../../../common/sast.ts';
import { bookingsApi } from './bookings-api.ts';
import { useOnlineRead } from './use-online-read.ts';

const reasons: Record<ReminderProblem['reason'], string> = {
  late: 'The reminder has not gone out.',
  undelivered: 'The reminder reached the student by no channel.',
};

/**
 * The sessions of the next day whose reminder did not reach the student (issue 38 §4), at the top of the staff's
 * dashboards: a reminder never fails silently, and a tutor or the admin can still call the student. Read from the
 * server when online (it is the deliveries' state there); nothing shows when every reminder went.
 */
export function ReminderProblems() {
  const headingId = useId();
  const { data } = useOnlineRead('reminder-problems', (signal) => bookingsApi.reminderProblems(signal));
  const problems = data?.problems ?? [];
  if (problems.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
    >
      <h2 id={headingId} className="flex items-center gap-2 font-semibold">
        <BellOff aria-hidden size={18} className="shrink-0" />
        Reminders that did not reach the student
      </h2>
      <ul className="mt-2 space-y-2">
        {problems.map((p) => (
          <li key={p.bookingId}>
            <a href={`#booking-${p.bookingId}`} className="font-medium underline underline-offset-2">
              {p.moduleName} with {p.studentName}, {formatSastSlot(p.date, p.slot)}
            </a>
            <span className="block">{reasons[p.reason]} Let them know another way.</span>
            <span className="block text-red-800 dark:text-red-200">{p.details.join(' · ')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
