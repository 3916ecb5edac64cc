import { PackageOffers } from '../features/bookings/package-offers.tsx';
import { OffersPage } from '../features/catalogue/offers-page.tsx';

/** /offers: the catalogue's modules, and under them the monthly packages (issue 37 §3). */
export function OffersRoute() {
  return <OffersPage extra={<PackageOffers />} />;
}
