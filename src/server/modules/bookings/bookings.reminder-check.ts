import { bookingLimits } from '../../../common/bookings.ts';
import { reminderGraceMinutes, type ReminderProblem } from '../../../common/reminder-check.ts';
import { formatSastDateTime } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import type { Uses } from '../../deps.ts';
import { managesBooking, requireBookingStaff } from './bookings.access.ts';
import { reminderKey } from './bookings.emails.ts';
import { studentPath } from './bookings.notices.ts';
import type { BookingRecord } from './bookings.storage.ts';

const hourMs = 3_600_000;
const channelNames = { push: 'Push', whatsapp: 'WhatsApp' } as const;

/**
 * The staff's sessions of the next `reminderHours` whose reminder did not reach the student (issue 38 §4): a
 * reminder that never fails silently. Read when a dashboard opens, so a tutor or the admin can call the student
 * before the session. A tutor sees their categories' sessions, the admin all.
 *
 * A reminder reached the student unless its e-mail failed for good and every push or WhatsApp delivery of the
 * student's reminder notice failed or was gone (or there was none). A session confirmed inside the window had its
 * confirmation for a reminder, and no reminder e-mail: it is not checked.
 */
export async function findReminderProblems(
  deps: Uses<'bookings' | 'outbox' | 'notices' | 'noticeDeliveries', 'clock'>,
  me: Me | undefined,
): Promise<{ problems: ReminderProblem[] }> {
  const staff = requireBookingStaff(me);
  const now = deps.clock.now();
  const sessions = (
    await deps.repos.bookings.findConfirmedStarting({
      after: now.toISOString(),
      until: new Date(now.getTime() + bookingLimits.reminderHours * hourMs).toISOString(),
      limit: 1000,
    })
  ).filter((row) => managesBooking(staff, row));

  const late = sessions.filter(
    (row) =>
      row.reminderSentAt === null &&
      Date.parse(row.startsAt) - now.getTime() < (bookingLimits.reminderHours * 60 - reminderGraceMinutes) * 60_000,
  );
  const reminded = sessions.filter((row) => row.reminderSentAt !== null);
  const emails = await deps.repos.outbox.statusesOf(reminded.map(reminderKeyOf));
  const undelivered: { row: BookingRecord; details: string[] }[] = [];
  for (const row of reminded) {
    const email = emails.get(reminderKeyOf(row));
    if (email?.status !== 'failed') continue;
    const others = await otherChannels(deps, row);
    if (others.reached) continue;
    undelivered.push({ row, details: [`E-mail: ${email.lastError ?? 'failed'}`, ...others.details] });
  }

  const problems: ReminderProblem[] = [
    ...late.map((row) => {
      const due = new Date(Date.parse(row.startsAt) - bookingLimits.reminderHours * hourMs).toISOString();
      return problem(row, 'late', [`It was due ${formatSastDateTime(due)}.`]);
    }),
    ...undelivered.map(({ row, details }) => problem(row, 'undelivered', details)),
  ];
  problems.sort((a, b) => `${a.date}T${a.slot}`.localeCompare(`${b.date}T${b.slot}`));
  return { problems };
}

const reminderKeyOf = (row: BookingRecord) => reminderKey(row.id, row.date, row.confirmedSlot!);

/** Whether the student's reminder notice went by push or WhatsApp, or may still (a delivery pending). */
async function otherChannels(
  deps: Uses<'notices' | 'noticeDeliveries'>,
  row: BookingRecord,
): Promise<{ reached: boolean; details: string[] }> {
  if (row.student.id === null) return { reached: false, details: [] };
  const path = studentPath(row);
  const notices = (await deps.repos.notices.listSince(row.student.id, row.reminderSentAt!)).filter(
    (n) => n.kind === 'booking-reminder' && n.path === path,
  );
  const deliveries = await deps.repos.noticeDeliveries.ofNotices(notices.map((n) => n.id));
  if (deliveries.some((d) => d.status === 'sent' || d.status === 'pending')) return { reached: true, details: [] };
  if (deliveries.length === 0) return { reached: false, details: ['No push or WhatsApp chosen.'] };
  return {
    reached: false,
    details: deliveries.map((d) => `${channelNames[d.channel]}: ${d.lastError ?? d.status}`),
  };
}

const problem = (row: BookingRecord, reason: ReminderProblem['reason'], details: string[]): ReminderProblem => ({
  bookingId: row.id,
  moduleName: row.moduleName,
  studentName: row.student.name,
  date: row.date,
  slot: row.confirmedSlot!,
  reason,
  details,
});
