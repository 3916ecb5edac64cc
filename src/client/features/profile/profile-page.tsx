import { Download, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import type { Module } from '../../../common/catalogue.ts';
import { changePasswordSchema, limits, updateNameSchema } from '../../../common/auth.schemas.ts';
import { enrolInputSchema, profileMessages, type Enrolment } from '../../../common/profile.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { FormField, PasswordField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { SaveCancel } from '../../components/save-cancel.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { isOffline, isSessionEnded, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, useFormSubmit, type FormErrors } from '../../lib/forms.ts';
import { useSession } from '../../lib/session.tsx';
import { refreshSource } from '../../offline/engine.ts';
import type { LocalData } from '../../offline/hooks.ts';
import { DataSaverSetting } from './data-saver-setting.tsx';
import { profileApi } from './profile-api.ts';
import { enrolmentsSource, enrolmentsTable } from './profile.sync.ts';
import { useEnrolments } from './use-enrolments.ts';

/** A failed request in the spec's words: `fallback` for a server fault, this page's offline text, and `codes`. */
const failureText = (error: unknown, fallback: string, codes?: Record<string, string>) =>
  errorText(error, fallback, { offline: profileMessages.offline, codes });

/** Writes need the server; offline they say so and change nothing (`true` when offline). */
function refuseOffline(): boolean {
  if (!isOffline()) return false;
  toast.error(profileMessages.offline);
  return true;
}

/** What the enrol form offers: the catalogue's modules, handed in by app/ (features do not import each other). */
export type OfferedModule = Pick<Module, 'id' | 'name'>;

/**
 * /profile (spec §2, §4 Enrolment, §8 Profile): who you are, your modules (remove, enrol), your data
 * (download, delete the account). Reads come from IndexedDB, so the page opens offline. `modules`:
 * undefined until the catalogue has been read.
 */
export function ProfilePage({ modules }: { modules: OfferedModule[] | undefined }) {
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

      <DataSaverSetting />
      <ChangePassword />
      <YourData />
    </section>
  );
}

function EnrolmentList({ table }: { table: LocalData<Enrolment[]> }) {
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

function EnrolForm({ modules, enrolments }: { modules: OfferedModule[] | undefined; enrolments: Enrolment[] }) {
  const confirm = useConfirm();
  const [moduleId, setModuleId] = useState('');
  // Spec §4: a module already enrolled in is not offered again.
  const enrolled = new Set(enrolments.map((e) => e.moduleId));
  const offered = (modules ?? []).filter((m) => !enrolled.has(m.id));

  const { errors, busy, onSubmit } = useFormSubmit({
    schema: enrolInputSchema,
    values: { moduleId },
    // Asked before the button says "Enrolling…": nothing is under way while the question is open.
    confirm: async (data) => {
      const module = offered.find((m) => m.id === data.moduleId);
      if (!module || refuseOffline()) return false;
      return confirm({ title: 'Enroll', message: profileMessages.enrolConfirm(module.name), confirmLabel: 'Enroll' });
    },
    send: async (data) => {
      const module = offered.find((m) => m.id === data.moduleId);
      if (!module || refuseOffline()) return;
      let enrolment: Enrolment;
      try {
        enrolment = await profileApi.enrol(module.id);
      } catch (error) {
        if (isSessionEnded(error)) return;
        toast.error(
          failureText(error, profileMessages.enrolFailed, {
            'profile.already_enrolled': profileMessages.alreadyEnrolled,
            'profile.module_not_found': profileMessages.moduleGone,
          }),
        );
        void refreshSource(enrolmentsSource);
        return;
      }
      await enrolmentsTable.put(enrolment);
      setModuleId('');
      toast.success(profileMessages.enrolled(module.name));
      void refreshSource(enrolmentsSource);
    },
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-start dark:border-slate-800"
    >
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

/** Turns a failed account change into what its form shows: offline and an ended session have their own ways. */
function accountErrors(error: unknown): FormErrors {
  if (error instanceof NetworkError) return { form: profileMessages.offline, fields: {} };
  // The session-ended dialog says it; the form keeps what was typed for after the login.
  if (isSessionEnded(error)) return { fields: {} };
  return toFormErrors(error);
}

function YourDetails({ name, email }: { name: string; email: string }) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="card mt-6">
      <h2 className="text-xl font-semibold">Your details</h2>
      {editing ? (
        <NameForm name={name} onDone={() => setEditing(false)} />
      ) : (
        <dl className="mt-4 grid gap-3 sm:grid-cols-[8rem_1fr]">
          <dt className="font-medium text-slate-600 sm:self-center dark:text-slate-400">Name</dt>
          <dd className="-mt-2 flex items-center justify-between gap-4 sm:mt-0">
            <span className="min-w-0 break-words">{name}</span>
            <button type="button" className="btn-secondary shrink-0" onClick={() => setEditing(true)}>
              <Pencil aria-hidden size={18} />
              Change name
            </button>
          </dd>
          <dt className="font-medium text-slate-600 dark:text-slate-400">Email</dt>
          <dd className="-mt-2 break-all sm:mt-0">{email}</dd>
        </dl>
      )}
    </div>
  );
}

function NameForm({ name, onDone }: { name: string; onDone: () => void }) {
  const { refresh } = useSession();
  const [value, setValue] = useState(name);
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: updateNameSchema,
    values: { name: value },
    toErrors: accountErrors,
    send: async (data) => {
      if (isOffline()) throw new NetworkError();
      await profileApi.updateName(data.name);
      // The navbar, the dashboard's welcome and this card all show the name the server now has.
      await refresh();
      toast.success(profileMessages.nameChanged);
      onDone();
    },
  });
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" aria-label="Change your name">
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <FormField
        label="Name"
        name="name"
        autoComplete="name"
        maxLength={limits.nameMax}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={errors.fields.name}
        autoFocus
      />
      <SaveCancel busy={busy} saveLabel="Save name" onCancel={onDone} />
    </form>
  );
}

const emptyPasswords = { currentPassword: '', newPassword: '' };

function ChangePassword() {
  const [values, setValues] = useState(emptyPasswords);
  const headingId = useId();
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: changePasswordSchema,
    values,
    toErrors: accountErrors,
    send: async (data) => {
      if (isOffline()) throw new NetworkError();
      await profileApi.changePassword(data);
      setValues(emptyPasswords);
      toast.success(profileMessages.passwordChanged);
    },
  });
  const set = (key: keyof typeof emptyPasswords) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  return (
    <form noValidate onSubmit={onSubmit} className="card mt-6 flex flex-col gap-4" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Change your password
      </h2>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          maxLength={limits.passwordMax}
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={errors.fields.currentPassword}
        />
        <PasswordField
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          maxLength={limits.passwordMax}
          value={values.newPassword}
          onChange={set('newPassword')}
          error={errors.fields.newPassword}
          hint={`At least ${limits.passwordMin} characters. Other devices are logged out.`}
        />
      </div>
      <button type="submit" className="btn-primary self-start" disabled={busy}>
        {busy ? 'Saving…' : 'Change password'}
      </button>
    </form>
  );
}
