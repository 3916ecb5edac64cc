import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { profileMessages } from '../../../common/profile.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { isSessionEnded } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { toast } from '../../lib/toast.ts';
import { profileApi } from './profile-api.ts';
import { failureText, refuseOffline } from './profile-requests.ts';

/** Spec §4: download a copy of your data, or delete the account (asked first; then to /login). */
export function YourData() {
  const confirm = useConfirm();
  const { signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [downloading, setDownloading] = useState(false);

  // Fetched rather than linked, so that offline, a failure and an ended session each say what happened.
  async function downloadMyData() {
    if (refuseOffline()) return;
    setDownloading(true);
    try {
      await profileApi.downloadMyData();
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(failureText(error, profileMessages.downloadFailed));
    } finally {
      setDownloading(false);
    }
  }

  async function deleteAccount() {
    if (refuseOffline()) return;
    const ok = await confirm({
      title: 'Delete Account',
      message: profileMessages.deleteConfirm,
      confirmLabel: 'Delete Account',
      destructive: true,
    });
    if (!ok || refuseOffline()) return;
    setBusy(true);
    try {
      await profileApi.deleteAccount();
    } catch (error) {
      setBusy(false);
      if (!isSessionEnded(error)) toast.error(failureText(error, profileMessages.deleteFailed));
      return;
    }
    toast.success(profileMessages.deleted);
    // Spec §4: to /login. The server has ended every session already.
    await signOut({ leaveTo: '/login', serverDone: true });
  }

  return (
    <div className="card mt-6">
      <h2 className="text-xl font-semibold">Your data</h2>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
        Download a copy of everything we store about you, or delete your account. Deleting removes your login,
        enrolments and personal details for good; your questions and answers stay, shown as “Deleted user”.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <button type="button" className="btn-secondary" disabled={downloading} onClick={() => void downloadMyData()}>
          <Download aria-hidden size={18} />
          {downloading ? 'Preparing…' : 'Download my data'}
        </button>
        <button type="button" className="btn-danger" disabled={busy} onClick={() => void deleteAccount()}>
          <Trash2 aria-hidden size={18} />
          {busy ? 'Deleting…' : 'Delete Account'}
        </button>
      </div>
    </div>
  );
}
