import type { ServerFeature } from '../../feature.ts';
import { bookingsPersonalData } from './bookings.personal-data.ts';
import { startBookingReminders } from './bookings.reminders.ts';

export const bookingsFeature: ServerFeature = {
  name: 'bookings',
  signedIn: [
    { path: '/api/bookings/*' },
    { path: '/api/groups/*', methods: ['POST'] },
    { path: '/api/packages/*' },
    { path: '/api/payfast/checkout' },
  ],
  // What a write returns: the booking with its history.
  compressed: [{ path: '/api/bookings/*', methods: ['POST', 'PUT', 'PATCH', 'DELETE'] }],
  personalData: bookingsPersonalData,
  start: startBookingReminders,
};
