import { createHash, randomBytes } from 'node:crypto';
import { ICalEventStatus } from 'ical-generator';
import { dateAfter } from '../../../common/availability.ts';
import { brand } from '../../../common/brand.ts';
import type { CalendarFeedCreated, CalendarFeedState } from '../../../common/calendar-feed.ts';
import { calendarFeedPath, webcalUrlOf } from '../../../common/calendar-feed.ts';
import { dashboardPathByRole, type Category, type Role } from '../../../common/roles.ts';
import { sastDate } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { addSessionEvent, createSastCalendar } from '../../calendar/session-event.ts';
import type { Uses } from '../../deps.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import type { Repositories } from '../../storage/storage.ts';
import { createFeedNotFoundError } from './calendar.errors.ts';

/**
 * Each user's calendar feed (issue 36 §5): a secret address a calendar app subscribes to, fetched without a
 * cookie. Only the secret's sha256 is stored (docs/decisions/0049): the address is given once, when it is made
 * or renewed, and a renewal makes the old one answer 404 at once.
 */

/** The bookings as their repository gives them (modules do not import each other's types). */
type BookingRecord = Awaited<ReturnType<Repositories['bookings']['list']>>[number];
type BookingListFilter = Parameters<Repositories['bookings']['list']>[0];

/** How long a cancelled session, or a request never confirmed, stays in the feed after its date. */
export const feedRecentDays = 30;
/** At most this many bookings of each part read (a user's own, each category, or all): the newest sessions. */
export const feedBookingsPerPart = 1000;

/** 32 random bytes, base64url: 43 characters, 256 bits, nothing to guess. */
const newSecret = () => randomBytes(32).toString('base64url');
const secretPattern = /^[A-Za-z0-9_-]{43}$/;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Whether the user has a feed, and since when; never its address, which is not kept. */
export async function getCalendarFeed(
  { repos }: Uses<'calendarFeeds'>,
  me: Me | undefined,
): Promise<CalendarFeedState> {
  const user = requireUser(me);
  const record = await repos.calendarFeeds.find(user.id);
  return { feed: record ? { createdAt: record.createdAt } : null };
}

/** Makes the user's feed, or renews it: a new secret, the old one forgotten in the same write. */
export async function renewCalendarFeed(
  { repos, clock, config }: Uses<'calendarFeeds', 'clock' | 'config'>,
  me: Me | undefined,
): Promise<CalendarFeedCreated> {
  const user = requireUser(me);
  const secret = newSecret();
  const createdAt = clock.now().toISOString();
  await repos.calendarFeeds.save({ userId: user.id, secretHash: hashSecret(secret), createdAt });
  const url = `${config.publicUrl}${calendarFeedPath(secret)}`;
  return { url, webcalUrl: webcalUrlOf(url), createdAt };
}

/** The feed's text (iCalendar) for the secret, or 404: a secret no feed has, or one that cannot be one. */
export async function readCalendarFeed(
  deps: Uses<'calendarFeeds' | 'accounts' | 'bookings', 'clock' | 'config'>,
  secret: string,
): Promise<string> {
  if (!secretPattern.test(secret)) throw createFeedNotFoundError();
  const record = await deps.repos.calendarFeeds.findBySecretHash(hashSecret(secret));
  const account = record && (await deps.repos.accounts.findById(record.userId));
  if (!account) throw createFeedNotFoundError();
  const categories = account.role === 'tutor' ? await deps.repos.accounts.categoriesOf(account.id) : [];
  const bookings = await feedBookings(deps, { id: account.id, role: account.role, categories });
  return feedText(bookings, { id: account.id, role: account.role }, deps.clock.now(), deps.config.publicUrl);
}

interface Viewer {
  id: string;
  role: Role;
}

/**
 * What the user's dashboard shows them, read along the bookings' list indexes as the dashboard reads it: their
 * own bookings, each of a tutor's categories, or all for the admin; then what the feed keeps of it. A tutor's
 * categories hold other tutors' sessions: only their own and the categories' requests stay.
 */
async function feedBookings(
  { repos, clock }: Uses<'bookings', 'clock'>,
  viewer: Viewer & { categories: readonly Category[] },
): Promise<BookingRecord[]> {
  const parts: Pick<BookingListFilter, 'userId' | 'category'>[] =
    viewer.role === 'admin' ? [{}] : [{ userId: viewer.id }, ...viewer.categories.map((category) => ({ category }))];
  const pages = await Promise.all(parts.map((part) => repos.bookings.list({ ...part, limit: feedBookingsPerPart })));
  const recent = dateAfter(sastDate(clock.now()), -feedRecentDays);
  const unique = [...new Map(pages.flat().map((b) => [b.id, b])).values()];
  return unique.filter((b) => {
    const theirs = viewer.role === 'admin' || b.student.id === viewer.id || b.tutor?.id === viewer.id;
    switch (b.status) {
      case 'Pending':
        return b.date >= recent;
      case 'Cancelled':
        return theirs && b.confirmedSlot !== null && b.date >= recent;
      default:
        return theirs && b.confirmedSlot !== null;
    }
  });
}

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/**
 * The bookings as events, in SAST under a VTIMEZONE. A session is the booking's own event (the invitation's
 * UID, SEQUENCE its version), cancelled ones marked CANCELLED so a subscribed calendar cancels them; a request
 * is a tentative event for each of its asked-for times, under UIDs of their own, gone once it is confirmed.
 */
function feedText(bookings: readonly BookingRecord[], viewer: Viewer, now: Date, publicUrl: string): string {
  const calendar = createSastCalendar('calendar feed');
  // A hint to the calendar app: read again every hour (REFRESH-INTERVAL, X-PUBLISHED-TTL).
  calendar.ttl(60 * 60);
  const url = `${publicUrl}${dashboardPathByRole[viewer.role]}`;
  for (const b of [...bookings].sort((x, y) => (x.startsAt < y.startsAt ? -1 : x.startsAt > y.startsAt ? 1 : 0))) {
    const own = b.student.id === viewer.id;
    const what = own ? b.moduleName : `${b.moduleName}, ${b.student.name}`;
    if (b.status === 'Pending') {
      b.slots.forEach((slot, i) =>
        addSessionEvent(calendar, {
          booking: b,
          slot,
          stamp: now,
          id: `${b.id}-request-${i + 1}@tutorbook`,
          status: ICalEventStatus.TENTATIVE,
          summary: `Request: ${what} (time ${i + 1} of ${b.slots.length})`,
          description: own
            ? `One of the times you asked for (${hoursText(b.hours)}). A tutor confirms one of them.`
            : `One of the times ${b.student.name} asked for (${hoursText(b.hours)}). Confirm one on your dashboard.`,
          url,
        }),
      );
      continue;
    }
    const cancelled = b.status === 'Cancelled';
    addSessionEvent(calendar, {
      booking: b,
      slot: b.confirmedSlot!,
      stamp: now,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      summary: `${cancelled ? 'Cancelled: ' : ''}${brand.name}: ${what}`,
      description: `${hoursText(b.hours)} of tutoring${b.tutor ? ` with ${b.tutor.name}` : ''}${own ? '' : ` for ${b.student.name}`}. Payment reference ${b.paymentReference}.`,
      url,
    });
  }
  return calendar.toString();
}

/** The feed's part of the data export (whether there is one, and since when) and of account deletion. */
export const calendarPersonalData: PersonalDataPart = {
  async exportFor({ repos }, me) {
    const record = await repos.calendarFeeds.find(me.id);
    // The secret is not kept: there is no address to give.
    return { calendarFeed: record ? { createdAt: record.createdAt } : null };
  },

  async eraseFor(tx, userId) {
    await tx.repos.calendarFeeds.delete(userId);
  },
};
