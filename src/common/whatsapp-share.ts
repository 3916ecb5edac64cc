import type { Booking } from './bookings.ts';
import { formatRand } from './money.ts';
import { bookingStanding } from './payments.ts';
import { formatSastSession, sastInstant } from './sast.ts';

/**
 * "Share on WhatsApp" (issue 38 §3), which needs no account of anyone's: a `wa.me` link with the text typed in,
 * which opens WhatsApp to choose whom to send it to (a parent who pays, a classmate). The text says what the
 * session is, when in SAST, what it costs and under which reference it is paid, and gives a link that adds it to
 * a calendar.
 *
 * The calendar link is Google Calendar's "add an event" page for the session, filled in from the link itself: the
 * user's own calendar feed is a secret address the server keeps only the hash of (docs/decisions/0049), so it can
 * neither be shown again nor be shared, and there is no per-session .ics to link to. Whoever gets the message can
 * add the session to their own calendar with one tap, without an account here.
 */

type SharedBooking = Pick<
  Booking,
  | 'moduleName'
  | 'date'
  | 'confirmedSlot'
  | 'hours'
  | 'tutor'
  | 'status'
  | 'totalCents'
  | 'priceCentsPerHour'
  | 'lateCancellation'
  | 'paymentReference'
  | 'payments'
  | 'package'
>;

/** Whether a booking can be shared: a session confirmed at a time. */
export const canShareOnWhatsApp = (booking: Pick<Booking, 'status' | 'confirmedSlot'>) =>
  booking.status === 'Confirmed' && Boolean(booking.confirmedSlot);

/** `20261208T120000Z`: an instant as Google Calendar's `dates` takes it. */
const calendarStamp = (instant: Date) =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Google Calendar's page that adds the session, at its time (given in UTC, shown in the reader's zone). */
export function calendarEventUrl(booking: SharedBooking & { confirmedSlot: string }): string {
  const start = sastInstant(booking.date, booking.confirmedSlot);
  const end = new Date(start.getTime() + booking.hours * 60 * 60 * 1000);
  const params = {
    action: 'TEMPLATE',
    text: `${booking.moduleName} (TutorBook)`,
    dates: `${calendarStamp(start)}/${calendarStamp(end)}`,
    details: `TutorBook session. Payment reference: ${booking.paymentReference}`,
    ctz: 'Africa/Johannesburg',
  };
  // Built by hand: common/ has neither the DOM's nor Node's URLSearchParams in its types.
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `https://calendar.google.com/calendar/render?${query}`;
}

/** What the session costs and where its payment stands, in the words of the card. */
function amountLine(booking: SharedBooking): string {
  const standing = bookingStanding(booking);
  if (standing.dueCents === 0)
    return booking.package?.coveredMinutes
      ? 'Amount: nothing to pay (my monthly package covers it)'
      : 'Amount: nothing to pay';
  const due = formatRand(standing.dueCents);
  if (standing.state === 'paid' || standing.state === 'waived') return `Amount: ${due}, ${standing.state}`;
  if (standing.state === 'part-paid') return `Amount: ${due}, ${formatRand(standing.owingCents)} still to pay`;
  return `Amount: ${due}`;
}

/** The message's text, one fact a line. Undefined for a booking that is not a confirmed session. */
export function whatsAppShareText(booking: SharedBooking): string | undefined {
  if (!canShareOnWhatsApp(booking)) return undefined;
  const confirmed = { ...booking, confirmedSlot: booking.confirmedSlot! };
  return [
    'My TutorBook session is confirmed:',
    booking.moduleName,
    formatSastSession(booking.date, confirmed.confirmedSlot, booking.hours),
    ...(booking.tutor?.name ? [`Tutor: ${booking.tutor.name}`] : []),
    amountLine(booking),
    `Payment reference: ${booking.paymentReference}`,
    `Add it to a calendar: ${calendarEventUrl(confirmed)}`,
  ].join('\n');
}

/** WhatsApp's share link: it opens the app (or WhatsApp Web) with `text` typed in, to send to anyone. */
export const whatsAppShareUrl = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;
