import type { ServerFeature } from '../../feature.ts';
import { calendarPersonalData } from './calendar.usecases.ts';

/**
 * The calendar feeds. `/api/me/calendar-feed` reads the session through the me feature's `/api/me/*`; the feed
 * itself (`/api/calendar/<secret>.ics`) reads none: the calendar app sends no cookie, the secret is the key.
 */
export const calendarFeature: ServerFeature = {
  name: 'calendar',
  personalData: calendarPersonalData,
};
