import { Link } from 'react-router-dom';
import { useId } from 'react';
import { profileMessages, type Enrolment } from '../../../common/profile.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { isSessionEnded } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { refreshSource } from '../../offline/engine.ts';
import type { LocalData } from '../../offline/hooks.ts';
import { profileApi } from './profile-api.ts';
import { failureText, refuseOffline } from './profile-requests.ts';
import { enrolmentsSource, enrolmentsTable } from './profile.sync.ts';

/** Spec §4 Enrolment: the modules the student is enrolled in, each with Remove (asked first). */
export function EnrolmentList({ table }: { table: LocalData<Enrolment[]> }) {
  const confirm = useConfirm();
  const enrolments = table.data ?? [];

  async function remove(enrolment: Enrolment) {
    if (refuseOffline()) return;
    const ok = await confirm({
      title: 'Remove module',
      message: profileMessages.removeConfirm(enrolment.moduleName),
      confirmLabel: 'Remove',
      destructive: true,
    });
    if (!ok || refuseOffline()) return;
    try {
      await profileApi.removeEnrolment(enrolment.id);
    } catch (error) {
      // An ended session is not a failure to remove: the app asks to log in again, and the row stays.
      if (!isSessionEnded(error)) toast.error(failureText(error, profileMessages.removeFailed));
      return;
    }
    await enrolmentsTable.delete(enrolment.id);
    toast.success(profileMessages.removed(enrolment.moduleName));
    void refreshSource(enrolmentsSource);
  }

  if (table.status === 'loading') {
    return (
      <div className="mt-4 h-16 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800">
        <span role="status" className="sr-only">
          Loading your modules…
        </span>
      </div>
    );
  }
  // Never loaded on this device and the server could not be reached: an empty list would be a guess.
  if (table.status === 'unavailable')
    return (
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        Your modules appear here once this page has loaded with a connection.
      </p>
    );
  if (table.status === 'empty')
    return <p className="mt-4 text-slate-700 dark:text-slate-300">You are not enrolled in any module yet.</p>;
  return (
    <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
      {enrolments.map((enrolment) => (
        <EnrolmentRow key={enrolment.id} enrolment={enrolment} onRemove={() => void remove(enrolment)} />
      ))}
    </ul>
  );
}

function EnrolmentRow({ enrolment, onRemove }: { enrolment: Enrolment; onRemove: () => void }) {
  const nameId = useId();
  // A deleted module keeps its name on the enrolment but has no page to link to.
  const gone = enrolment.moduleId === null || enrolment.moduleSlug === null;
  return (
    <li className="flex items-center justify-between gap-4 py-3">
      <div id={nameId} className="min-w-0 break-words">
        {gone ? (
          <>
            <span className="font-medium">{enrolment.moduleName}</span>
            <span className="block text-sm text-slate-600 dark:text-slate-400">{profileMessages.moduleGone}</span>
          </>
        ) : (
          <Link to={`/modules/${enrolment.moduleSlug}`} className="link">
            {enrolment.moduleName}
          </Link>
        )}
      </div>
      <button type="button" className="btn-secondary shrink-0" aria-describedby={nameId} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}
