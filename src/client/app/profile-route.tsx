import { useModules } from '../features/catalogue/use-modules.ts';
import { NoticePreferences } from '../features/notices/notice-preferences.tsx';
import { ProfilePage } from '../features/profile/profile-page.tsx';
import { useSession } from '../lib/session.tsx';

/**
 * /profile: the profile's enrol form offers the catalogue's modules. Features do not import each other, so
 * the app reads the catalogue and hands the profile plain data (id and name) rather than a component: the
 * form filters out modules already enrolled in and names the module in its confirmation. The notices' choices
 * (issue 38) are their feature's section, placed among the profile's settings.
 */
export function ProfileRoute() {
  const catalogue = useModules();
  const { session } = useSession();
  return <ProfilePage modules={catalogue.data} settings={session.me && <NoticePreferences role={session.me.role} />} />;
}
