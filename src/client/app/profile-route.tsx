import { useModules } from '../features/catalogue/use-modules.ts';
import { ProfilePage } from '../features/profile/profile-page.tsx';

/**
 * /profile: the profile's enrol form offers the catalogue's modules. Features do not import each other, so
 * the app reads the catalogue and hands the profile plain data (id and name) rather than a component: the
 * form filters out modules already enrolled in and names the module in its confirmation.
 */
export function ProfileRoute() {
  const catalogue = useModules();
  return <ProfilePage modules={catalogue.data} />;
}
