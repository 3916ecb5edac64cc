import { bookingLimits, bookingMessages, type Booking, type BookingSeries } from '../../../common/bookings.ts';
import { dateAfter } from '../../../common/availability.ts';
import { brand } from '../../../common/brand.ts';
import { formatRand } from '../../../common/money.ts';
import { hoursOf } from '../../../common/package-draw.ts';
import { formatMonth, packageStanding, type PackageRecord } from '../../../common/packages.ts';
import { bookingDue, bookingStanding, lateFeeReference } from '../../../common/payments.ts';
import { receiptFileName, receiptMessages, receiptNumber } from '../../../common/receipts.ts';
import { dashboardPathByRole, type Role } from '../../../common/roles.ts';
import { formatSastDate, formatSastSlot } from '../../../common/sast.ts';
import { addSessionEvent, createSastCalendar } from '../../calendar/session-event.ts';
import type { EmailAttachment, NewEmail } from '../../mail/mail.storage.ts';
import { renderEmail } from '../../mail/mail.templates.ts';

/**
 * The booking e-mails (spec §7; DESIGN "Product decisions"). Each carries every field of the booking, so a
 * tutor can act on the e-mail alone and a student has a record of what they asked for.
 */

const list = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * What the student typed, one line or several, quoted line by line: none of its lines can pass for one of
 * ours ("Payment reference: …") in the e-mail staff act on. Its other fields are one line each (validation.ts).
 */
const quoted = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/**
 * A weekly series as its sessions' e-mails say it (issue 36): how many, which weekday, from and to, the total.
 * `b` is the session the e-mail is about; the series' first is `index` weeks before it.
 */
function seriesLine(series: BookingSeries, b: Pick<Booking, 'date' | 'totalCents'>): string {
  const first = dateAfter(b.date, -7 * series.index);
  const last = dateAfter(first, 7 * (series.count - 1));
  return `${bookingMessages.series(series.count, first, last, series.count * b.totalCents)} This is session ${series.index + 1} of ${series.count}.`;
}

function details(b: Booking): string {
  return [
    `Module: ${b.moduleName}`,
    `Category: ${b.moduleCategory}`,
    `Date: ${formatSastDate(b.date)}`,
    `Preferred times: ${list(b.slots)} (SAST)`,
    ...(b.confirmedSlot ? [`Confirmed time: ${formatSastSlot(b.date, b.confirmedSlot)}`] : []),
    ...(b.tutor ? [`Tutor: ${b.tutor.name}`] : []),
    `Hours: ${b.hours}`,
    `Rate: ${formatRand(b.priceCentsPerHour)} per hour`,
    `Total: ${formatRand(b.totalCents)}${b.series ? ' per session' : ''}`,
    ...(b.series ? [seriesLine(b.series, b)] : []),
    `Concepts:\n${quoted(b.concepts)}`,
    `Student: ${b.student.name} (${b.student.email})`,
    `Payment reference: ${b.paymentReference}`,
    `Status: ${b.status}`,
  ].join('\n');
}

/**
 * Whom a booking e-mail goes to, with the values the old site's EmailJS templates had: the booking form as the
 * student filled it in (spec §7), for owners who keep their templates (docs/email.md "Through EmailJS"); and
 * the student it is about (`aboutUserId`).
 */
function addressed(
  b: Booking,
  to: { name: string; email: string },
): Pick<NewEmail, 'to' | 'toName' | 'params' | 'aboutUserId'> {
  const [timeslot1 = '', timeslot2 = '', timeslot3 = ''] = b.slots;
  return {
    to: to.email,
    toName: to.name,
    // Every booking e-mail holds the student's name, address and concepts: it goes if their account is deleted.
    ...(b.student.id ? { aboutUserId: b.student.id } : {}),
    params: {
      student_name: b.student.name,
      student_email: b.student.email,
      module_name: b.moduleName,
      date: b.date,
      timeslot1,
      timeslot2,
      timeslot3,
      hours: String(b.hours),
      concepts: b.concepts,
    },
  };
}

const dashboard = (publicUrl: string, role: Role) => `${publicUrl}${dashboardPathByRole[role]}`;

/** To each tutor of the category and each admin. */
export function newRequestEmail(
  b: Booking,
  to: { name: string; email: string; role: Role },
  publicUrl: string,
): NewEmail {
  return {
    kind: 'booking-request',
    ...addressed(b, to),
    ...renderEmail({
      subject: `New booking request: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${to.name},`,
      paragraphs: [
        `${b.student.name} asked for a session. Confirm one of the three times on your dashboard.`,
        details(b),
      ],
      action: { label: 'Open my dashboard', url: dashboard(publicUrl, to.role) },
    }),
  };
}

/**
 * To the category's tutors and the admins: the student asks to move their session to three new times; from a
 * confirmed time (`from.slot`), staff may keep that one instead.
 */
export function moveRequestedEmail(
  b: Booking,
  from: { date: string; slot: string | null },
  to: { name: string; email: string; role: Role },
  publicUrl: string,
): NewEmail {
  const was = from.slot
    ? `confirmed for ${formatSastSlot(from.date, from.slot)}`
    : `asked for ${formatSastDate(from.date)}`;
  return {
    kind: 'booking-move-requested',
    ...addressed(b, to),
    ...renderEmail({
      subject: `Session move requested: ${b.moduleName}, now ${formatSastDate(b.date)}`,
      greeting: `Hi ${to.name},`,
      paragraphs: [
        `${b.student.name} asked to move their session, ${was}. Confirm one of the three new times on your dashboard${from.slot ? ', or keep the old time' : ''}.`,
        details(b),
      ],
      action: { label: 'Open my dashboard', url: dashboard(publicUrl, to.role) },
    }),
  };
}

/** The student's receipt. */
export function receiptEmail(b: Booking, publicUrl: string): NewEmail {
  return {
    kind: 'booking-receipt',
    ...addressed(b, b.student),
    ...renderEmail({
      subject: `Booking request received: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        'Thank you: we have your booking request. A tutor will confirm one of your times, and you will then get an e-mail with the payment details and a calendar invitation.',
        details(b),
      ],
      action: { label: 'View my bookings', url: dashboard(publicUrl, 'student') },
    }),
  };
}

/** " with Musa Stats" when the booking has a tutor. */
const withTutor = (b: Booking) => (b.tutor ? ` with ${b.tutor.name}` : '');

/** The session as it goes into a calendar: wall-clock SAST times, written under TZID=Africa/Johannesburg. */
/** The session's event; with `alsoSessions` (the rest of a weekly series confirmed with it), theirs too. */
function invitation(
  b: Booking,
  slot: string,
  publicUrl: string,
  now: Date,
  alsoSessions: readonly Booking[] = [],
): EmailAttachment {
  const calendar = createSastCalendar('bookings');
  for (const session of [b, ...alsoSessions])
    addSessionEvent(calendar, {
      booking: session,
      slot,
      stamp: now,
      summary: `${brand.name}: ${session.moduleName}`,
      description: `${session.hours} hour${session.hours === 1 ? '' : 's'} of tutoring${withTutor(session)}. Amount: ${formatRand(session.totalCents)}, payment reference ${session.paymentReference}.`,
      url: dashboard(publicUrl, 'student'),
    });
  return {
    filename: 'tutorbook-session.ics',
    contentType: 'text/calendar; charset=utf-8',
    content: calendar.toString(),
  };
}

/**
 * The bank details to pay into (`PAYMENT_EFT_DETAILS`, one line each). Production cannot start without them
 * (env.ts); without them elsewhere, the student is told whom to ask rather than promised an e-mail nobody sends.
 */
const bankDetails = (eftDetails: readonly string[] | undefined) =>
  eftDetails
    ? eftDetails.join('\n')
    : `For the bank details, e-mail ${brand.email} or send a WhatsApp message to ${brand.phoneDisplay}.`;

type ConfirmedArgs = {
  publicUrl: string;
  eftDetails: readonly string[] | undefined;
  now: Date;
  /** False when the mail service carries no attachments (EmailJS): no `.ics`, and the text does not promise one. */
  withInvitation: boolean;
};

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/** What to pay for a confirmed session: its total, or what a monthly package (issue 37 §3) leaves of it. */
function paymentParagraphs(b: Booking, eftDetails: readonly string[] | undefined): string[] {
  const { owingCents, paidCents } = bookingStanding(b);
  const draw = b.package;
  const fromPackage = draw
    ? `${hoursText(draw.coveredMinutes / 60)} of it ${draw.coveredMinutes === 60 ? 'is' : 'are'} paid from your package “${draw.name}” (${hoursOf(draw.leftMinutes)} hours left).`
    : undefined;
  if (owingCents === 0) {
    const settled = paidCents > 0 ? 'It is paid: thank you.' : fromPackage && 'There is nothing more to pay.';
    const words = [fromPackage, settled].filter((part) => part !== undefined);
    return words.length > 0 ? [words.join(' ')] : [];
  }
  return [
    ...(fromPackage ? [fromPackage] : []),
    `Amount due: ${formatRand(owingCents)}. Please pay by EFT before the session, with the payment reference ${b.paymentReference}.`,
    bankDetails(eftDetails),
  ];
}

/**
 * To the student: the time, the invitation, what to pay and how. `alsoSessions`: the rest of a weekly series
 * confirmed at the same time with it, whose events the invitation holds too.
 */
export function confirmedEmail(
  b: Booking,
  slot: string,
  args: ConfirmedArgs,
  alsoSessions: readonly Booking[] = [],
): NewEmail {
  const when = formatSastSlot(b.date, slot);
  return {
    kind: 'booking-confirmed',
    ...addressed(b, b.student),
    attachments: args.withInvitation ? [invitation(b, slot, args.publicUrl, args.now, alsoSessions)] : [],
    ...renderEmail({
      subject: `Session confirmed: ${b.moduleName}, ${when}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        alsoSessions.length > 0
          ? `Your weekly sessions${withTutor(b)} are confirmed: ${alsoSessions.length + 1} sessions at ${slot} SAST, from ${formatSastDate(b.date)} to ${formatSastDate(alsoSessions.at(-1)!.date)} (${hoursText(b.hours)} each).${args.withInvitation ? ' The calendar invitation for all of them is attached.' : ''}`
          : `Your session${withTutor(b)} is confirmed for ${when} (${hoursText(b.hours)}).${args.withInvitation ? ' The calendar invitation is attached.' : ''}`,
        ...paymentParagraphs(b, args.eftDetails),
        details(b),
      ],
      action: { label: 'View my bookings', url: dashboard(args.publicUrl, 'student') },
      after: [
        `Need to cancel? Cancel at least ${bookingLimits.lateCancelHours} hours before the session; later, ${bookingLimits.lateFeePercent}% of the fee applies.`,
      ],
    }),
  };
}

/**
 * To the student, when a confirmed session gets another time: confirmed again at another of its times, or moved
 * by staff to another date too (`from` then names its date). From what to what.
 */
export function timeChangedEmail(
  b: Booking,
  from: string | { date: string; slot: string },
  to: string,
  args: ConfirmedArgs,
): NewEmail {
  const when = formatSastSlot(b.date, to);
  const change =
    typeof from === 'string' || from.date === b.date
      ? `The time of your session on ${formatSastDate(b.date)} has changed from ${typeof from === 'string' ? from : from.slot} to ${to} SAST`
      : `Your session has moved from ${formatSastSlot(from.date, from.slot)} to ${when}`;
  return {
    kind: 'booking-time-changed',
    ...addressed(b, b.student),
    // The invitation has the same UID and a higher SEQUENCE: calendars move the event rather than add one.
    attachments: args.withInvitation ? [invitation(b, to, args.publicUrl, args.now)] : [],
    ...renderEmail({
      subject: `Session time changed: ${b.moduleName}, now ${when}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        `${change} (${hoursText(b.hours)}).${args.withInvitation ? ' The updated calendar invitation is attached.' : ''}`,
        ...paymentParagraphs(b, args.eftDetails),
        details(b),
      ],
      action: { label: 'View my bookings', url: dashboard(args.publicUrl, 'student') },
      after: [
        `Need to cancel? Cancel at least ${bookingLimits.lateCancelHours} hours before the session; later, ${bookingLimits.lateFeePercent}% of the fee applies.`,
      ],
    }),
  };
}

/** What the session's reminder says of its money, as the admin has recorded it (issue 37). */
function reminderPayment(b: Booking): string {
  const { owingCents, paidCents } = bookingStanding(b);
  if (owingCents === 0) return paidCents > 0 ? 'It is paid: thank you.' : 'There is nothing to pay for it.';
  const pay = `${formatRand(owingCents)} by EFT, with the payment reference ${b.paymentReference}`;
  return paidCents > 0
    ? `Still to pay: ${pay}. If you paid in the last few days, thank you: it may not have reached us yet.`
    : `If you have not paid yet: ${pay}.`;
}

/** The reminder e-mail's key in the outbox: one per booking and time (the reminder check looks it up). */
export const reminderKey = (bookingId: string, date: string, slot: string) =>
  `booking-reminder:${bookingId}:${date}T${slot}`;

export function reminderEmail(b: Booking, slot: string, publicUrl: string): NewEmail {
  const when = formatSastSlot(b.date, slot);
  return {
    kind: 'booking-reminder',
    ...addressed(b, b.student),
    // One reminder per booking and time, whichever process sends it.
    dedupeKey: reminderKey(b.id, b.date, slot),
    ...renderEmail({
      subject: `Reminder: ${b.moduleName}, ${when}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        `A reminder that your session starts ${when} (${b.hours} hour${b.hours === 1 ? '' : 's'}).`,
        reminderPayment(b),
        details(b),
      ],
      action: { label: 'View my bookings', url: dashboard(publicUrl, 'student') },
    }),
  };
}

/** To the student, whoever cancelled; a late cancellation says what the fee is and how to pay it. */
export function cancelledEmail(b: Booking, publicUrl: string, eftDetails: readonly string[] | undefined): NewEmail {
  return {
    kind: 'booking-cancelled',
    ...addressed(b, b.student),
    ...renderEmail({
      subject: `Booking cancelled: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        ...(b.lateCancellation
          ? [
              `${bookingMessages.cancelledLate(bookingDue(b).dueCents)} Please pay it by EFT, with the payment reference ${lateFeeReference(b.paymentReference)}.`,
              bankDetails(eftDetails),
            ]
          : [bookingMessages.cancelled]),
        details(b),
      ],
      action: { label: 'Book another session', url: `${publicUrl}/offers` },
    }),
  };
}

/** To the tutors of the category and the admins, when the student cancelled or their account was deleted. */
export function cancelledForStaffEmail(
  b: Booking,
  to: { name: string; email: string; role: Role },
  publicUrl: string,
  reason: 'student' | 'account-deleted',
): NewEmail {
  return {
    kind: 'booking-cancelled-staff',
    ...addressed(b, to),
    ...renderEmail({
      subject: `Booking cancelled: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${to.name},`,
      paragraphs: [
        reason === 'student'
          ? `${b.student.name} cancelled this booking${b.lateCancellation ? `, within ${bookingLimits.lateCancelHours} hours of the session: the late-cancellation fee (${bookingLimits.lateFeePercent}%, ${formatRand(bookingDue(b).dueCents)}) applies` : ''}.`
          : 'This booking was cancelled because the student deleted their account.',
        details(b),
      ],
      action: { label: 'Open my dashboard', url: dashboard(publicUrl, to.role) },
    }),
  };
}

export function completedEmail(b: Booking, publicUrl: string): NewEmail {
  return {
    kind: 'booking-completed',
    ...addressed(b, b.student),
    ...renderEmail({
      subject: `Session completed: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: ['Thank you for learning with us: your session is marked as completed.', details(b)],
      action: { label: 'Book another session', url: `${publicUrl}/offers` },
    }),
  };
}

/**
 * The admin's reminder of money owing on a booking (issue 37 §1): what is still to pay, under which reference, and
 * the bank details. One per booking, version and day (`day`, SAST): a double click, or two admins at once, send
 * one; a reminder a week later goes.
 */
export function paymentReminderEmail(
  b: Booking,
  owing: { owingCents: number; reference: string; lateFee: boolean },
  sent: { day: string; publicUrl: string; eftDetails: readonly string[] | undefined },
): NewEmail {
  const { day, publicUrl, eftDetails } = sent;
  return {
    kind: 'payment-reminder',
    ...addressed(b, b.student),
    dedupeKey: `payment-reminder:${b.id}:${b.version}:${day}`,
    ...renderEmail({
      subject: `Payment reminder: ${b.moduleName}, ${formatSastDate(b.date)}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        `Our records show ${formatRand(owing.owingCents)} still to pay for ${owing.lateFee ? 'the late-cancellation fee of ' : ''}this session. Please pay it by EFT, with the payment reference ${owing.reference}. If you have paid in the last few days, thank you: it may not have reached us yet.`,
        bankDetails(eftDetails),
        details(b),
      ],
      action: { label: 'View my bookings', url: dashboard(publicUrl, 'student') },
    }),
  };
}

/**
 * To the student, when a payment is recorded against their booking (issue 37 §4, docs/decisions/0055): how much
 * arrived, when, for what, and the receipt as a PDF (`pdf`); without it (EmailJS carries no attachments) where to
 * download it instead. One per payment, whoever records it and however often.
 */
export function paymentReceiptEmail(
  b: Booking,
  payment: { id: string; amountCents: number; paidOn: string; reference: string },
  args: { publicUrl: string; pdf: Buffer | undefined },
): NewEmail {
  const number = receiptNumber(payment.id);
  const when = b.confirmedSlot ? formatSastSlot(b.date, b.confirmedSlot) : formatSastDate(b.date);
  return {
    kind: 'payment-receipt',
    ...addressed(b, b.student),
    dedupeKey: `payment-receipt:${payment.id}`,
    attachments: args.pdf
      ? [
          {
            filename: receiptFileName(payment.id),
            contentType: 'application/pdf',
            content: args.pdf.toString('base64'),
            encoding: 'base64',
          },
        ]
      : [],
    ...renderEmail({
      subject: `Receipt ${number}: ${formatRand(payment.amountCents)} for ${b.moduleName}`,
      greeting: `Hi ${b.student.name},`,
      paragraphs: [
        `Thank you: we received ${formatRand(payment.amountCents)} on ${formatSastDate(payment.paidOn)} for your session of ${b.moduleName} (${when})${payment.reference ? `, with the reference ${payment.reference}` : ''}.`,
        `${args.pdf ? receiptMessages.attached : receiptMessages.onDashboard} Receipt number: ${number}.`,
        reminderPayment(b),
      ],
      action: { label: 'View my bookings', url: dashboard(args.publicUrl, 'student') },
    }),
  };
}

/**
 * To the student, when a payment is recorded for their monthly package (issue 37 §3, §4): how much arrived, for
 * which package, what is still to pay, and the receipt as a PDF (`pdf`), or, over EmailJS, where to download it.
 * Keyed as a booking's receipt is (`payment-receipt:<payment id>`): one per payment.
 */
export function packageReceiptEmail(
  pkg: PackageRecord,
  payment: { id: string; amountCents: number; paidOn: string; reference: string },
  args: { publicUrl: string; pdf: Buffer | undefined },
): NewEmail {
  const number = receiptNumber(payment.id);
  const title = `${pkg.name}, ${formatMonth(pkg.month)}`;
  const { owingCents } = packageStanding(pkg);
  return {
    kind: 'payment-receipt',
    to: pkg.student.email,
    toName: pkg.student.name,
    ...(pkg.student.id ? { aboutUserId: pkg.student.id } : {}),
    dedupeKey: `payment-receipt:${payment.id}`,
    attachments: args.pdf
      ? [
          {
            filename: receiptFileName(payment.id),
            contentType: 'application/pdf',
            content: args.pdf.toString('base64'),
            encoding: 'base64',
          },
        ]
      : [],
    ...renderEmail({
      subject: `Receipt ${number}: ${formatRand(payment.amountCents)} for your package ${title}`,
      greeting: `Hi ${pkg.student.name},`,
      paragraphs: [
        `Thank you: we received ${formatRand(payment.amountCents)} on ${formatSastDate(payment.paidOn)} for your package “${title}”${payment.reference ? `, with the reference ${payment.reference}` : ''}.`,
        `${args.pdf ? receiptMessages.attached : receiptMessages.onDashboardPackage} Receipt number: ${number}.`,
        owingCents === 0
          ? `It is paid: thank you. Your confirmed sessions until ${formatSastDate(pkg.validUntil)} draw their hours from it.`
          : `Still to pay: ${formatRand(owingCents)} by EFT, with the reference ${pkg.paymentReference}. Sessions draw from the package once it is paid.`,
      ],
      action: { label: 'View my packages', url: dashboard(args.publicUrl, 'student') },
    }),
  };
}
