import type { Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { dashboardPathByRole, type Role } from '../../../common/roles.ts';
import { formatSastDate, formatSastSession, formatSastSlot } from '../../../common/sast.ts';
import { formatMonth, type PackageRecord } from '../../../common/packages.ts';
import type { NewNotice } from '../../notices/notices.storage.ts';

/**
 * The bookings' notices (issue 38 §1): the short line each change leaves in a user's notifications list and sends
 * through the channels they chose, beside its e-mail (which carries every detail). Each names the session as the
 * student knows it (the module, the time in SAST) and opens the dashboard where it is.
 */

type Person = { id: string | null; role?: Role };
/** Where the student's notices of a booking lead (the reminder check finds the reminder's by it). */
export const studentPath = (b: Pick<Booking, 'id'>) => `/student-dashboard#booking-${b.id}`;
const staffPath = (b: Booking, role: Role) => `${dashboardPathByRole[role]}#booking-${b.id}`;
const when = (b: Booking, slot = b.confirmedSlot) => (slot ? formatSastSlot(b.date, slot) : formatSastDate(b.date));
/** The session's time as a WhatsApp template says it: `Tue, 08 Dec 2026, 14:00–15:00 SAST`. */
const session = (b: Booking, slot = b.confirmedSlot) =>
  slot ? formatSastSession(b.date, slot, b.hours) : `${formatSastDate(b.date)} (SAST)`;

/** For those of `people` who have an account (an imported booking's student may not). */
const toEach = <P extends Person>(people: readonly P[], make: (p: P & { id: string }) => NewNotice): NewNotice[] =>
  people.filter((p): p is P & { id: string } => p.id !== null).map(make);

export const requestNotices = (b: Booking, staff: readonly { id: string; role: Role }[]): NewNotice[] =>
  toEach(staff, (p) => ({
    userId: p.id,
    kind: 'booking-request',
    title: `New booking request: ${b.moduleName}`,
    body: `${b.student.name} asked for a session on ${formatSastDate(b.date)}. Confirm one of the times.`,
    path: staffPath(b, p.role),
    params: {
      student: b.student.name,
      module: b.moduleName,
      times: `${formatSastDate(b.date)}, ${b.slots.join(', ')} SAST`,
    },
  }));

export const confirmedNotices = (b: Booking, slot: string): NewNotice[] =>
  toEach([b.student], (p) => ({
    userId: p.id,
    kind: 'booking-confirmed',
    title: `Session confirmed: ${b.moduleName}`,
    body: `${when(b, slot)}${b.tutor ? ` with ${b.tutor.name}` : ''}. ${formatRand(b.totalCents)}, payment reference ${b.paymentReference}.`,
    path: studentPath(b),
    params: {
      module: b.moduleName,
      time: session(b, slot),
      amount: formatRand(b.totalCents),
      reference: b.paymentReference,
    },
  }));

export const timeChangedNotices = (b: Booking, slot: string): NewNotice[] =>
  toEach([b.student], (p) => ({
    userId: p.id,
    kind: 'booking-time-changed',
    title: `New time: ${b.moduleName}`,
    body: `Your session is now ${when(b, slot)}.`,
    path: studentPath(b),
    params: { module: b.moduleName, reference: b.paymentReference, time: session(b, slot) },
  }));

/** To the student, when staff cancelled; to staff, when the student did. */
export const cancelledNotices = (
  b: Booking,
  by: 'staff' | 'student',
  staff: readonly { id: string; role: Role }[] = [],
): NewNotice[] =>
  by === 'staff'
    ? toEach([b.student], (p) => ({
        userId: p.id,
        kind: 'booking-cancelled',
        title: `Session cancelled: ${b.moduleName}`,
        body: `Your session of ${when(b)} was cancelled.`,
        path: studentPath(b),
        params: { module: b.moduleName, time: session(b), reference: b.paymentReference },
      }))
    : toEach(staff, (p) => ({
        userId: p.id,
        kind: 'booking-cancelled',
        title: `Cancelled by ${b.student.name}: ${b.moduleName}`,
        body: `The session of ${when(b)} was cancelled${b.lateCancellation ? ', late: the fee applies' : ''}.`,
        path: staffPath(b, p.role),
        params: { module: b.moduleName, time: session(b), reference: b.paymentReference },
      }));

/** The reminder, to the student and to the session's tutor (sent once: the reminder's claim). */
export const reminderNotices = (b: Booking): NewNotice[] => [
  ...toEach([b.student], (p) => ({
    userId: p.id,
    kind: 'booking-reminder' as const,
    title: `Reminder: ${b.moduleName}`,
    body: `Your session is ${when(b)}${b.tutor ? ` with ${b.tutor.name}` : ''}.`,
    path: studentPath(b),
    params: { module: b.moduleName, time: session(b), reference: b.paymentReference },
  })),
  ...toEach(b.tutor ? [{ ...b.tutor, role: 'tutor' as const }] : [], (p) => ({
    userId: p.id,
    kind: 'booking-reminder' as const,
    title: `Reminder: ${b.moduleName} with ${b.student.name}`,
    body: `The session is ${when(b)}.`,
    path: staffPath(b, 'tutor'),
    params: { module: b.moduleName, time: session(b), reference: b.paymentReference },
  })),
];

/** A monthly package's payment, to its student (a refund or a waiver says nothing). */
export const packagePaymentNotices = (pkg: PackageRecord, amountCents: number): NewNotice[] =>
  toEach([pkg.student], (p) => ({
    userId: p.id,
    kind: 'payment-recorded',
    title: `Payment recorded: ${formatRand(amountCents)}`,
    body: `For your package ${pkg.name}, ${formatMonth(pkg.month)} (reference ${pkg.paymentReference}). Your receipt is on your dashboard.`,
    path: `/student-dashboard#package-${pkg.id}`,
    params: {
      amount: formatRand(amountCents),
      what: `${pkg.name}, ${formatMonth(pkg.month)}`,
      reference: pkg.paymentReference,
    },
  }));

export const paymentNotices = (b: Booking, amountCents: number): NewNotice[] =>
  toEach([b.student], (p) => ({
    userId: p.id,
    kind: 'payment-recorded',
    title: `Payment recorded: ${formatRand(amountCents)}`,
    body: `For ${b.moduleName}, ${when(b)} (reference ${b.paymentReference}). Your receipt is on your dashboard.`,
    path: studentPath(b),
    params: {
      amount: formatRand(amountCents),
      what: `${b.moduleName}, ${when(b)}`,
      reference: b.paymentReference,
    },
  }));
