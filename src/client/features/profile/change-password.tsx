import { useId, useState } from 'react';
import { changePasswordSchema, limits } from '../../../common/auth.schemas.ts';
import { profileMessages } from '../../../common/profile.ts';
import { PasswordField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { isOffline, NetworkError } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';
import { profileApi } from './profile-api.ts';
import { accountErrors } from './profile-requests.ts';

const emptyPasswords = { currentPassword: '', newPassword: '' };

/** Change your password: the current one and a new one; other devices are logged out. */
export function ChangePassword() {
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
