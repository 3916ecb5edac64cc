import type { ServerFeature } from './feature.ts';
import { availabilityFeature } from './modules/availability/availability.feature.ts';
import { bookingsFeature } from './modules/bookings/bookings.feature.ts';
import { calendarFeature } from './modules/calendar/calendar.feature.ts';
import { catalogueFeature } from './modules/catalogue/catalogue.feature.ts';
import { configFeature } from './modules/config/config.feature.ts';
import { healthFeature } from './modules/health/health.feature.ts';
import { meFeature } from './modules/me/me.feature.ts';
import { noticesFeature } from './modules/notices/notices.feature.ts';
import { profileFeature } from './modules/profile/profile.feature.ts';
import { qaFeature } from './modules/qa/qa.feature.ts';
import { sessionsFeature } from './modules/sessions/sessions.feature.ts';
import { staffFeature } from './modules/staff/staff.feature.ts';
import { testimonialsFeature } from './modules/testimonials/testimonials.feature.ts';

/**
 * The server's features, one line each: app.ts reads what needs the session, what is compressed and the pages
 * rendered per request; server.ts the personal-data parts and the work each runs. In this order: the export
 * lists the parts' keys in it, and the account's deletion erases the board's part before the bookings'.
 */
export const features: readonly ServerFeature[] = [
  healthFeature,
  configFeature,
  meFeature,
  profileFeature,
  catalogueFeature,
  qaFeature,
  bookingsFeature,
  sessionsFeature,
  staffFeature,
  testimonialsFeature,
  availabilityFeature,
  calendarFeature,
  noticesFeature,
];
