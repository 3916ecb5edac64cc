import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { authMessages, limits, loginInputSchema } from '../../../common/auth.schemas.ts';
import { FormField, PasswordField } from '../../components/form-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { toFormErrors, useFormSubmit, type FormErrors } from '../../lib/forms.ts';
import { authApi } from './auth-api.ts';
import { FormAlert } from './auth-card.tsx';

/** Spec §8 Login: the error texts by cause; an unverified e-mail is signed out and sent to /home. */
function loginErrors(error: unknown): FormErrors {
  if (error instanceof ApiError && error.status === 429) return { form: authMessages.tooManyAttempts, fields: {} };
  if (error instanceof ApiError && error.status === 401) return { form: authMessages.incorrectCredentials, fields: {} };
  return toFormErrors(error);
}

export function LoginForm({ showLinks = true }: { showLinks?: boolean }) {
  const navigate = useNavigate();
  const { refresh } = useSession();
  // Opened from the e-mailed verification link: this login also confirms the address.
  const verificationToken = useSearchParams()[0].get('verify') ?? undefined;
  const [values, setValues] = useState({ email: '', password: '' });
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: loginInputSchema,
    values,
    toErrors: loginErrors,
    send: async (data) => {
      try {
        await authApi.signIn({ ...data, verificationToken });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'auth.email_not_verified')) throw error;
        toast.error(authMessages.verifyFirst);
        navigate('/home');
        return;
      }
      await refresh();
      navigate('/offers');
    },
  });

  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [key]: e.target.value }));

  return (
    <>
      <FormAlert message={errors.form} />
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="email" required maxLength={limits.emailMax} value={values.email} onChange={set('email')} error={errors.fields.email} />
        <PasswordField label="Password" name="password" autoComplete="current-password" required maxLength={limits.passwordMax} value={values.password} onChange={set('password')} error={errors.fields.password} />
        {showLinks && (
          <Link to="/change-password" className="link self-end text-sm">
            Forgot Password?
          </Link>
        )}
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Logging in…' : 'Login'}
        </button>
      </form>
    </>
  );
}
