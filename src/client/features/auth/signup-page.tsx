import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { authMessages, limits, signUpInputSchema } from '../../../common/auth.schemas.ts';
import { FormField, PasswordField } from '../../components/form-field.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { hasVisitedHome } from '../../lib/visited-home.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { authApi } from './auth-api.ts';
import { AuthCard, FormAlert } from './auth-card.tsx';
import { GoogleButton } from './google-button.tsx';

export function SignupPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: signUpInputSchema,
    values,
    send: async (data) => {
      await authApi.signUp(data);
      toast.success(authMessages.welcome(data.name));
      navigate('/login');
    },
  });

  if (!hasVisitedHome()) return <Navigate to="/" replace />;

  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [key]: e.target.value }));

  return (
    <AuthCard title="Create your account" intro="Book one-on-one tutoring and join the community board.">
      <PageMeta title="Sign up" description="Create a TutorBook account to book tutoring sessions and ask questions." />
      <FormAlert message={errors.form} />
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormField label="Name" name="name" autoComplete="name" required maxLength={limits.nameMax} value={values.name} onChange={set('name')} error={errors.fields.name} />
        <FormField label="Email" name="email" type="email" autoComplete="email" required maxLength={limits.emailMax} value={values.email} onChange={set('email')} error={errors.fields.email} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          maxLength={limits.passwordMax}
          value={values.password}
          onChange={set('password')}
          error={errors.fields.password}
          hint={`At least ${limits.passwordMin} characters.`}
        />
        <button type="submit" className="btn-primary mt-2 w-full" disabled={busy}>
          {busy ? 'Creating account…' : 'Create Account'}
        </button>
      </form>
      <GoogleButton label="Sign up with Google" />
      <p className="mt-6 text-center text-sm">
        Already have an account? <Link to="/login" className="link">Log in</Link>
      </p>
    </AuthCard>
  );
}
