import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { type ICalCalendar, type ICalEventStatus } from 'ical-generator';
import type { Booking } from '../../common/bookings.ts';
import { brand } from '../../common/brand.ts';
import { sastZone } from '../../common/sast.ts';

/**
 * A booking as a calendar event, shared by the confirmation e-mails' invitation (modules/bookings) and the
 * users' calendar feeds (modules/calendar): the same UID for the same booking, so a calendar that has both
 * holds one event, and SEQUENCE the booking's version, so a later one replaces an earlier one.
 */

/** The booking's event's UID. */
export const sessionEventId = (bookingId: string) => `${bookingId}@tutorbook`;

/** A calendar of wall-clock SAST events, its VTIMEZONE (Africa/Johannesburg) added for them. */
export function createSastCalendar(product: string): ICalCalendar {
  // The calendar names no zone of its own: with one, ical-generator writes DTSTAMP in the machine's local time
  // without a Z. The generator still adds the VTIMEZONE for the events' zone.
  return ical({
    prodId: { company: brand.name, product },
    name: brand.name,
    timezone: { name: null, generator: getVtimezoneComponent },
  });
}

export interface SessionEvent {
  booking: Pick<Booking, 'id' | 'date' | 'hours' | 'version'>;
  /** `HH:MM`, SAST, on `booking.date`. */
  slot: string;
  stamp: Date;
  summary: string;
  description: string;
  url: string;
  /** Left out: none is written (the invitation's way). */
  status?: ICalEventStatus;
  /** The UID when it is not the booking's own event (a request's asked-for time). */
  id?: string;
}

/** Adds the session at its wall-clock SAST time, written under TZID=Africa/Johannesburg. */
export function addSessionEvent(
  calendar: ICalCalendar,
  { booking: b, slot, stamp, id, status, ...text }: SessionEvent,
) {
  // A wall time with no offset: ical-generator reads it in the machine's zone and writes it back unchanged under
  // the event's TZID (only an hour that the machine's own zone skips for daylight saving would shift; servers
  // run in UTC or SAST). UTC arithmetic adds the hours: SAST has no daylight saving.
  const wallTime = (plusHours: number) =>
    new Date(Date.parse(`${b.date}T${slot}:00Z`) + plusHours * 3_600_000).toISOString().slice(0, 19);
  calendar.createEvent({
    id: id ?? sessionEventId(b.id),
    // A later invitation for the same booking (confirmed again at another time) replaces the earlier one.
    sequence: b.version,
    stamp,
    start: wallTime(0),
    end: wallTime(b.hours),
    timezone: sastZone,
    ...(status ? { status } : {}),
    ...text,
  });
}
