import { Download, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import type { Module } from '../../../common/catalogue.ts';
import { enrolInputSchema, profileMessages, type Enrolment } from '../../../common/profile.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { ApiError, isOffline, NetworkError } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { useSession } from '../../lib/session.tsx';
import { refreshEnrolments } from '../../offline/catalogue-sync.ts';
import { useCatalogue, useEnrolments, type LocalTable } from '../../offline/local-tables.ts';
import { clearUserData, localDb } from '../../offline/db.ts';
import { profileApi } from './profile-api.ts';

/** Writes need the server; offline they say so and change nothing (`true` when offline). */
function refuseOffline(): boolean {
  if (!isOffline()) return false;
  toast.error(profileMessages.offline);
  return true;
}

/**
 * /profile (spec §2, §4 Enrolment, §8 Profile): who you are, your modules (remove, enrol), your data
 * (download, delete the account). Reads come from IndexedDB, so the page opens offline.
 */
export function ProfilePage() {
  const { session } = useSession();
  const me = session.me;
  const enrolments = useEnrolments();
  const catalogue = useCatalogue();

  // Spec §8: 'Failed to load profile data.' when the server answered with an error (offline is not a failure).
  useEffect(() => {
    if (enrolments.refresh === 'failed') toast.error(profileMessages.loadFailed);
  }, [enrolments.refresh]);

  if (!me) return null;
  return (
    <section className="container-page py-10">
      <PageMeta title="Profile" description="Your TutorBook account, modules and data." />
      <h1 className="text-3xl font-bold">Profile</h1>

      <div className="card mt-6">
        <h2 className="text-xl font-semibold">Your details</h2>
        <dl className="mt-4 grid gap-3 sm:grid-cols-[8rem_1fr]">
          <dt className="font-medium text-slate-600 dark:text-slate-400">Name</dt>
          <dd className="-mt-2 break-words sm:mt-0">{me.name}</dd>
          <dt className="font-medium text-slate-600 dark:text-slate-400">Email</dt>
          <dd className="-mt-2 break-all sm:mt-0">{me.email}</dd>
        </dl>
      </div>

      <div className="card mt-6">
        <h2 className="text-xl font-semibold">Your modules</h2>
        {enrolments.refresh === 'offline' && (
          <Notice tone="offline" className="mt-4">
            You are offline: this is your list as it was last loaded. {profileMessages.offline}
          </Notice>
        )}
        <EnrolmentList table={enrolments} />
        <EnrolForm modules={catalogue.rows} enrolments={enrolments.rows ?? []} />
      </div>

      <YourData />
    </section>
  );
}

function EnrolmentList({ table }: { table: LocalTable<Enrolment> }) {
  const confirm = useConfirm();
  const enrolments = table.rows;

  async function remove(enrolment: Enrolment) {
    if (refuseOffline()) return;
    const ok = await confirm({ title: 'Remove module', message: profileMessages.removeConfirm(enrolment.moduleName), confirmLabel: 'Remove', destructive: true });
    if (!ok || refuseOffline()) return;
    try {
      await profileApi.removeEnrolment(enrolment.id);
    } catch (error) {
      toast.error(error instanceof NetworkError ? profileMessages.offline : profileMessages.removeFailed);
      return;
    }
    await localDb.enrolments.delete(enrolment.id);
    toast.success(profileMessages.removed(enrolment.moduleName));
    void refreshEnrolments();
  }

  if (enrolments === undefined || (enrolments.length === 0 && !table.everSynced && table.refresh === 'pending')) {
    return (
      <div className="mt-4 h-16 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800">
        <span role="status" className="sr-only">
          Loading your modules…
        </span>
      </div>
    );
  }
  // Never loaded on this device and the server could not be reached: an empty list would be a guess.
  if (enrolments.length === 0 && !table.everSynced) return <p className="mt-4 text-slate-700 dark:text-slate-300">Your modules appear here once this page has loaded with a connection.</p>;
  if (enrolments.length === 0) return <p className="mt-4 text-slate-700 dark:text-slate-300">You are not enrolled in any module yet.</p>;
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
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <div id={nameId} className="min-w-0">
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
      <button type="button" className="btn-secondary" aria-describedby={nameId} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

function EnrolForm({ modules, enrolments }: { modules: Module[] | undefined; enrolments: Enrolment[] }) {
  const confirm = useConfirm();
  const [moduleId, setModuleId] = useState('');
  // Spec §4: a module already enrolled in is not offered again.
  const enrolled = new Set(enrolments.map((e) => e.moduleId));
  const offered = (modules ?? []).filter((m) => !enrolled.has(m.id));

  const { errors, busy, onSubmit } = useFormSubmit({
    schema: enrolInputSchema,
    values: { moduleId },
    send: async (data) => {
      const module = offered.find((m) => m.id === data.moduleId);
      if (!module || refuseOffline()) return;
      if (!(await confirm({ title: 'Enroll', message: profileMessages.enrolConfirm(module.name), confirmLabel: 'Enroll' }))) return;
      if (refuseOffline()) return;
      let enrolment: Enrolment;
      try {
        enrolment = await profileApi.enrol(module.id);
      } catch (error) {
        toast.error(
          error instanceof NetworkError
            ? profileMessages.offline
            : error instanceof ApiError && error.code === 'profile.already_enrolled'
              ? profileMessages.alreadyEnrolled
              : error instanceof ApiError && error.code === 'profile.module_not_found'
                ? profileMessages.moduleGone
                : profileMessages.enrolFailed,
        );
        void refreshEnrolments();
        return;
      }
      await localDb.enrolments.put(enrolment);
      setModuleId('');
      toast.success(profileMessages.enrolled(module.name));
      void refreshEnrolments();
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-start dark:border-slate-800">
      <SelectField
        label="Enroll in a module"
        name="moduleId"
        className="flex-1"
        value={moduleId}
        onChange={(e) => setModuleId(e.target.value)}
        error={errors.fields.moduleId ?? errors.form}
        hint={modules !== undefined && offered.length === 0 ? 'You are enrolled in every module we offer.' : undefined}
      >
        <option value="">Select a module</option>
        {offered.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="btn-primary sm:mt-7" disabled={busy}>
        {busy ? 'Enrolling…' : 'Enroll'}
      </button>
    </form>
  );
}

function YourData() {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function deleteAccount() {
    if (refuseOffline()) return;
    const ok = await confirm({ title: 'Delete Account', message: profileMessages.deleteConfirm, confirmLabel: 'Delete Account', destructive: true });
    if (!ok || refuseOffline()) return;
    setBusy(true);
    try {
      await profileApi.deleteAccount();
    } catch (error) {
      setBusy(false);
      toast.error(error instanceof NetworkError ? profileMessages.offline : profileMessages.deleteFailed);
      return;
    }
    await clearUserData();
    toast.success(profileMessages.deleted);
    navigate('/login', { replace: true });
  }

  return (
    <div className="card mt-6">
      <h2 className="text-xl font-semibold">Your data</h2>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
        Download a copy of everything we store about you, or delete your account. Deleting removes your login, enrolments and personal details for good; your questions and answers stay, shown as
        “Deleted user”.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        {/* The server names the file (Content-Disposition); offline there is nothing to download. */}
        <a
          href="/api/me/export"
          download
          className="btn-secondary"
          onClick={(e) => {
            if (refuseOffline()) e.preventDefault();
          }}
        >
          <Download aria-hidden size={18} />
          Download my data
        </a>
        <button type="button" className="btn-danger" disabled={busy} onClick={() => void deleteAccount()}>
          <Trash2 aria-hidden size={18} />
          {busy ? 'Deleting…' : 'Delete Account'}
        </button>
      </div>
    </div>
  );
}
