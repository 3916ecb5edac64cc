import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { authMessages, limits, newPasswordSchema, passwordResetRequestSchema } from '../../../common/auth.schemas.ts';
import { PasswordField } from '../../components/form-field.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { ApiError } from '../../lib/api.ts';
import { toFormErrors, useFormSubmit } from '../../lib/forms.ts';
import { authApi } from './auth-api.ts';
import { AuthCard, FormAlert } from './auth-card.tsx';
import { EmailField } from './credential-fields.tsx';

/**
 * /change-password: the forgot-password form; opened from the e-mailed link (`?token=`) it sets the
 * new password instead.
 */
export function ChangePasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  // An invitation (a staff account without a password yet) opens the same page: it sets a first password; so
  // does the link sent to someone who logs in with Google only (`set`).
  const first = params.get('invited') === '1' ? 'invited' : params.get('set') === '1' ? 'google' : undefined;
  return token ? <NewPasswordForm token={token} first={first} /> : <ForgotPasswordForm expired={params.has('error')} />;
}

function ForgotPasswordForm({ expired }: { expired: boolean }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: passwordResetRequestSchema,
    values: { email },
    // The spec's texts for a missing or malformed address and for too many tries; its catch-all for the rest.
    // An unknown address is not told apart from a known one: both are sent (DESIGN "Product decisions").
    toErrors: (error) =>
      error instanceof ApiError && [400, 429].includes(error.status)
        ? toFormErrors(error)
        : { form: authMessages.resetFailed, fields: {} },
    send: async (data) => {
      await authApi.requestPasswordReset(data.email);
      setSent(true);
    },
  });
  // A new try replaces what the last one said, whether it is sent or stopped by the form's own check.
  const submit: typeof onSubmit = (event) => {
    setSent(false);
    return onSubmit(event);
  };

  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the email you signed up with and we will send you a link to choose a new password."
    >
      <PageMeta title="Reset password" description="Get a link to choose a new TutorBook password." />
      {expired && <FormAlert message="That link is invalid or has expired. Ask for a new one below." />}
      <FormAlert message={errors.form} />
      {sent && (
        <p
          role="status"
          className="mb-4 rounded-lg border border-green-200 bg-green-50 p-3 text-sm font-medium text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
        >
          {authMessages.resetSent}
        </p>
      )}
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <EmailField
          required={false}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.fields.email}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="link">
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}

/** The intro of a first password: an invited staff member's, or a Google user's. */
const firstPasswordIntro = {
  invited: 'Choose a password for your TutorBook staff account.',
  google: 'Choose a password to log in with your e-mail address too. "Continue with Google" keeps working.',
};

function NewPasswordForm({ token, first }: { token: string; first: keyof typeof firstPasswordIntro | undefined }) {
  const invited = first !== undefined;
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: newPasswordSchema,
    values: { token, newPassword: password },
    send: async (data) => {
      await authApi.resetPassword(data);
      toast.success(
        invited ? 'Your password is set. You can log in now.' : 'Your password has been changed. You can log in now.',
      );
      void navigate('/login');
    },
  });

  const title = invited ? 'Set your password' : 'Choose a new password';
  return (
    <AuthCard title={title} intro={first && firstPasswordIntro[first]}>
      <PageMeta title={title} description="Set a password for your TutorBook account." />
      <FormAlert message={errors.form} />
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <PasswordField
          label={invited ? 'Password' : 'New password'}
          name="newPassword"
          autoComplete="new-password"
          maxLength={limits.passwordMax}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.fields.newPassword}
          hint={`At least ${limits.passwordMin} characters.`}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Saving…' : invited ? 'Save password' : 'Save new password'}
        </button>
      </form>
    </AuthCard>
  );
}
