import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { profileMessages } from '../../../common/profile.ts';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { useSession } from '../../lib/session.tsx';
import { toast } from '../../lib/toast.ts';
import { CalendarFeed } from './calendar-feed.tsx';
import { ChangePassword } from './change-password.tsx';
import { DataSaverSetting } from './data-saver-setting.tsx';
import { EnrolForm, type OfferedModule } from './enrol-form.tsx';
import { EnrolmentList } from './enrolment-list.tsx';
import { useEnrolments } from './use-enrolments.ts';
import { YourData } from './your-data.tsx';
import { YourDetails } from './your-details.tsx';

/**
 * /profile (spec §2, §4 Enrolment, §8 Profile): who you are, your modules (remove, enrol), your data
 * (download, delete the account). Reads come from IndexedDB, so the page opens offline. `modules`:
 * undefined until the catalogue has been read.
 */
export function ProfilePage({
  modules,
  settings,
}: {
  modules: OfferedModule[] | undefined;
  /** Other features' settings, shown among the profile's (the notices' choices). */
  settings?: ReactNode;
}) {
  const { session } = useSession();
  const me = session.me;
  const enrolments = useEnrolments();

  // Spec §8: 'Failed to load profile data.' when the server answered with an error (offline is not a failure).
  useEffect(() => {
    if (enrolments.failure === 'failed') toast.error(profileMessages.loadFailed);
  }, [enrolments.failure]);

  if (!me) return null;
  return (
    <section className="container-page py-10">
      <PageMeta title="Profile" description="Your TutorBook account, modules and data." />
      <h1 className="text-3xl font-bold">Profile</h1>

      <YourDetails name={me.name} email={me.email} />

      <div className="card mt-6">
        <h2 className="text-xl font-semibold">Your modules</h2>
        {enrolments.failure === 'offline' && (
          <Notice tone="offline" className="mt-4">
            {profileMessages.offline} Your modules are shown as they were last loaded.
          </Notice>
        )}
        <EnrolmentList table={enrolments} />
        <EnrolForm modules={modules} enrolments={enrolments.data ?? []} />
      </div>

      <CalendarFeed />
      {settings}
      <DataSaverSetting />
      <ChangePassword />
      <YourData />
    </section>
  );
}
