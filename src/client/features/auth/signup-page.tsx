import { useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { authMessages, limits } from '../../../common/auth.messages.ts';
import { FormField } from '../../components/form-field.tsx';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { useVisitedHome } from '../../lib/visited-home.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { authApi } from './auth-api.ts';
import { AuthCard, FormAlert } from './auth-card.tsx';
import { AccountPasswordField, EmailField } from './credential-fields.tsx';
import { GoogleButton } from './google-button.tsx';
import { ResendLinkButton } from './resend-link.tsx';

export function SignupPage() {
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [signedUp, setSignedUp] = useState<string>();
  const visitedHome = useVisitedHome();
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: () => import('../../../common/auth.schemas.ts').then((m) => m.signUpInputSchema),
    values,
    send: async (data) => {
      await authApi.signUp(data);
      toast.success(authMessages.welcome(data.name));
      setSignedUp(data.email);
    },
  });

  if (!visitedHome) return <Navigate to="/" replace />;
  if (signedUp) return <CheckYourInbox email={signedUp} />;

  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  return (
    <AuthCard title="Create your account" intro="Book one-on-one tutoring and join the community board.">
      <PageMeta title="Sign up" description="Create a TutorBook account to book tutoring sessions and ask questions." />
      <FormAlert message={errors.form} />
      <HydratedForm onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormField
          label="Name"
          name="name"
          autoComplete="name"
          required
          maxLength={limits.nameMax}
          value={values.name}
          onChange={set('name')}
          error={errors.fields.name}
        />
        <EmailField value={values.email} onChange={set('email')} error={errors.fields.email} />
        <AccountPasswordField
          purpose="new"
          value={values.password}
          onChange={set('password')}
          error={errors.fields.password}
        />
        <button type="submit" className="btn-primary mt-2 w-full" disabled={busy}>
          {busy ? 'Creating account…' : 'Create Account'}
        </button>
      </HydratedForm>
      <GoogleButton label="Sign up with Google" />
      <p className="mt-6 text-center text-sm">
        Already have an account?{' '}
        <Link to="/login" className="link">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}

/** After sign-up (spec §4: a verification e-mail, then the login page): where the link went, and a way to get another. */
function CheckYourInbox({ email }: { email: string }) {
  return (
    <AuthCard title="Check your inbox">
      <PageMeta title="Check your inbox" description="Confirm your e-mail address to start booking." />
      <div className="flex flex-col gap-4 text-slate-700 dark:text-slate-300">
        <p>
          We sent a link to{' '}
          <strong className="font-semibold break-all text-slate-900 dark:text-slate-100">{email}</strong>. Open it and
          log in with the password you chose to confirm your address. Look in your spam folder too.
        </p>
        <Link to="/login" className="btn-primary w-full">
          Go to login
        </Link>
        <p className="text-sm">Nothing arrived after a few minutes?</p>
        <ResendLinkButton email={email} justSent />
      </div>
    </AuthCard>
  );
}
