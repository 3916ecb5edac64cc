import { BookingPage } from '../features/bookings/booking-page.tsx';
import { useModules } from '../features/catalogue/use-modules.ts';

/**
 * /booking: the booking page shows the chosen module's description, topics, category and rate from the
 * catalogue. Features do not import each other, so the app reads the catalogue and hands the page the modules.
 */
export function BookingRoute() {
  const catalogue = useModules();
  return <BookingPage modules={catalogue.data} />;
}
