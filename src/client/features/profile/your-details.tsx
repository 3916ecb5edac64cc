import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { limits, updateNameSchema } from '../../../common/auth.schemas.ts';
import { profileMessages } from '../../../common/profile.ts';
import { FormField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { SaveCancel } from '../../components/save-cancel.tsx';
import { isOffline, NetworkError } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { useSession } from '../../lib/session.tsx';
import { toast } from '../../lib/toast.ts';
import { profileApi } from './profile-api.ts';
import { accountErrors } from './profile-requests.ts';

/** Your name (which you can change in place) and e-mail address. */
export function YourDetails({ name, email }: { name: string; email: string }) {
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
