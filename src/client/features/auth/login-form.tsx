import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authMessages } from '../../../common/auth.messages.ts';
import { dashboardPathByRole } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, useFormSubmit, type FormErrors } from '../../lib/forms.ts';
import { takeReturnTo } from '../../lib/return-to.ts';
import { useSession } from '../../lib/session.tsx';
import { toast } from '../../lib/toast.ts';
import { authApi } from './auth-api.ts';
import { FormAlert } from './auth-card.tsx';
import { AccountPasswordField, EmailField } from './credential-fields.tsx';
import { ResendLinkButton } from './resend-link.tsx';

/** Spec §8 Login: the error texts by cause. */
function loginErrors(error: unknown): FormErrors {
  if (error instanceof ApiError && error.status === 429) return { form: authMessages.tooManyAttempts, fields: {} };
  if (error instanceof ApiError && error.status === 401) return { form: authMessages.incorrectCredentials, fields: {} };
  return toFormErrors(error);
}

/** Where a login lands: the page asked for before, else staff on their dashboard and students on the courses. */
export const landingPath = (me: Me) =>
  takeReturnTo() ?? (me.role === 'student' ? '/offers' : dashboardPathByRole[me.role]);

/**
 * The e-mail login. Opened from the verification link (`?verify=`), it also confirms the address
 * (docs/decisions/0003). `onLoggedIn` replaces the usual landing (the session-ended dialog stays on its page).
 */
export function LoginForm({
  showLinks = true,
  initialEmail = '',
  onLoggedIn,
}: {
  showLinks?: boolean;
  initialEmail?: string;
  onLoggedIn?: (me: Me) => void;
}) {
  const navigate = useNavigate();
  const { refresh, beforeLogin } = useSession();
  const verificationToken = useSearchParams()[0].get('verify') ?? undefined;
  const [values, setValues] = useState({ email: initialEmail, password: '' });
  const [linkExpired, setLinkExpired] = useState(false);
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: () => import('../../../common/auth.schemas.ts').then((m) => m.loginInputSchema),
    values,
    toErrors: loginErrors,
    send: async (data) => {
      setLinkExpired(false);
      await beforeLogin();
      try {
        await authApi.signIn({ ...data, verificationToken });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'auth.invalid_verification_link') setLinkExpired(true);
        if (!(error instanceof ApiError && error.code === 'auth.email_not_verified')) throw error;
        // Spec §8: the alert, then /home. The password was right, so offering a new link reveals nothing.
        toast.error(authMessages.verifyFirst, {
          duration: 15_000,
          action: { label: 'Send the link again', onClick: () => void resend(data.email) },
        });
        void navigate('/home');
        return;
      }
      const me = await refresh();
      if (!me) throw new Error('Logged in, but the session could not be read.');
      if (verificationToken) toast.success('Your e-mail address is confirmed. Welcome!');
      if (onLoggedIn) onLoggedIn(me);
      else void navigate(landingPath(me), { replace: true });
    },
  });

  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  return (
    <>
      <FormAlert message={errors.form} />
      {linkExpired && <ResendLinkButton email={values.email.trim()} className="mb-4" />}
      <HydratedForm onSubmit={onSubmit} className="flex flex-col gap-4">
        <EmailField value={values.email} onChange={set('email')} error={errors.fields.email} />
        <AccountPasswordField
          purpose="current"
          value={values.password}
          onChange={set('password')}
          error={errors.fields.password}
        />
        {showLinks && (
          <Link to="/change-password" className="link self-end text-sm">
            Forgot Password?
          </Link>
        )}
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Logging in…' : 'Login'}
        </button>
      </HydratedForm>
    </>
  );
}

async function resend(email: string) {
  try {
    await authApi.resendVerification(email);
    toast.success(`A link is on its way to ${email}. If none arrives in a few minutes, look in your spam folder.`);
  } catch (error) {
    toast.error(errorText(error));
  }
}
