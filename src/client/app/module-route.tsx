import { GroupSessionsOffer } from '../features/bookings/group-sessions.tsx';
import { ModulePage } from '../features/catalogue/module-page.tsx';

/** /modules/:slug: the catalogue's module, and under it the bookings' open group sessions of it (issue 36). */
export function ModuleRoute() {
  return <ModulePage extra={(module) => <GroupSessionsOffer moduleName={module.name} />} />;
}
