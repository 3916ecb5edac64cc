import { z } from './zod.ts';

/**
 * A user's calendar feed (issue 36 §5): a secret address that Google Calendar or Apple Calendar subscribes to,
 * fetched without a cookie. The server keeps only the secret's hash (docs/decisions/0049), so the address is
 * shown once, when it is made; renewing makes a new one and the old stops working at once.
 */

export const calendarFeedMessages = {
  offline: 'You are offline. The calendar link can be made or renewed once you are back online.',
  failed: 'Could not make the calendar link. Please try again.',
} as const;

/** `GET /api/me/calendar-feed`: whether the user has a feed, and since when; never its address. */
export const calendarFeedStateSchema = z.object({
  feed: z.object({ createdAt: z.string() }).nullable(),
});
export type CalendarFeedState = z.infer<typeof calendarFeedStateSchema>;

/** `POST /api/me/calendar-feed`: the new feed's address, once (https, and the same as webcal:// for Apple). */
export const calendarFeedCreatedSchema = z.object({
  url: z.string(),
  webcalUrl: z.string(),
  createdAt: z.string(),
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;

/** The feed's path under the site: `/api/calendar/<secret>.ics`. */
export const calendarFeedPath = (secret: string) => `/api/calendar/${secret}.ics`;

/** The same address for calendar apps that subscribe to webcal:// (Apple Calendar; Google takes it too). */
export const webcalUrlOf = (url: string) => url.replace(/^https?:\/\//, 'webcal://');

/** Google Calendar's page that adds a subscription by address. */
export const googleCalendarAddUrl = (url: string) =>
  `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcalUrlOf(url))}`;
